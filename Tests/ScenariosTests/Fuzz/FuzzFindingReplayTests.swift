import Foundation
@testable import ScenarioFormat
@testable import Scenarios
import Simulation
import Testing
import Twin

/// The findings of fuzz campaigns, replayed: each input is the finding's file (its difference from
/// the seed scenario written out), judged as the fuzzer judges it.
@Suite("Fuzz findings replayed")
struct FuzzFindingReplayTests {
    static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scenarios").path

    static func example13(_ replacements: [(String, String)]) throws -> ScenarioFuzzer.Input {
        let base = "\(scenarios)/13-airbnb-calendar-epw-tariff.json"
        var text = try String(contentsOfFile: base, encoding: .utf8)
        for (old, new) in replacements {
            #expect(text.contains(old), "13-airbnb-calendar-epw-tariff.json has no \(old)")
            text = text.replacingOccurrences(of: old, with: new)
        }
        return ScenarioFuzzer.Input(index: 100, base: base, text: text)
    }

    /// Seed 4242, input #11527: the start moved to 10:04 a week earlier, so the 15-minute ticks fall at
    /// :04, :19, …; the calendar's same-day booking was made after the run began, and its check-in
    /// moment (15:00) was neither a tick nor known when the snapshots were planned: `stays.csv` failed
    /// with "the energy ledger has no snapshot of flat-1 at 2026-01-09T14:00:00Z".
    @Test func aCalendarStayWhoseCheckInIsNoTickStillHasItsReport() async throws {
        let input = try Self.example13([(#""start": "2026-01-09T00:00""#, #""start": "2026-01-01T10:04""#)])
        let verdict = await ScenarioFuzzer.check(input, eventsPerListingDay: 100_000)
        #expect(verdict == .outcome(.failed))  // the 14:01 expectation sees the 14:04 sync's preheat too late: a fail, no finding
    }

    /// The same stay booked after its check-in moment (its window's start is in the past, and no tick).
    @Test func aStayBookedAfterItsUnalignedCheckInFindsItsSnapshot() async throws {
        let calendar = try String(contentsOfFile: "\(Self.scenarios)/cal/flat-1-airbnb.ics", encoding: .utf8)
            .replacingOccurrences(of: "CREATED:20260109T123000Z", with: "CREATED:20260109T153000Z")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("late-calendar-\(getpid())")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("cal"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try calendar.write(to: directory.appendingPathComponent("cal/flat-1-airbnb.ics"), atomically: true, encoding: .utf8)
        var input = try Self.example13([(#""start": "2026-01-09T00:00""#, #""start": "2026-01-01T10:04""#),
                                        (#""epw": "weather/budapest-january.epw""#, #""epw": "\#(Self.scenarios)/weather/budapest-january.epw""#)])
        input = ScenarioFuzzer.Input(index: input.index, base: directory.appendingPathComponent("x.json").path, text: input.text)
        let scenario = try ScenarioDecoder.decode(input.text, file: input.base)
        let result = try await ScenarioRunner.run(scenario, options: World.Options(recordTimeseries: .minutes(15)))
        let stays = try #require(try ReportWriter.render(result).first { $0.name == "stays.csv" })
        #expect(stays.text.contains("1418fb94e984-a1@airbnb.com,flat-1,flat-1-calendar-1-4821,2026-01-09,2026-01-10,1,confirmed,"), "\(stays.text)")
    }

    /// CI's seed 810610917412647504, input #741 (a `ui-js` mutant of js-10): the Blockly rule's script gained
    /// `setInterval(() => {}, 0)`, a round trip to the Node.js child every simulated millisecond, and the run
    /// needed more than the fuzzer's 200,000 events. It now ends as a located `rules.jsBudget`: a fail, no finding.
    @Test func aJavaScriptIntervalOfAMillisecondEndsTheRunWithinTheBudget() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rapid-interval-\(getpid())")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("rules"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let rules = try String(contentsOfFile: "\(Self.scenarios)/rules/js-blockly-welcome.json", encoding: .utf8)
        let original = "cache.private.get('hallTimer').hasTerminated()"
        #expect(rules.contains(original))
        try rules.replacingOccurrences(of: original, with: "cache.private.get(setInterval(() => {}, 0)).hasTerminated()")
            .write(to: directory.appendingPathComponent("rules/js-blockly-welcome.json"), atomically: true, encoding: .utf8)
        let text = try String(contentsOfFile: "\(Self.scenarios)/js-10-blockly-ui-rule.json", encoding: .utf8)
        let input = ScenarioFuzzer.Input(index: 741, base: directory.appendingPathComponent("js-10.json").path, text: text)
        #expect(await ScenarioFuzzer.check(input, eventsPerListingDay: 100_000) == .outcome(.failed))
        let scenario = try ScenarioDecoder.decode(input.text, file: input.base)
        let message: String
        do {
            _ = try await ScenarioRunner.run(scenario)
            message = "the run went on"
        } catch {
            message = error.message
        }
        #expect(message.contains("rules.jsBudget: setInterval #1 of rule") && message.contains("10000 times in a row"), "\(message)")
    }

    /// Seed 4242: the calendar listed twice made the world fail to build (`user.duplicate`, the
    /// calendar's guest registered twice); it is refused by validation, located.
    @Test func aCalendarListedTwiceIsInvalidNotARunFailure() async throws {
        let entry = #"{ "file": "cal/flat-1-airbnb.ics", "syncEvery": "PT2H" }"#
        let input = try Self.example13([(entry, entry + ", \"cal/flat-1-airbnb.ics\"")])
        #expect(await ScenarioFuzzer.check(input, eventsPerListingDay: 100_000) == .outcome(.invalid))
        do {
            _ = try ScenarioDecoder.decode(input.text, file: input.base)
            Issue.record("accepted")
        } catch {
            let issue = try #require(error.issues.first)
            #expect(issue.path == "listings[0].calendars[1]" && issue.line == 19)
            #expect(issue.message == "lists \"cal/flat-1-airbnb.ics\" again (already calendars[0]).")
        }
    }

    /// A user whose id is a calendar's guest id would collide with the guest the calendar registers.
    @Test func aUserWithTheCalendarGuestsIdIsInvalid() async throws {
        let input = try Self.example13([(#"{ "id": "host", "name": "Hanna Host" }"#,
                                         #"{ "id": "host", "name": "Hanna Host" }, { "id": "flat-1-calendar-1-0937", "name": "X" }"#)])
        #expect(await ScenarioFuzzer.check(input, eventsPerListingDay: 100_000) == .outcome(.invalid))
    }
}
