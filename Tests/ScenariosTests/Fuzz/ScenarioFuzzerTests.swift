import Foundation
import Testing
@testable import Scenarios

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
        // Mutants differ from their seed scenario, and the first inputs are the seeds themselves.
        #expect(range.allSatisfy { i in a.input(i).text != corpus.first { $0.name == a.input(i).base }?.text })
        #expect(a.input(0).text == corpus[0].text)
    }

    @Test func mutantsAreReadableJSONMostOfTheTime() throws {
        let fuzzer = try ScenarioFuzzer(corpus: try exampleCorpus(), seed: 1)
        let parsed = (100..<300).filter { (try? JSONParser.parse(fuzzer.input($0).text)) != nil }.count
        #expect(parsed > 150, "only \(parsed) of 200 mutants are JSON: the mutator would mostly test the parser")
    }

    @Test func aFixedNumberOfInputsEndsCleanlyAndDeterministically() async throws {
        let fuzzer = try ScenarioFuzzer(corpus: try exampleCorpus(), seed: 1)
        let first = await FuzzCampaign(fuzzer: fuzzer, eventBudget: 500_000, outDirectory: nil).run(seconds: 3_600, maxInputs: 24)
        let second = await FuzzCampaign(fuzzer: fuzzer, eventBudget: 500_000, outDirectory: nil).run(seconds: 3_600, maxInputs: 24)
        #expect(first.inputs == 24)
        #expect(first.outcomes == second.outcomes && first.findingCounts == second.findingCounts)
        #expect(first.samples == second.samples)
        // The seed scenarios all pass.
        let seeds = try exampleCorpus().count
        let baseline = await FuzzCampaign(fuzzer: fuzzer, eventBudget: 500_000, outDirectory: nil).run(seconds: 3_600, maxInputs: seeds)
        #expect(baseline.outcomes[.passed] == seeds, "\(baseline.report(seed: 1, outDirectory: nil))")
    }

    @Test func anInputOverItsEventBudgetIsAHangAndIsSavedForReplay() async throws {
        let corpus = try exampleCorpus()
        let fuzzer = try ScenarioFuzzer(corpus: corpus, seed: 1)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-\(UUID().uuidString)").path
        let summary = await FuzzCampaign(fuzzer: fuzzer, eventBudget: 50, outDirectory: out).run(seconds: 3_600, maxInputs: 1)
        #expect(summary.findingCounts == [.hang: 1])
        #expect(summary.samples.first?.detail.contains("50 events") == true)
        let saved = try String(contentsOfFile: "\(out)/hang-0.json", encoding: .utf8)
        #expect(saved == corpus[0].text)
        #expect(!FileManager.default.fileExists(atPath: "\(out)/in-progress.json"))
        #expect(summary.report(seed: 1, outDirectory: out).contains("findings: 1 hang"))
    }

    @Test func nanOrInfMadeByTheProgramIsNoticedButNotOneTheInputWrote() {
        #expect(ScenarioFuzzer.nonFiniteToken(in: "flat-1,2026-01-09,heating,nan,0.000", notIn: "{}") == "nan")
        #expect(ScenarioFuzzer.nonFiniteToken(in: "mean indoor -inf °C", notIn: "{}") == "inf")
        #expect(ScenarioFuzzer.nonFiniteToken(in: "Infinity kWh", notIn: "{}") == "Infinity")
        #expect(ScenarioFuzzer.nonFiniteToken(in: "the city \"NaN\" has no weather", notIn: #"{"city": "NaN"}"#) == nil)
        #expect(ScenarioFuzzer.nonFiniteToken(in: "Infinité, information, nano, 21.5 °C", notIn: "{}") == nil)
    }
}
