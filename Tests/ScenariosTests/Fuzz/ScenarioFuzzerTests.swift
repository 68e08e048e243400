import Foundation
@testable import ScenarioFormat
@testable import Scenarios
import Simulation
import Testing
import Twin

/// The example scenarios, as the fuzzer's corpus.
private func exampleCorpus() throws -> [(name: String, text: String)] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    return try ScenarioFuzzer.corpus(in: root.appendingPathComponent("Scenarios").path)
}

@Suite("Scenario fuzzer")
struct ScenarioFuzzerTests {
    @Test func theSameSeedGivesTheSameInputsAndAnotherSeedOthers() throws {
        let corpus = try exampleCorpus()
        let a = try ScenarioFuzzer(corpus: corpus, seed: 7), b = try ScenarioFuzzer(corpus: corpus, seed: 7)
        let c = try ScenarioFuzzer(corpus: corpus, seed: 8)
        let range = corpus.count..<(corpus.count + 40)
        #expect(range.map { a.input($0) } == range.map { b.input($0) })
        #expect(range.map { a.input($0).text } != range.map { c.input($0).text })
        // Mutants differ from their seed scenario (or mutate a side file of it), and the first inputs are the seeds themselves.
        #expect(range.allSatisfy { i in a.input(i).text != corpus.first { $0.name == a.input(i).base }?.text || a.input(i).sideFile != nil })
        #expect(a.input(0).text == corpus[0].text)
    }

    @Test func mutantsAreReadableJSONMostOfTheTime() throws {
        let fuzzer = try ScenarioFuzzer(corpus: try exampleCorpus(), seed: 1)
        let parsed = (100..<300).filter { (try? JSONParser.parse(fuzzer.input($0).text)) != nil }.count
        #expect(parsed > 150, "only \(parsed) of 200 mutants are JSON: the mutator would mostly test the parser")
    }

    /// Ctrl-C once turned every remaining input of a campaign into a `run-failed` finding
    /// (`scenario.cancelled`, 8,142 of them); an interrupted campaign stops instead.
    @Test func anInterruptedCampaignStopsAndJudgesNoCancelledRun() async throws {
        let fuzzer = try ScenarioFuzzer(corpus: try exampleCorpus(), seed: 1)
        // The example scenarios (inputs 0 …) all pass; the run of input 3 is interrupted as it starts.
        let summary = await FuzzCampaign(fuzzer: fuzzer, eventsPerListingDay: 5_000, outDirectory: nil)
            .run(seconds: 3_600, maxInputs: 10) { index in
                if index == 3 { withUnsafeCurrentTask { $0?.cancel() } }
            }
        #expect(summary.interrupted)
        #expect(summary.inputs == 3 && summary.findings == 0 && summary.outcomes[.passed] == 3)
        #expect(summary.report(seed: 1, outDirectory: nil).contains("interrupted: input #3 was not judged; continue the campaign with --from 3"))
    }

    @Test func aFixedNumberOfInputsEndsCleanlyAndDeterministically() async throws {
        let fuzzer = try ScenarioFuzzer(corpus: try exampleCorpus(), seed: 1)
        let first = await FuzzCampaign(fuzzer: fuzzer, eventsPerListingDay: 5_000, outDirectory: nil).run(seconds: 3_600, maxInputs: 24)
        let second = await FuzzCampaign(fuzzer: fuzzer, eventsPerListingDay: 5_000, outDirectory: nil).run(seconds: 3_600, maxInputs: 24)
        #expect(first.inputs == 24)
        #expect(first.outcomes == second.outcomes && first.findingCounts == second.findingCounts)
        #expect(first.samples == second.samples)
        // The same campaign in two parts judges the same inputs.
        let campaign = FuzzCampaign(fuzzer: fuzzer, eventsPerListingDay: 5_000, outDirectory: nil)
        let part1 = await campaign.run(seconds: 3_600, maxInputs: 10)
        let part2 = await campaign.run(seconds: 3_600, maxInputs: 14, firstInput: 10)
        #expect(part2.report(seed: 1, outDirectory: nil).hasPrefix("fuzz: seed 1, 14 inputs (#10 … #23) in "))
        #expect(part1.outcomes.merging(part2.outcomes, uniquingKeysWith: +) == first.outcomes)
        #expect(part1.findingCounts.merging(part2.findingCounts, uniquingKeysWith: +) == first.findingCounts)
        // The seed scenarios all pass.
        let seeds = try exampleCorpus().count
        let baseline = await FuzzCampaign(fuzzer: fuzzer, eventsPerListingDay: 5_000, outDirectory: nil).run(seconds: 3_600, maxInputs: seeds)
        #expect(baseline.outcomes[.passed] == seeds, "\(baseline.report(seed: 1, outDirectory: nil))")
    }

    @Test func anInputOverItsEventBudgetIsAHangAndIsSavedForReplay() async throws {
        let corpus = try exampleCorpus()
        let fuzzer = try ScenarioFuzzer(corpus: corpus, seed: 1)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let summary = await FuzzCampaign(fuzzer: fuzzer, eventsPerListingDay: 1, outDirectory: out).run(seconds: 3_600, maxInputs: 1)
        #expect(summary.findingCounts == [.hang: 1])
        let first = try ScenarioDecoder.decode(corpus[0].text, file: corpus[0].name)
        let budget = ScenarioFuzzer.eventBudget(for: first, perListingDay: 1)
        let days = Int(((first.end - first.start).milliseconds + 86_399_999) / 86_400_000)
        #expect(budget == first.listings.count * days)
        #expect(summary.samples.first?.detail.contains("budget of \(budget) events") == true)
        let saved = try String(contentsOfFile: "\(out)/hang-0.json", encoding: .utf8)
        #expect(saved == corpus[0].text)
        #expect(!FileManager.default.fileExists(atPath: "\(out)/in-progress.json"))
        #expect(summary.report(seed: 1, outDirectory: out).contains("findings: 1 hang"))
    }

    @Test func theBudgetIsARateSoALongSpanIsNoHang() throws {
        let corpus = try exampleCorpus()
        var long = try ScenarioDecoder.decode(corpus[0].text, file: corpus[0].name)
        let listings = long.listings.count
        long.end = long.start + SimDuration.days(365 * 56) + SimDuration.hours(1)
        #expect(ScenarioFuzzer.eventBudget(for: long, perListingDay: 5_000) == 5_000 * listings * (365 * 56 + 1))
        long.end = long.start + SimDuration.minutes(1)
        #expect(ScenarioFuzzer.eventBudget(for: long, perListingDay: 5_000) == 5_000 * listings)
        long.listings = []
        #expect(ScenarioFuzzer.eventBudget(for: long, perListingDay: .max) == .max)
    }

    @Test func nanOrInfMadeByTheProgramIsNoticedButNotOneTheInputWrote() {
        #expect(ScenarioFuzzer.nonFiniteToken(in: "flat-1,2026-01-09,heating,nan,0.000", notIn: "{}") == "nan")
        #expect(ScenarioFuzzer.nonFiniteToken(in: "mean indoor -inf °C", notIn: "{}") == "inf")
        #expect(ScenarioFuzzer.nonFiniteToken(in: "Infinity kWh", notIn: "{}") == "Infinity")
        #expect(ScenarioFuzzer.nonFiniteToken(in: "the city \"NaN\" has no weather", notIn: #"{"city": "NaN"}"#) == nil)
        #expect(ScenarioFuzzer.nonFiniteToken(in: "Infinité, information, nano, 21.5 °C", notIn: "{}") == nil)
    }

    /// A mutant JavaScript rule that logs `NaN` it computed itself (`fn * 'text'`, as GraalJS computes it too), or a
    /// script condition that gives back `Infinity`, is the user's text, no finding; a NaN update the twin printed is one.
    @Test func aNaNTheUsersCodeLogsIsNoFindingButOneTheTwinPrintsIs() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let base = root.appendingPathComponent("Scenarios/js-12-thing-actions.json").path
        let text = try String(contentsOfFile: base, encoding: .utf8)
        let script = try String(contentsOfFile: root.appendingPathComponent("Scenarios/automation/js/lock-watch.js").path, encoding: .utf8)
        let call = "actions.Things.getThingStatusInfo('zwave:device:none')"
        #expect(script.contains(call))
        let mutated = script.replacingOccurrences(of: call, with: "actions.Things.getThingStatusInfo * ('zwave:device:none')")
        let input = ScenarioFuzzer.Input(index: 1, base: base, text: text, target: "js",
                                         sideFile: .init(reference: "automation/js/lock-watch.js", text: mutated))
        let verdict = await ScenarioFuzzer.check(input, eventsPerListingDay: 5_000)
        #expect(verdict == .outcome(.passed) || verdict == .outcome(.failed), "\(verdict)")
        // A script condition that gives back `Infinity` (x / 0): the twin's error quotes the user's value.
        let blockly = root.appendingPathComponent("Scenarios/js-10-blockly-ui-rule.json").path
        let rules = try String(contentsOfFile: root.appendingPathComponent("Scenarios/rules/js-blockly-welcome.json").path, encoding: .utf8)
        let condition = "items.getItem('Hall_Auto').state == 'ON'"
        #expect(rules.contains(condition))
        let infinite = ScenarioFuzzer.Input(index: 2, base: blockly, text: try String(contentsOfFile: blockly, encoding: .utf8), target: "ui-rules",
                                            sideFile: .init(reference: "rules/js-blockly-welcome.json", text: rules.replacingOccurrences(of: condition, with: "1 / 0")))
        let infiniteVerdict = await ScenarioFuzzer.check(infinite, eventsPerListingDay: 5_000)
        #expect(infiniteVerdict == .outcome(.passed) || infiniteVerdict == .outcome(.failed), "\(infiniteVerdict)")
        #expect(ScenarioFuzzer.withoutUserLogs("rule \"R\": no conditions; INFO [r] unknown Thing: NaN", ["INFO [r] unknown Thing: NaN"]) == "rule \"R\": no conditions; ")
        #expect(ScenarioFuzzer.nonFiniteToken(in: ScenarioFuzzer.withoutUserLogs("Counter := NaN; INFO [r] x NaN", ["INFO [r] x NaN"]), notIn: "{}") == "NaN")
        // A UI rule's JavaScript that joins NaN into a String Item's text (`+ ', closed at '` is NaN): the user's text.
        let conf = root.appendingPathComponent("Scenarios/conf-02-conf-and-ui-rules.json").path
        let uiRules = try String(contentsOfFile: root.appendingPathComponent("Scenarios/rules/conf-home-automation_rules.json").path, encoding: .utf8)
        let join = "postUpdate(note + ', closed at ' + closedAt)"
        #expect(uiRules.contains(join))
        let joined = ScenarioFuzzer.Input(index: 3, base: conf, text: try String(contentsOfFile: conf, encoding: .utf8), target: "ui-js",
                                          sideFile: .init(reference: "rules/conf-home-automation_rules.json",
                                                          text: uiRules.replacingOccurrences(of: join, with: "postUpdate( + ', closed at ' + closedAt)")))
        #expect(await ScenarioFuzzer.check(joined, eventsPerListingDay: 5_000) == .outcome(.failed))
        #expect(ScenarioFuzzer.userTextValue("Window_Note := opened at 10:00NaN10:20") == "opened at 10:00NaN10:20")
        for alone in ["Temp := NaN", "Temp := -Infinity °C", "Temp ← +inf"] { #expect(ScenarioFuzzer.userTextValue(alone) == nil) }
    }
}

/// The fuzzer repeats every ``ScenarioFuzzer/typedSeamsEvery``-th input with typed seams: the judge sees a
/// difference in the printed lines or the reports, and none where the two runs agree.
@Suite("Scenario fuzzer: typed seams")
struct TypedSeamsFuzzTests {
    @Test func theJudgeSeesADifferenceAndOnlyThen() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let scenario = try ScenarioDecoder.load(path: root.appendingPathComponent("Scenarios/08-weather-feed-outage.json").path)
        let options = World.Options(recordTimeseries: .minutes(15))
        let result = try await ScenarioRunner.run(scenario, options: options)
        var printed = result.failures.map(\.description) + result.log
        printed.append("\((scenario.end - scenario.start).hours) h simulated")
        let reports = try ReportWriter.renderWithPage(result)  // as the fuzzer judges: the reports and the page
        #expect(result.log.contains { $0.contains("weatherWatcher") })
        #expect(await ScenarioFuzzer.typedDifference(scenario, options, printed: printed, reports: reports) == nil)
        var changed = printed
        changed[changed.count / 2] += " "
        let line = await ScenarioFuzzer.typedDifference(scenario, options, printed: changed, reports: reports)
        #expect(line?.hasPrefix("with typed seams a printed line differs") == true)
        let fewer = await ScenarioFuzzer.typedDifference(scenario, options, printed: printed.dropLast(), reports: reports)
        #expect(fewer != nil)
        var edited = reports
        edited[0].text += "\n"
        let report = await ScenarioFuzzer.typedDifference(scenario, options, printed: printed, reports: edited)
        #expect(report == "with typed seams \(reports[0].name) differs from \(reports[0].name) with bytes")
    }
}
