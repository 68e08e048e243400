import Foundation
import Testing
@testable import RentalTwinCLI

/// A price series next to the scenario prices `kpi.csv`; a bad line is a located error.
@Suite("Tariffs in scenarios", .serialized)
struct TariffScenarioTests {
    func scenario(prices: String) throws -> String {
        let (file, _) = try mutatedExample("01-winter-weekend.json", [(#""users": ["#, #""tariff": { "series": "prices.csv" }, "co2KgPerKWh": 0.2, "users": ["#)])
        try prices.write(toFile: (file as NSString).deletingLastPathComponent + "/prices.csv", atomically: true, encoding: .utf8)
        return file
    }

    @Test func aFlatSeriesCostsEnergyTimesThePrice() async throws {
        let file = try scenario(prices: "time,price_per_kwh\n2026-01-01T00:00,0.5\n")
        let reports = (file as NSString).deletingLastPathComponent + "/reports"
        let outcome = await RentalTwinCommand.main(["run", file, "--report", reports])
        #expect(outcome.exitCode == .success, "\(outcome.standardOutput)\(outcome.standardError)")
        let kpi = try String(contentsOfFile: "\(reports)/kpi.csv", encoding: .utf8)
        let row = try #require(kpi.split(separator: "\n").first { $0.hasPrefix("listing,flat-1,") }).split(separator: ",", omittingEmptySubsequences: false)
        let energy = try #require(Double(row[5])), cost = try #require(Double(row[6])), emissions = try #require(Double(row[7]))
        #expect(abs(cost - energy * 0.5) < 0.001 && abs(emissions - energy * 0.2) < 0.001, "\(kpi)")
    }

    @Test func aBadPriceLineIsNamed() async throws {
        let outcome = await RentalTwinCommand.main(["run", try scenario(prices: "time,price_per_kwh\n2026-01-01T00:00,cheap\n")])
        #expect(outcome.exitCode == .invalidInput)
        #expect(outcome.standardError.contains(#"tariff.series: prices.csv line 2: "2026-01-01T00:00,cheap" is not time,price_per_kwh"#), "\(outcome.standardError)")
    }
}
