import Foundation
import Testing
@testable import RentalTwinCLI

/// A listing in a city outside the built-in gazetteer runs like any other (SCENARIO-FORMAT.md, "any city").
@Suite("Any city, through the command line")
struct AnyCityCommandTests {
    /// The winter-weekend example moved to `city`: its weather watcher must reach the feed for that
    /// city (the heating goes ON at 00:05), so the scenario passes only if the feed answers for it.
    func winterWeekend(in city: String, country: String, cities: String?) throws -> String {
        var text = try String(contentsOfFile: "\(scenariosDirectory)/01-winter-weekend.json", encoding: .utf8)
            .replacingOccurrences(of: "\"Budapest\"", with: "\"\(city)\"")
            .replacingOccurrences(of: "\"country\": \"Hungary\"", with: "\"country\": \"\(country)\"")
        if let cities { text = text.replacingOccurrences(of: "\"users\":", with: "\"cities\": \(cities),\n  \"users\":") }
        let file = try temporaryDirectory().appendingPathComponent("any-city.json").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test(arguments: [
        ("Testville", "Testland", nil),
        ("Siófok", "HU", #"{ "Siófok": { "country": "HU", "lat": 46.9, "lon": 18.05 } }"#),
    ])
    func aPhysicsScenarioInAMadeUpCityPasses(city: String, country: String, cities: String?) async throws {
        let file = try winterWeekend(in: city, country: country, cities: cities)
        let outcome = await RentalTwinCommand.main(["run", file, "--log"])
        #expect(outcome.exitCode == .success, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("PASS"))
        #expect(outcome.standardOutput.contains("weatherWatcher flat-1"), "the watcher must have acted on the feed's answer")
    }

    @Test func aCityWithBadCoordinatesIsALocatedError() async throws {
        let file = try winterWeekend(in: "Siófok", country: "HU", cities: #"{ "Siófok": { "lat": 146.9, "lon": 18.05 } }"#)
        let outcome = await RentalTwinCommand.main(["validate", file])
        #expect(outcome.exitCode == .invalidInput)
        #expect(outcome.standardError.contains("cities.Siófok.lat: is 146.9° but must be between -90 and 90 degrees north."), "\(outcome.standardError)")
    }
}
