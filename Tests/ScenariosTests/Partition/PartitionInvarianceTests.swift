import Foundation
@testable import ScenarioFormat
@testable import Scenarios
import Simulation
import Testing
import Twin

/// A portfolio run in parts merges into the whole run, byte for byte: for generated portfolios split at
/// random, every listing's chart and calendar is the whole run's, every merged report is, and so are the
/// printed figures, the failures and the log.
@Suite("Partitioned runs")
struct PartitionInvarianceTests {
    static func temporaryDirectory() throws -> String {
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("partition-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The whole run of `loaded`: its summary, its log and its reports by name, its page (`index.html`) last.
    static func whole(_ loaded: PortfolioRun.Loaded) async throws -> (RunSummary, [String], [(name: String, text: String)]) {
        let result = try await ScenarioRunner.run(loaded.scenario, options: World.Options(recordTimeseries: .minutes(15)))
        return (RunSummary(result), result.log, try ReportWriter.renderWithPage(result))
    }

    /// Writes `text` as a scenario file and loads it.
    static func load(_ text: String, in directory: String, name: String = "portfolio.json") throws -> PortfolioRun.Loaded {
        let path = (directory as NSString).appendingPathComponent(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return try PortfolioRun.load(path, seed: nil)
    }

    /// Splits, runs and merges `loaded` by `plan` into `directory`/merged and checks everything against the whole run.
    static func expectMergeEqualsWhole(_ loaded: PortfolioRun.Loaded, plan: ScenarioPartition, jobs: Int? = nil, directory: String,
                                       whole: (RunSummary, [String], [(name: String, text: String)])) async throws {
        let out = (directory as NSString).appendingPathComponent("merged-\(plan.parts.count)-\(UUID().uuidString)")
        let (set, written) = try await PortfolioRun.runParts(loaded, plan: plan, jobs: jobs, world: World.Options(recordTimeseries: .minutes(15)), reportDirectory: out,
                                                             withLog: true)
        let (summary, log, reports) = whole
        let merged = set.summary
        #expect(merged.name == summary.name)
        #expect(merged.stepsRun == summary.stepsRun)
        #expect(merged.expectationsChecked == summary.expectationsChecked)
        #expect(merged.failures == summary.failures)
        #expect(merged.log == log)
        #expect(written == reports.map(\.name))
        for report in reports {
            let bytes = try String(contentsOfFile: (out as NSString).appendingPathComponent(report.name), encoding: .utf8)
            #expect(bytes == report.text, "\(report.name) differs with parts \(plan.parts.map(\.listings))")
        }
    }

    @Test(arguments: [(6, 10, UInt64(1)), (9, 14, 2), (12, 20, 3)])
    func randomSplitsOfGeneratedPortfoliosMergeIntoTheWholeRun(flats: Int, days: Int, seed: UInt64) async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let loaded = try Self.load(PortfolioGenerator.json(flats: flats, days: days, seed: seed), in: directory)
        let whole = try await Self.whole(loaded)
        var random = SplitMix64.stream(seed: seed, named: "partition-test")
        for _ in 0..<2 {
            let parts = 2 + Int(random.next() % 3)
            // Each listing (all independent here) to a random part.
            let plan = ScenarioPartition.plan(loaded.scenario) { components in components.map { _ in Int(random.next() % UInt64(parts)) } }
            #expect(plan.parts.allSatisfy { !$0.listings.isEmpty })
            try await Self.expectMergeEqualsWhole(loaded, plan: plan, directory: directory, whole: whole)
            // Each listing's chart and calendar alone: a part's file is the whole run's.
            for part in plan.parts {
                let alone = try await ScenarioRunner.run(loaded.scenario.restricted(to: part), options: World.Options(recordTimeseries: .minutes(15)))
                let wholeFiles = Dictionary(uniqueKeysWithValues: whole.2.map { ($0.name, $0.text) })
                for file in try ReportWriter.render(alone) where file.name.hasPrefix("chart-") || file.name.hasPrefix("calendar-") {
                    #expect(wholeFiles[file.name] == file.text, "\(file.name) of part \(part.listings)")
                }
            }
        }
    }

    /// More parts than jobs: the parts wait their turn (at most `jobs` worlds at once) and still merge into the
    /// whole run; the plan has a multiple of `jobs` parts of about `flatsPerPart` listings.
    @Test(arguments: [1, 2])
    func morePartsThanJobsMergeIntoTheWholeRun(jobs: Int) async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let loaded = try Self.load(PortfolioGenerator.json(flats: 9, days: 8, seed: 6), in: directory)
        let whole = try await Self.whole(loaded)
        let plan = PortfolioRun.plan(loaded.scenario, jobs: jobs, flatsPerPart: 2)
        #expect(plan.parts.count == jobs * ((9 + 2 * jobs - 1) / (2 * jobs)))
        #expect(plan.parts.count > jobs)
        try await Self.expectMergeEqualsWhole(loaded, plan: plan, jobs: jobs, directory: directory, whole: whole)
        // Below twice the part size, one job runs the whole scenario as one part; two jobs still split.
        #expect(PortfolioRun.plan(loaded.scenario, jobs: 1, flatsPerPart: 5).parts.count == 1)
        #expect(PortfolioRun.plan(loaded.scenario, jobs: 2, flatsPerPart: 5).parts.count == 2)
        #expect(PortfolioRun.plan(loaded.scenario, jobs: 1).parts.count == 1)
    }

    @Test func thePortfolioMonthExampleMergesFromEverySplit() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let loaded = try PortfolioRun.load("Scenarios/10-portfolio-month.json", seed: nil)
        let whole = try await Self.whole(loaded)
        for parts in 2...3 {
            let plan = ScenarioPartition.plan(loaded.scenario, parts: parts)
            #expect(plan.parts.count == parts)
            try await Self.expectMergeEqualsWhole(loaded, plan: plan, directory: directory, whole: whole)
        }
    }

    /// A scenario with rules runs whole in one part; its outbox.csv is the whole run's, byte for byte.
    @Test func theOutboxReportOfAScenarioWithRulesMergesExactly() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let loaded = try PortfolioRun.load("Scenarios/dsl-outbox-01-door-left-open.json", seed: nil)
        let whole = try await Self.whole(loaded)
        let outbox = try #require(whole.2.first { $0.name == "outbox.csv" })
        #expect(outbox.text.split(separator: "\n").count > 5, "\(outbox.text)")
        let plan = ScenarioPartition.plan(loaded.scenario, parts: 3)
        #expect(plan.parts.count == 1)
        try await Self.expectMergeEqualsWhole(loaded, plan: plan, directory: directory, whole: whole)
    }

    /// A generated 10-flat portfolio with a city-wide feed outage, a failing step in it, and failed
    /// expectations on two listings and a third.
    static func portfolioWithOutage() throws -> String {
        var text = PortfolioGenerator.json(flats: 10, days: 10, seed: 4)
        let city = try #require(PortfolioGenerator.cities.first?.name)
        text = text.replacingOccurrences(of: "  \"timeline\": [\n", with: """
              "timeline": [
                { "at": "2026-01-03T02:00", "feed": { "city": "\(city)", "error": 500 } },
                { "at": "2026-01-03T03:00", "feed": { "city": "\(city)", "error": 429 }, "expectError": "listing.notFound" },
                { "at": "2026-01-03T05:00", "feed": { "city": "\(city)", "error": null } },
                { "at": "2026-01-03T05:00", "command": { "item": "flat-7/heating/setpoint", "value": "20" } },
                { "at": "2026-01-03T05:00", "command": { "item": "flat-0/heating/setpoint", "value": "20" } },

            """)
        text = text.replacingOccurrences(of: "  \"expect\": [\n", with: """
              "expect": [
                { "at": "2026-01-04T12:00", "item": "flat-5/heating/setpoint", "state": "99 °C" },
                { "at": "2026-01-04T12:00", "item": "flat-2/heating/setpoint", "state": "98 °C" },
                { "energy": { "listing": "flat-6" }, "atMostKWh": 0 },

            """)
        return text
    }

    /// A generated portfolio with a city-wide feed outage, a failing step in it and a failed expectation on
    /// two listings: the feed step runs in every part with a listing in that city but counts once, and
    /// failures come out in the whole run's order.
    @Test func cityWideStepsCountOnceAndFailuresKeepTheirOrder() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = try Self.portfolioWithOutage()
        let loaded = try Self.load(text, in: directory)
        let whole = try await Self.whole(loaded)
        #expect(whole.0.failures.count == 4, "\(whole.0.failures)")
        let plan = ScenarioPartition.plan(loaded.scenario, parts: 3)
        #expect(plan.parts.filter { !$0.sharedSteps.isEmpty }.count > 1, "the city's listings should span parts")
        try await Self.expectMergeEqualsWhole(loaded, plan: plan, directory: directory, whole: whole)
    }

    /// `--partition K/N` with jobs runs its part as smaller parts and writes what one world of the part
    /// writes: the same manifest (figures, shared steps, failures, log) and reports; the partitions merge into
    /// the whole run. The scenario has a city-wide outage, a failing shared step and failed expectations.
    @Test func aPartitionRunAsSmallerPartsWritesWhatOneWorldWrites() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = try Self.portfolioWithOutage()
        let loaded = try Self.load(text, in: directory)
        let whole = try await Self.whole(loaded)
        var sets: [[String]] = [[], []]
        for part in 1...2 {
            for (j, jobs) in [1, 3].enumerated() {
                let out = (directory as NSString).appendingPathComponent("part-\(part)-jobs-\(jobs)")
                let summary = try await PortfolioRun.runPartition(loaded, part: part, of: 2, jobs: jobs, world: World.Options(recordTimeseries: .minutes(15)),
                                                                  withLog: true, directory: out).summary
                #expect(summary.part == part && summary.parts == 2)
                sets[j].append(out)
            }
            // The manifests say the same, but for the automation log's entry numbers: a world numbers its
            // entries in the order it records them, which only orders one listing's entries at one instant.
            let one = try PartitionSummary.read(manifest: String(contentsOfFile: sets[0][part - 1] + "/partition.json", encoding: .utf8), path: "1")
            let split = try PartitionSummary.read(manifest: String(contentsOfFile: sets[1][part - 1] + "/partition.json", encoding: .utf8), path: "2")
            #expect(one.listings == split.listings && one.stepsRun == split.stepsRun && one.sharedStepsRun == split.sharedStepsRun)
            #expect(one.expectationsChecked == split.expectationsChecked && one.failures == split.failures && one.notes == split.notes)
            #expect(one.reports == split.reports)
            #expect(one.log?.map(\.text) == split.log?.map(\.text))
            for name in try FileManager.default.contentsOfDirectory(atPath: sets[0][part - 1]) where name != PartitionSummary.manifestName {
                let a = FileManager.default.contents(atPath: sets[0][part - 1] + "/" + name)
                #expect(a == FileManager.default.contents(atPath: sets[1][part - 1] + "/" + name), "part \(part): \(name)")
            }
        }
        for set in sets {
            let merged = try PartitionSet.read(set)
            #expect(merged.summary.failures == whole.0.failures)
            #expect(merged.summary.stepsRun == whole.0.stepsRun)
            #expect(merged.summary.expectationsChecked == whole.0.expectationsChecked)
            #expect(merged.summary.log == whole.1)
            let out = set[0] + "-merged"
            #expect(try merged.writeReports(to: out, page: .html(loaded.scenario)) == whole.2.map(\.name))
            for report in whole.2 {
                #expect(try String(contentsOfFile: out + "/" + report.name, encoding: .utf8) == report.text, "\(report.name)")
            }
        }
        #expect(whole.0.failures.count >= 3, "\(whole.0.failures)")
    }

    @Test func aSharedReservationIDOrRulesKeepListingsInOnePart() throws {
        var text = PortfolioGenerator.json(flats: 4, days: 5, seed: 1)
        text = text.replacingOccurrences(of: "  \"timeline\": [\n", with: """
              "timeline": [
                { "at": "2026-01-01T08:00", "book": { "id": "same", "guest": "guest-1", "listing": "flat-1", "checkIn": "2026-01-02", "checkOut": "2026-01-03", "guests": 1 } },
                { "at": "2026-01-01T08:00", "book": { "id": "same", "guest": "guest-1", "listing": "flat-3", "checkIn": "2026-01-02", "checkOut": "2026-01-03", "guests": 1 }, "expectError": "reservation.duplicate" },

            """)
        let scenario = try ScenarioDecoder.decode(text, file: "p.json")
        let plan = ScenarioPartition.plan(scenario, parts: 4)
        #expect(plan.parts.count == 3)
        #expect(plan.parts.contains { $0.listings == ["flat-1", "flat-3"] })
        #expect(plan.notes.contains { $0.contains("reservation same") })
        var ruled = scenario
        ruled.items = [VirtualItemSpec(name: "Mode", type: .stringItem, state: nil, label: nil, members: [], path: "items[0]")]
        #expect(ScenarioPartition.plan(ruled, parts: 4).parts.count == 1)
    }

    @Test func theExamplesWithRulesRunAsOnePart() throws {
        for file in try FileManager.default.contentsOfDirectory(atPath: "Scenarios").filter({ $0.hasSuffix(".json") }).sorted() {
            let scenario = try ScenarioDecoder.load(path: "Scenarios/\(file)")
            let plan = ScenarioPartition.plan(scenario, parts: 8)
            if !scenario.rules.isEmpty || !scenario.items.isEmpty { #expect(plan.parts.count == 1, "\(file)") }
            // Every step and expectation is in some part; only city-wide steps in several.
            let steps = plan.parts.flatMap(\.steps), expectations = plan.parts.flatMap(\.expectations)
            #expect(Set(steps) == Set(scenario.timeline.indices), "\(file)")
            #expect(expectations.sorted() == Array(scenario.expectations.indices), "\(file)")
        }
    }
}
