import Foundation
import Testing
@testable import RentalTwinCLI

/// A city's weather from an EPW file next to the scenario, as a user writes it.
@Suite("EPW weather in scenarios", .serialized)
struct EPWScenarioTests {
    static let budapest = #""Budapest": { "diurnal": { "meanC": -2, "amplitudeK": 4, "minAtHour": 5, "noiseK": 0.5 } }"#

    /// An EPW of 8–11 January: `celsius(hour)` each hour (hour 0 = 8 January 00:00–01:00).
    static func epw(_ celsius: (Int) -> String) -> String {
        var lines = ["LOCATION,Budapest,-,HUN,IWEC Data,128430,47.43,19.18,1.0,185.0"]
        lines += ["DESIGN CONDITIONS,0", "TYPICAL/EXTREME PERIODS,0", "GROUND TEMPERATURES,0", "HOLIDAYS/DAYLIGHT SAVINGS,No,0,0,0",
                  "COMMENTS 1,synthetic", "COMMENTS 2,synthetic", "DATA PERIODS,1,1,Data,Thursday, 1/ 8,1/11"]
        for index in 0..<96 {
            let day = 8 + index / 24, hour = index % 24 + 1
            lines.append("1995,1,\(day),\(hour),60,A7A7,\(celsius(index)),-8.0,85,99900,0,0,250,0,0,0,0,0,0,0,200,3.1,10,10,"
                         + "4.0,300,9,999999999,5,0.04,0,88,0.0,0.0,1.0")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func scenario(epw: String?) throws -> String {
        let (file, _) = try mutatedExample("01-winter-weekend.json", [(Self.budapest, #""Budapest": { "epw": "weather/bud.epw" }"#)])
        let directory = (file as NSString).deletingLastPathComponent
        if let epw {
            try FileManager.default.createDirectory(atPath: "\(directory)/weather", withIntermediateDirectories: true)
            try epw.write(toFile: "\(directory)/weather/bud.epw", atomically: true, encoding: .utf8)
        }
        return file
    }

    @Test func aScenarioRunsOnItsEPWWeatherAndTheWatcherSeesIt() async throws {
        // Warm (18 °C) until 9 January 06:00 local standard time, then a cold front (-10 °C).
        let file = try scenario(epw: Self.epw { $0 < 24 + 6 ? "18.0" : "-10.0" })
        let outcome = await RentalTwinCommand.main(["run", file, "--log"])
        #expect([.success, .failure].contains(outcome.exitCode), "\(outcome.standardOutput)\(outcome.standardError)")
        let log = outcome.standardOutput
        // The file is UTC+1 (Budapest's winter time): the watcher's 06:05 reading lies between the
        // warm 06:00 record and the cold 07:00 one (15.7 °C, no action); at 07:05 it reads -10 °C and heats.
        let actions = log.split(separator: "\n").filter { $0.contains("weatherWatcher") }
        #expect(actions.first?.hasPrefix("  2026-01-09T07:05  weatherWatcher flat-1: heating switch ON — Budapest reports -10.0 °C") == true,
                "\(log)")
    }

    @Test func aMissingFileIsALocatedError() async throws {
        let file = try scenario(epw: nil)
        let outcome = await RentalTwinCommand.main(["run", file])
        #expect(outcome.exitCode == .invalidInput)
        #expect(outcome.standardError.contains(":10: weather.Budapest.epw: cannot read "), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("weather/bud.epw: there is no such file."), "\(outcome.standardError)")
    }

    @Test func aBadLineOfTheFileIsNamed() async throws {
        let file = try scenario(epw: Self.epw { $0 == 5 ? "warm" : "1.0" })
        let outcome = await RentalTwinCommand.main(["run", file])
        #expect(outcome.exitCode == .invalidInput)
        #expect(outcome.standardError.contains(#"weather.Budapest.epw: weather/bud.epw line 14: field 7 (dry-bulb temperature) is "warm", not a number."#),
                "\(outcome.standardError)")
        // Inside EPW's range (-70 … 70 °C) but not the scenario's outdoor bound.
        let hot = try scenario(epw: Self.epw { $0 == 5 ? "65.0" : "1.0" })
        let tooHot = await RentalTwinCommand.main(["run", hot])
        #expect(tooHot.standardError.contains("weather/bud.epw line 14: the dry-bulb temperature 65 °C is outside -90 … +60 °C."), "\(tooHot.standardError)")
        // Outside EPW's range: named as out of range, not as missing (issue 26).
        let absurd = try scenario(epw: Self.epw { $0 == 5 ? "9999" : "1.0" })
        let refused = await RentalTwinCommand.main(["run", absurd])
        #expect(refused.exitCode == .invalidInput)
        #expect(refused.standardError.contains(#"weather/bud.epw line 14: field 7 (dry-bulb temperature) is "9999" °C, out of range"#), "\(refused.standardError)")
    }
}
