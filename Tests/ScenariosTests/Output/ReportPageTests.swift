import Foundation
@testable import ScenarioFormat
@testable import Scenarios
import Rules
import Testing
import Twin

/// The run's page (`index.html`): the same bytes every run, the failed expectation on it with its actual
/// value, and no link to anything that is not beside it.
@Suite("Report page")
struct ReportPageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func page(_ relative: String) async throws -> (ScenarioResult, String) {
        let scenario = try ScenarioDecoder.load(path: root.appendingPathComponent(relative).path)
        let result = try await ScenarioRunner.run(scenario, options: counting(World.Options(recordTimeseries: .minutes(15))))
        let files = try ReportWriter.render(result).map(\.name)
        return (result, try ReportPage.html(result, files: files))
    }

    @Test func aFailingExamplesPageIsTheSameTwiceAndShowsItsFailureFirst() async throws {
        let (result, first) = try await Self.page("Docs/examples/failing-weekend-comfort.json")
        let (_, second) = try await Self.page("Docs/examples/failing-weekend-comfort.json")
        #expect(first == second)
        #expect(result.failures.count == 1)
        #expect(first.contains("<span id=\"verdict\" class=\"verdict fail\">FAIL</span>"))
        // The failure box, with expected and actual, comes before everything else the page shows.
        let box = try #require(first.range(of: "<div class=\"failure\" id=\"failure-1\">"))
        let table = try #require(first.range(of: "<h2 id=\"expectations\">"))
        #expect(box.lowerBound < table.lowerBound)
        let failure = String(first[box.lowerBound..<table.lowerBound])
        #expect(failure.contains("<b>expect[4]</b> (line 128) at <b>2026-01-10T06:30</b>"))
        #expect(failure.contains("expected <code>flat-1/heating/setpoint = &quot;21 °C&quot;</code>"))
        #expect(failure.contains("actual <span class=\"actual\">&quot;17 °C&quot;</span>"))
        // Why: the night's eco rule run before it (the weekday comfort rule does not run on a Saturday).
        #expect(failure.contains("rule &quot;Night eco&quot; ← cron 0 30 22 * * ? *: no conditions; flat_1_heating_setpoint ← 17"), "\(failure)")
        // The measured rows of the flat around 06:30.
        #expect(failure.contains("<td>2026-01-10T06:30+01:00</td><td>flat-1</td>"))
        // Its moment in the timeline, its chart mark, the rule coverage.
        #expect(first.contains("<tr class=\"k-check failed\" id=\"t-expect_4_\""))
        #expect(first.contains("<title>expect[4] failed</title>"))
        // The setpoint as commanded: 21 °C from the start, then the rules' steps (eco 17 °C at 22:30 …).
        #expect(first.contains("<polyline class=\"setpoint\""))
        let setpoints = ReportPage.commandedSetpoints(result.scenario.listings[0], scenario: result.scenario, steps: result.stepRecords,
                                                      automations: result.automationEntries, rules: result.ruleRunRecords)
        #expect(setpoints.map(\.device) == ["heating"])
        // Start 21; Thu 16:05 arrival 21, 22:30 eco; Fri 06:30 comfort, 22:30 eco; Sat and Sun 09:00 comfort, 22:30 eco;
        // Mon 06:30 comfort, 09:30 nobody in: eco, 22:30 eco.
        let expected: [Double] = [21, 21, 17, 21, 17, 21, 17, 21, 17, 21, 17, 17]
        #expect(setpoints.first?.points.map(\.1) == expected)
        #expect(first.contains("<h2 id=\"coverage\">Rule coverage</h2>"))
    }

    @Test func aPassingPageLinksOnlyToItsOwnFilesAndAnchors() async throws {
        let (result, page) = try await Self.page("Scenarios/01-winter-weekend.json")
        #expect(result.passed)
        #expect(page.contains("<span id=\"verdict\" class=\"verdict pass\">PASS</span>"))
        #expect(!page.contains("<div class=\"failure\""))
        let files = Set(try ReportWriter.render(result).map(\.name))
        var ids = Set<String>()
        for match in page.split(separator: " id=\"").dropFirst() { ids.insert(String(match.prefix { $0 != "\"" })) }
        for match in page.split(separator: "href=\"").dropFirst() {
            let href = String(match.prefix { $0 != "\"" })
            if href.hasPrefix("#") {
                #expect(ids.contains(String(href.dropFirst())), "broken anchor \(href)")
            } else {
                #expect(files.contains(href), "link to \(href), which is not a report file")
            }
        }
        // Nothing is fetched: no element with a source, no style sheet or script from elsewhere (the inline SVG's
        // xmlns is a name, not a request).
        #expect(!page.contains(" src=") && !page.contains("<link") && !page.contains("@import") && !page.contains("url("))
    }

    @Test func theSuiteIndexNamesEveryScenarioAndLinksItsPage() async throws {
        let files = [Self.root.appendingPathComponent("Scenarios/01-winter-weekend.json").path,
                     Self.root.appendingPathComponent("Docs/examples/failing-weekend-comfort.json").path]
        let entries = await SuiteRunner.run(files: files, jobs: 2)
        let rows = entries.enumerated().map { SuiteIndexPage.Row(path: $0.element.path, pageDirectory: "s\($0.offset)", outcome: $0.element.outcome) }
        let page = SuiteIndexPage.html(directory: "Scenarios", rows: rows, coverage: nil)
        #expect(page.contains("<span id=\"verdict\" class=\"verdict fail\">1 passed, 1 failed</span>"))
        #expect(page.contains("href=\"s0/index.html\""))
        #expect(page.contains("<td class=\"n\">72 h</td>") && page.contains("<td class=\"n\">5 d</td>"), "\(page)")
        #expect(page.contains("actual <b>&quot;17 °C&quot;</b>"))
        // The failed scenario is listed above the table, with its actual value.
        let failed = try #require(page.range(of: "<div class=\"failure\" id=\"failed\">"))
        let table = try #require(page.range(of: "<table id=\"scenarios\">"))
        #expect(failed.lowerBound < table.lowerBound)
        #expect(page[failed.lowerBound..<table.lowerBound].contains("actual <span class=\"actual\">&quot;17 °C&quot;</span>"))
    }
}

/// `--coverage`: LCOV of the rule files, exact for a small file.
@Suite("Rule coverage")
struct RuleCoverageTests {
    static let rules = """
        var Number count = 0

        rule "counter"
        when
            Item Go changed
        then
            count = count + 1
            if (Go.state == ON) {
                Out.postUpdate("on")
            } else {
                Out.postUpdate("off")
            }
            val label = switch count {
                case 1: "one"
                default: "many"
            }
        end

        rule "never"
        when
            Item Nobody changed
        then
            Out.postUpdate("never")
        end

        """

    static func scenario() -> RuleScenario {
        var s = RuleScenario()
        s.items = #"[{ "name": "Go", "type": "Switch", "state": "OFF" }, { "name": "Out", "type": "String", "state": "-" }, { "name": "Nobody", "type": "Switch", "state": "OFF" }]"#
        s.files["small.rules"] = rules
        s.timeline = #"{ "at": "2026-01-09T10:00", "update": { "item": "Go", "state": "ON" } }"#
        return s
    }

    @Test func aSmallRulesFileGivesExactlyTheseRecords() async throws {
        let scenario = try Self.scenario().load()
        let result = try await ScenarioRunner.run(scenario, options: counting(World.Options()))
        let files = try #require(result.ruleCoverage)
        #expect(files.count == 1)
        let text = RuleFileCoverage.lcov(files)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "TN:")
        #expect(lines.dropFirst().first?.hasPrefix("SF:/") == true && lines.dropFirst().first?.hasSuffix("/small.rules") == true)
        let expected: [String] = [
            "FN:3,counter", "FN:19,never", "FNDA:1,counter", "FNDA:0,never", "FNF:2", "FNH:1",
            "BRDA:8,5,0,1", "BRDA:8,5,1,0", "BRDA:13,17,0,1", "BRDA:13,17,1,0", "BRF:4", "BRH:2",
            "DA:1,1", "DA:7,1", "DA:8,1", "DA:9,1", "DA:11,0", "DA:13,1", "DA:23,0", "LF:7", "LH:5", "end_of_record",
        ]
        let records = Array(lines.dropFirst(2))
        #expect(records == expected, "\(text)")
        #expect(files[0].rulesNeverStarted.map(\.name) == ["never"])
        #expect(files[0].linesNeverRun == [11, 23])
    }

    /// A JavaScript file counts per rule: a function at the line of its `rules.JSRule(…)` call with its starts (a
    /// `SwitchableJSRule`'s switch is a rule of its own at the same line); its lines as the Node child counts them:
    /// top-level code once, each rule's body as often as it ran (js-01's "apply mode" 7 times, the unknown mode's
    /// branch once, the rest 6).
    @Test(arguments: [
        ("Scenarios/js-01-heating-modes.json", "Scenarios/automation/js/heating-modes.js", [
            "FN:13,Heating: weekday morning comfort", "FN:23,Heating: eco when the day starts", "FN:33,Heating: night setback",
            "FN:39,Heating: apply mode", "FNDA:1,Heating: weekday morning comfort", "FNDA:3,Heating: eco when the day starts",
            "FNDA:2,Heating: night setback", "FNDA:7,Heating: apply mode", "FNF:4", "FNH:4", "BRF:0", "BRH:0",
            "DA:3,1", "DA:5,1", "DA:7,1", "DA:13,1", "DA:16,1", "DA:18,1", "DA:23,1", "DA:25,1", "DA:27,3", "DA:28,3", "DA:29,3",
            "DA:33,1", "DA:35,1", "DA:36,2", "DA:39,1", "DA:41,1", "DA:43,7", "DA:44,7", "DA:45,7", "DA:46,1", "DA:47,1",
            "DA:49,6", "DA:50,6", "DA:51,6", "DA:53,6", "LF:25", "LH:25", "end_of_record",
        ]),
        ("Scenarios/js-06-switchable-rule.json", "Scenarios/automation/js/night-lights.js", [
            "FN:5,Garden lights at night", "FN:5,Garden lights at night (switch)", "FNDA:4,Garden lights at night",
            "FNDA:3,Garden lights at night (switch)", "FNF:2", "FNH:2", "BRF:0", "BRH:0",
            "DA:3,1", "DA:5,1", "DA:8,1", "DA:10,4", "DA:11,4", "DA:12,4", "LF:6", "LH:6", "end_of_record",
        ]),
    ])
    func aJavaScriptFileCountsEachRuleAtItsLine(example: String, file: String, expected: [String]) async throws {
        let scenario = try ScenarioDecoder.load(path: ReportPageTests.root.appendingPathComponent(example).path)
        let result = try await ScenarioRunner.run(scenario, options: counting(World.Options()))
        let files = try #require(result.ruleCoverage)
        #expect(files.map(\.file) == [ReportPageTests.root.appendingPathComponent(file).path])
        let lines = RuleFileCoverage.lcov(files).split(separator: "\n").map(String.init)
        #expect(Array(lines.dropFirst(2)) == expected, "\(lines)")
    }

    static let script = """
        const { rules, triggers, items } = require('openhab');

        function label(n) {
          if (n > 1) {
            return 'many';
          }
          return 'one';
        }
        // a comment
        rules.JSRule({
          name: 'counter',
          triggers: [triggers.ItemStateChangeTrigger('Go')],
          execute: () => {
            items.Out.postUpdate(label(1));
          },
        });

        rules.JSRule({
          name: 'never',
          triggers: [triggers.ItemStateChangeTrigger('Nobody')],
          execute: () => {
            items.Out.postUpdate('never');
          },
        });

        """

    /// A JavaScript file's lines as its Node.js child counts them (V8's block coverage): each line with a statement
    /// or a call, how often it ran — top-level code once, a rule's body per run, a branch not taken never; a
    /// comment, a declaration's head and a closing brace are no lines.
    @Test func aSmallJavaScriptFileGivesExactlyTheseRecords() async throws {
        var scenario = RuleScenario()
        scenario.items = #"[{ "name": "Go", "type": "Switch", "state": "OFF" }, { "name": "Out", "type": "String", "state": "-" }, { "name": "Nobody", "type": "Switch", "state": "OFF" }]"#
        scenario.files["automation/js/small.js"] = Self.script
        scenario.timeline = #"{ "at": "2026-01-09T10:00", "update": { "item": "Go", "state": "ON" } }"#
        scenario.expect = #"{ "at": "2026-01-09T10:01", "item": "Out", "state": "one" }"#
        let result = try await ScenarioRunner.run(try scenario.load(), options: counting(World.Options()))
        #expect(result.passed, "\(result.failures)")
        let files = try #require(result.ruleCoverage)
        let lines = RuleFileCoverage.lcov(files).split(separator: "\n").map(String.init)
        #expect(lines.dropFirst().first?.hasSuffix("/automation/js/small.js") == true)
        let expected: [String] = [
            "FN:10,counter", "FN:18,never", "FNDA:1,counter", "FNDA:0,never", "FNF:2", "FNH:1", "BRF:0", "BRH:0",
            "DA:1,1", "DA:4,1", "DA:5,0", "DA:7,1", "DA:10,1", "DA:12,1", "DA:14,1", "DA:18,1", "DA:20,1", "DA:22,0",
            "LF:10", "LH:8", "end_of_record",
        ]
        #expect(Array(lines.dropFirst(2)) == expected, "\(lines)")
        // Without coverage the child counts nothing.
        let plain = try await ScenarioRunner.run(try scenario.load())
        #expect(plain.ruleCoverage == nil)
    }

    @Test func runsMergeByFileAndNothingIsCountedWithoutCoverage() async throws {
        let scenario = try Self.scenario().load()
        let counted = try #require(try await ScenarioRunner.run(scenario, options: counting(World.Options())).ruleCoverage)
        let merged = RuleFileCoverage.merge([counted, counted])
        #expect(merged.count == 1)
        #expect(merged[0].functions.map(\.count) == [2, 0])
        #expect(merged[0].lines[7] == 2 && merged[0].lines[11] == 0)
        #expect(merged[0].branches.map(\.count) == [2, 0, 2, 0])
        let plain = try await ScenarioRunner.run(scenario)
        #expect(plain.ruleCoverage == nil)
    }
}

/// `options` with the rules' coverage counted.
func counting(_ options: World.Options) -> World.Options {
    var options = options
    options.countsRuleCoverage = true
    return options
}
