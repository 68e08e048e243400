import Foundation
@testable import ScenarioFormat
@testable import Scenarios
import Simulation
import Testing
import Twin

/// The fuzzer's side-file targets: rule files, UI rules, calendars and EPW years mutated and loaded
/// through the real loader in place of the file on disk.
@Suite("Fuzz targets")
struct FuzzTargetTests {
    static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scenarios").path

    static func corpus() throws -> [(name: String, text: String)] { try ScenarioFuzzer.corpus(in: scenarios) }

    @Test func ruleTextSplitsIntoTokensThatJoinBackToIt() throws {
        let text = try String(contentsOfFile: "\(Self.scenarios)/rules/heating.rules", encoding: .utf8)
        let tokens = RuleTokens.tokens(text)
        #expect(tokens.joined() == text)
        #expect(tokens.contains("\"Weekday morning comfort\"") && tokens.contains("==") && tokens.contains("flat_1_heating_setpoint"))
        #expect(tokens.contains { $0.hasPrefix("// Heating schedule") })
        #expect(RuleTokens.tokens("a/*x*/ 1.5+\"s\\\"t\"") == ["a", "/*x*/", " ", "1.5", "+", "\"s\\\"t\""])
    }

    @Test(arguments: ["rules", "ui-rules", "ui-js", "ical", "epw", "transforms", "things", "persist", "scripts"])
    func sideFileInputsMutateOneFileOfTheirKindAndKeepTheScenario(target: String) throws {
        let corpus = try Self.corpus()
        let kind = try #require(FuzzTarget.all.first { $0.name == target })
        let a = try ScenarioFuzzer(corpus: corpus, seed: 3, targets: [kind]), b = try ScenarioFuzzer(corpus: corpus, seed: 3, targets: [kind])
        for index in corpus.count..<(corpus.count + 30) {
            let input = a.input(index)
            #expect(input == b.input(index))
            #expect(input.target == target)
            let side = try #require(input.sideFile)
            #expect(kind.matches?(side.reference.lowercased()) == true)
            #expect(input.text == corpus.first { $0.name == input.base }?.text)
            let original = try String(contentsOfFile: ScenarioDecoder.resolvedSidePath(side.reference, scenarioFile: input.base), encoding: .utf8)
            #expect(side.text != original, "input \(index) left \(side.reference) as it was")
        }
    }

    @Test func allTargetsShareOneCampaignAndUnknownNamesAreRefused() throws {
        let fuzzer = try ScenarioFuzzer(corpus: try Self.corpus(), seed: 9)
        let seen = Set((100..<300).map { fuzzer.input($0).target })
        #expect(seen == Set(FuzzTarget.all.map(\.name)))
        guard case .success(let two) = FuzzTarget.parse("epw,rules") else { Issue.record("refused"); return }
        #expect(two.map(\.name) == ["rules", "epw"])
        guard case .failure(let unknown) = FuzzTarget.parse("rules,yaml") else { Issue.record("accepted"); return }
        #expect(unknown.name == "yaml")
    }

    /// A mutated `.things` file of an `openhabConf` directory reaches the loader: broken, it is skipped with a
    /// warning, and the timeline's fault on its Bridge names a Thing that is no more.
    @Test func aMutatedThingsFileOfAConfDirectoryReachesTheLoader() async throws {
        let base = "\(Self.scenarios)/conf-01-mqtt-home.json"
        let text = try String(contentsOfFile: base, encoding: .utf8)
        let broken = ScenarioFuzzer.Input(index: 99, base: base, text: text, target: "things",
                                          sideFile: .init(reference: "conf-home/things/mqtt.things", text: "Bridge mqtt:broker {\n"))
        #expect(await ScenarioFuzzer.check(broken, eventsPerListingDay: 100_000) == .outcome(.invalid))
        let intact = ScenarioFuzzer.Input(index: 99, base: base, text: text, target: "things",
                                          sideFile: .init(reference: "conf-home/things/mqtt.things",
                                                          text: try String(contentsOfFile: "\(Self.scenarios)/conf-home/things/mqtt.things", encoding: .utf8)))
        #expect(await ScenarioFuzzer.check(intact, eventsPerListingDay: 100_000) == .outcome(.passed))
    }

    /// The mutated text, not the file on disk, is what the loader reads.
    @Test func theMutatedFileReachesTheLoader() async throws {
        let base = "\(Self.scenarios)/15-heating-rules-weekday-schedule.json"
        let text = try String(contentsOfFile: base, encoding: .utf8)
        let broken = ScenarioFuzzer.Input(index: 99, base: base, text: text, target: "rules",
                                          sideFile: .init(reference: "rules/heating.rules", text: "rule \"x\"\nwhen\n  Item\nthen\nend\n"))
        #expect(await ScenarioFuzzer.check(broken, eventsPerListingDay: 100_000) == .outcome(.invalid))
        let original = try String(contentsOfFile: "\(Self.scenarios)/rules/heating.rules", encoding: .utf8)
        let same = ScenarioFuzzer.Input(index: 99, base: base, text: text, target: "rules",
                                        sideFile: .init(reference: "rules/heating.rules", text: original + "\n// one more line\n"))
        #expect(await ScenarioFuzzer.check(same, eventsPerListingDay: 100_000) == .outcome(.passed))
    }

    /// A saved side-file input replays with `run`: the scenario names the saved mutant beside it, and
    /// its other side files by absolute path.
    @Test func aSavedSideFileInputReplaysFromItsDirectory() throws {
        let base = "\(Self.scenarios)/13-airbnb-calendar-epw-tariff.json"
        let text = try String(contentsOfFile: base, encoding: .utf8)
        let calendar = try String(contentsOfFile: "\(Self.scenarios)/cal/flat-1-airbnb.ics", encoding: .utf8)
            .replacingOccurrences(of: "DTEND;VALUE=DATE:20260112", with: "DTEND;VALUE=DATE:21260112")
        let input = ScenarioFuzzer.Input(index: 7, base: base, text: text, target: "ical",
                                         sideFile: .init(reference: "cal/flat-1-airbnb.ics", text: calendar))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-save-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let written = FuzzCampaign.save(input, as: "run-failed-7", in: directory)
        #expect(written == ["\(directory)/run-failed-7-flat-1-airbnb.ics", "\(directory)/run-failed-7.json"])
        do {
            _ = try ScenarioDecoder.load(path: "\(directory)/run-failed-7.json")
            Issue.record("the saved mutant was not read")
        } catch {
            #expect(error.issues.count == 1)
            #expect(error.issues.first?.message.contains("run-failed-7-flat-1-airbnb.ics line") == true, "\(error.issues)")
            #expect(error.issues.first?.message.contains("lasts 36526 nights") == true, "\(error.issues)")
        }
        // The scenario alone, its calendar back in place: it loads (the EPW by its absolute path) and is the seed's.
        let saved = try String(contentsOfFile: "\(directory)/run-failed-7.json", encoding: .utf8)
        #expect(saved.contains("\"\(Self.scenarios)/weather/budapest-january.epw\"") || saved.contains("/Scenarios/weather/budapest-january.epw\""))
        try calendar.replacingOccurrences(of: "21260112", with: "20260112")
            .write(toFile: "\(directory)/run-failed-7-flat-1-airbnb.ics", atomically: true, encoding: .utf8)
        #expect(try ScenarioDecoder.load(path: "\(directory)/run-failed-7.json").listings.first?.calendars.first?.events.count == 3)
    }
}
