import Foundation
@testable import RentalTwinCLI
import ScenarioFormat
import Scenarios
import Testing
import Twin

/// An example scenario with `replacements` applied to its text (each must match), written to a fresh
/// temporary file; returns the file and a report directory next to it that does not exist yet.
func mutatedExample(_ name: String, _ replacements: [(String, String)]) throws -> (file: String, reports: String) {
    var text = try String(contentsOfFile: "\(scenariosDirectory)/\(name)", encoding: .utf8)
    for (old, new) in replacements {
        guard text.contains(old) else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSDebugDescriptionErrorKey: "\(name) has no \(old)"]) }
        text = text.replacingOccurrences(of: old, with: new)
    }
    let dir = try temporaryDirectory()
    let file = dir.appendingPathComponent("mutated.json").path
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    return (file, dir.appendingPathComponent("reports").path)
}

/// Inputs found by hand and by mutating the examples that used to hang, storm or slip through;
/// each is run as a user would, through the command line.
@Suite("Hostile and unusual input", .serialized)
struct HostileInputTests {
    /// The month portfolio with `v1`'s departure replaced by a second arrival of `b4`: `v1` never leaves.
    @Test func aGuestWhoNeverChecksOutIsSimulatedNotAHang() async throws {
        let (file, reports) = try mutatedExample("10-portfolio-month.json", [
            (#"{ "at": "2026-01-10T09:30", "depart": { "reservation": "v1" } },"#,
             #"{ "at": "2026-01-10T16:00", "arrive": { "reservation": "b4" } },"#),
        ])
        let outcome = await RentalTwinCommand.main(["run", file, "--log", "--report", reports])
        #expect(outcome.exitCode == .failure, "\(outcome.standardOutput)\(outcome.standardError)")
        let out = outcome.standardOutput
        #expect(out.contains("744 h simulated"))
        // The duplicate arrival is refused by the services, with its code.
        #expect(out.contains("timeline[16] at 2026-01-10T16:00: expected arrive to succeed; actual reservation.state"))
        // The setback at v1's check-out says the guest is still there; v2 moves in beside v1.
        #expect(out.contains("setback vie: heating setpoint 17.0 °C — check-out of v1 (v1 is still checked in: the guest overstays"))
        #expect(out.contains("arrive v2 (timeline[15])\n"))
        // v1 spends three weeks at the setback temperature: far more discomfort than the example allows.
        #expect(out.contains("expected discomfort of vie over 2026-01-01T00:00 … 2026-02-01T00:00 ≤ 2 K·h; actual"))
        #expect(FileManager.default.fileExists(atPath: "\(reports)/stays.csv"))
        let stays = try String(contentsOfFile: "\(reports)/stays.csv", encoding: .utf8)
        #expect(stays.split(separator: "\n").contains { $0.hasPrefix("v1,") && $0.contains("checkedIn") })
    }

    @Test("values that made event storms are located validation errors with hints", arguments: [
        ("01-winter-weekend.json", #""capacitanceKWhPerK": 2.3"#, #""capacitanceKWhPerK": 1e-9"#,
         ":21: listings[0].thermal.capacitanceKWhPerK: is 1e-09 kWh/K but must be between 0.01 and 1000 kWh/K. Hint:"),
        ("01-winter-weekend.json", #""capacitanceKWhPerK": 2.3"#, #""capacitanceKWhPerK": 1e-12"#,
         ":21: listings[0].thermal.capacitanceKWhPerK: is 1e-12 kWh/K"),
        ("01-winter-weekend.json", #""hysteresisK": 0.5"#, #""hysteresisK": 1e-9"#,
         ":23: listings[0].devices[0].hysteresisK: is 1e-09 K but must be between 0.05 and 10 K. Hint:"),
        ("01-winter-weekend.json", #""meanC": -2"#, #""meanC": 1e300"#,
         ":10: weather.Budapest.diurnal: can reach 1e+300 … 1e+300 °C"),
        ("01-winter-weekend.json", #""amplitudeK": 4"#, #""amplitudeK": 1e15"#,
         ":10: weather.Budapest.diurnal: can reach -1000000000000006.5"),
        ("01-winter-weekend.json", #""noiseK": 0.5"#, #""noiseK": 1e300"#,
         ":10: weather.Budapest.diurnal: can reach -9"),
        ("01-winter-weekend.json", #""noiseK": 0.5"#, #""noiseK": 1.7976931348623157e308"#,
         ":10: weather.Budapest.diurnal: has no finite range (meanC -2 ± amplitudeK 4 ± 9 × noiseK 1.7976931348623157e+308)"),
        ("01-winter-weekend.json", #""amplitudeK": 4"#, #""amplitudeK": 1e300"#,
         "outside -90 … +60 °C. Hint: keep meanC within -90 … +60 °C"),
        ("01-winter-weekend.json", #"{ "diurnal": { "meanC": -2, "amplitudeK": 4, "minAtHour": 5, "noiseK": 0.5 } }"#, #"{ "constantC": -1e300 }"#,
         ":10: weather.Budapest.constantC: is -1e+300 °C but must be between -90 and 60 °C. Hint:"),
        ("02-summer-heatwave.json", #""tempC": 24"#, #""tempC": 1e300"#,
         ".tempC: is 1e+300 °C but must be between -90 and 60 °C. Hint:"),
        ("01-winter-weekend.json", #""powerW": 3000"#, #""powerW": 1e9"#,
         "listings[0].devices[0].powerW: is 1000000000 W but must be more than 0 and at most 50000 W. Hint:"),
        ("01-winter-weekend.json", #""setpointC": 21"#, #""setpointC": 45"#,
         ":23: listings[0].devices[0].setpointC: is 45 °C but must be between 5 and 30 °C. Hint: a heating thermostat takes setpoints from 5 to 30 °C."),
        ("01-winter-weekend.json", #""uaWPerK": 80"#, #""uaWPerK": 1e-6"#,
         "listings[0].thermal.uaWPerK: is 1e-06 W/K but must be between 1 and 10000 W/K. Hint:"),
    ])
    func stormInputsAreRefused(example: String, old: String, new: String, message: String) async throws {
        let (file, reports) = try mutatedExample(example, [(old, new)])
        let outcome = await RentalTwinCommand.main(["run", file, "--report", reports])
        #expect(outcome.exitCode == .invalidInput, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
        #expect(!FileManager.default.fileExists(atPath: reports), "bad input must not write reports")
    }

    @Test func aListingThatHeatsFasterThanAnyRoomIsRefused() async throws {
        let (file, reports) = try mutatedExample("01-winter-weekend.json", [
            (#""powerW": 3000"#, #""powerW": 40000"#), (#""capacitanceKWhPerK": 2.3"#, #""capacitanceKWhPerK": 0.1"#),
        ])
        let outcome = await RentalTwinCommand.main(["run", file, "--report", reports])
        #expect(outcome.exitCode == .invalidInput)
        #expect(outcome.standardError.contains(
            ":21: listings[0].thermal.capacitanceKWhPerK: its devices at full power and 3 guest(s) (40300 W) would change the room by 403 K per hour, more than the 200 K/h any real flat manages. Hint: raise capacitanceKWhPerK"),
            "\(outcome.standardError)")
        #expect(!FileManager.default.fileExists(atPath: reports))
    }

    @Test("spans the twin does not support are refused", arguments: [
        ([(#""end": "2026-01-12T00:00""#, #""end": "2226-01-12T00:00""#)], ":8: end: is in year 2226, outside the years 1970 … 2200"),
        ([(#""end": "2026-01-12T00:00""#, #""end": "3026-01-12T00:00""#)], ":8: end: is more than 100 years after start (2026-01-09T00:00)."),
        ([(#""start": "2026-01-09T00:00""#, #""start": "0026-01-09T00:00""#)], ":7: start: is in year 26, outside the years 1970 … 2200"),
        ([(#""start": "2026-01-09T00:00""#, #""start": "1999-01-09T00:00""#), (#""end": "2026-01-12T00:00""#, #""end": "2100-01-12T00:00""#)],
         "end: is more than 100 years after start (1999-01-09T00:00). Hint: a scenario covers at most 100 years"),
    ])
    func unsupportedSpansAreRefused(replacements: [(String, String)], message: String) async throws {
        let (file, reports) = try mutatedExample("01-winter-weekend.json", replacements)
        let outcome = await RentalTwinCommand.main(["run", file, "--report", reports])
        #expect(outcome.exitCode == .invalidInput, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
        #expect(!FileManager.default.fileExists(atPath: reports))
    }

    @Test("a null is an error, never the same as leaving the key out", arguments: ["expect", "timeline", "listings", "users"])
    func nullIsNotAbsent(key: String) async throws {
        let text = try String(contentsOfFile: "\(scenariosDirectory)/01-winter-weekend.json", encoding: .utf8)
        guard let range = text.range(of: "  \"\(key)\": [") else { throw CocoaError(.fileReadCorruptFile) }
        // Replace the whole array (up to its closing bracket at two spaces' indentation) by null.
        guard let close = text.range(of: "\n  ]", range: range.upperBound..<text.endIndex) else { throw CocoaError(.fileReadCorruptFile) }
        let mutated = text.replacingCharacters(in: range.lowerBound..<close.upperBound, with: "  \"\(key)\": null")
        let dir = try temporaryDirectory()
        let file = dir.appendingPathComponent("null.json").path
        try mutated.write(toFile: file, atomically: true, encoding: .utf8)
        let outcome = await RentalTwinCommand.main(["validate", file])
        #expect(outcome.exitCode == .invalidInput, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(outcome.standardError.contains(": \(key): is null; null is not a value here. Hint: leave \"\(key)\" out for its default, or give a value."),
                "\(outcome.standardError)")
    }

    @Test func aCommandToAReadOnlyChannelIsIgnoredAsOpenHABDoes() async throws {
        let (file, _) = try mutatedExample("01-winter-weekend.json", [
            ("\"timeline\": [\n", "\"timeline\": [\n    { \"at\": \"2026-01-09T00:30\", \"command\": { \"item\": \"flat-1/heating/temperature\", \"value\": \"99\" } },\n"),
            ("\"expect\": [\n", "\"expect\": [\n    { \"at\": \"2026-01-09T00:31\", \"item\": \"flat-1/heating/temperature\", \"between\": [10, 30] },\n"),
        ])
        let outcome = await RentalTwinCommand.main(["run", file])
        #expect(outcome.exitCode == .success, "\(outcome.standardOutput)\(outcome.standardError)")
    }

    @Test func aClampedSetpointIsSaidInTheLog() async throws {
        let (file, _) = try mutatedExample("01-winter-weekend.json", [
            ("\"timeline\": [\n", "\"timeline\": [\n    { \"at\": \"2026-01-09T00:30\", \"command\": { \"item\": \"flat-1/heating/setpoint\", \"value\": \"45\" } },\n"),
        ])
        let outcome = await RentalTwinCommand.main(["run", file, "--log"])
        #expect(outcome.standardOutput.contains(
            "2026-01-09T00:30  command flat-1/heating/setpoint 45 (timeline[0]): flat-1/heating/setpoint took 30 °C, not 45: the device clamps setpoints to its range\n"),
            "\(outcome.standardOutput)")
    }

    @Test func aCommaInACommandIsReadAsOpenHABReadsItAndTheLogSaysSo() async throws {
        let (file, _) = try mutatedExample("01-winter-weekend.json", [
            ("\"timeline\": [\n", "\"timeline\": [\n    { \"at\": \"2026-01-09T00:30\", \"command\": { \"item\": \"flat-1/heating/setpoint\", \"value\": \"21,5\" } },\n"),
        ])
        let outcome = await RentalTwinCommand.main(["run", file, "--log"])
        #expect(outcome.standardOutput.contains(
            "2026-01-09T00:30  command flat-1/heating/setpoint 21,5 (timeline[0]): openHAB reads \"21,5\" as 215: a comma groups digits (2,000), it is not a decimal point; write 21.5 for that; flat-1/heating/setpoint took 30 °C, not 21,5: the device clamps setpoints to its range\n"),
            "\(outcome.standardOutput)")
    }

    @Test func controlCharactersFromTheFileAreEscapedInOutput() async throws {
        let (file, _) = try mutatedExample("01-winter-weekend.json", [
            (#""name": "Winter weekend with weather-driven heating""#, #""name": "Winter\u001B[2J weekend\u0000\nPASS fake""#),
            (#""comment": "Warm"#, #""comment": "\u001B]0;owned\u0007Warm"#),
        ])
        let run = await RentalTwinCommand.main(["run", file, "--log"])
        #expect(run.standardOutput.contains(#" — Winter\u{1B}[2J weekend\u{0}\nPASS fake"#), "\(run.standardOutput)\(run.standardError)")
        let validate = await RentalTwinCommand.main(["validate", file])
        #expect(validate.standardOutput.contains(#"Winter\u{1B}[2J weekend\u{0}\nPASS fake: 1 listing(s)"#))
        for text in [run.standardOutput, run.standardError, validate.standardOutput] {
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "raw control character in \(text)")
            #expect(!text.split(separator: "\n").contains { $0.hasPrefix("PASS fake") })
        }
    }

    @Test("JSON errors get a hint that fits them", arguments: [
        (#""seed": 42,"#, #""seed": 42, "seed": 43,"#, "the key \"seed\" appears twice in this object (first on line 5) (column 21). Hint: give each key once"),
        (#""seed": 42,"#, #""seed": "# + String(repeating: "[", count: 300) + ",", "nested more than 256 deep (column 266). Hint: a scenario needs a few levels of nesting"),
        (#""seed": 42,"#, #""seed": 42 "#, "Hint: check for a missing comma, quote or bracket just before this point."),
        (#""seed": 42,"#, #""seed": 042,"#, "numbers must not have leading zeros (column 12). Hint: write numbers as JSON does"),
        (#""seed": 42,"#, #""seed": "a\q","#, "Hint: inside a string, write"),
    ])
    func jsonErrorHintsFitTheError(old: String, new: String, message: String) async throws {
        let (file, _) = try mutatedExample("01-winter-weekend.json", [(old, new)])
        let outcome = await RentalTwinCommand.main(["validate", file])
        #expect(outcome.exitCode == .invalidInput)
        #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
        if !message.contains("missing comma") { #expect(!outcome.standardError.contains("missing comma")) }
    }

    @Test func cannotReadSaysWhy() async throws {
        let dir = try temporaryDirectory()
        let empty = dir.appendingPathComponent("empty.json").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        for (path, why) in [(dir.path, "it is a directory, not a scenario file (suite runs a directory)."),
                            (empty, "the file is empty; a scenario is a JSON object"),
                            (dir.appendingPathComponent("missing.json").path, "there is no such file."),
                            ("/dev/null", "it is not a regular file.")] {
            let outcome = await RentalTwinCommand.main(["run", path])
            #expect(outcome.exitCode == .invalidInput)
            #expect(outcome.standardError.contains("cannot read \(path): \(why)"), "\(outcome.standardError)")
        }
    }

    @Test func benchWithZeroFlatsIsAUsageError() async {
        let outcome = await RentalTwinCommand.main(["bench", "--flats", "0"])
        #expect(outcome.exitCode == .usage)
        #expect(outcome.standardError.contains("--flats must be between 1 and 10000, not 0."))
    }
}
