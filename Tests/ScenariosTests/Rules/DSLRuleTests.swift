@testable import ScenarioFormat
@testable import Scenarios
import Testing
import Twin

/// Rules DSL bodies running in scenarios: values with units, openHAB's text, timers on the virtual clock,
/// globals, implicit variables and runtime errors.
@Suite("Rules DSL in scenarios")
struct DSLRuleTests {
    /// The lines a rule's `logInfo` wrote (the part after `INFO [test] `), in order.
    static func logged(_ rules: [String]) -> [String] {
        rules.flatMap { line in
            line.components(separatedBy: "; ").compactMap { part in part.hasPrefix("INFO [test] ") ? String(part.dropFirst(12)) : nil }
        }
    }

    @Test func valuesCompareAcrossUnitsAndPrintAsOpenHAB() async throws {
        var s = RuleScenario()
        s.items = #"[{ "name": "Go", "type": "Switch", "state": "OFF" }, { "name": "Warm", "type": "Number:Temperature", "state": "20.5 °C" }]"#
        s.files["a.rules"] = """
            rule "values"
            when
                Item Go changed to ON
            then
                logInfo("test", "state " + Warm.state + ", setpoint " + flat_1_heating_setpoint.state)
                logInfo("test", "" + (Warm.state > 68|°F) + " " + (Warm.state < 294|K) + " " + (Warm.state == 20.5|°C))
                val n = (Warm.state as Number).doubleValue
                logInfo("test", "n=" + n + " int=" + (Warm.state as Number).intValue + " sum=" + (1 + 2 * 3) + " div=" + (7 / 2))
                logInfo("test", "q=" + (Warm.state as Number + 1|°C) + " f=" + (Warm.state as QuantityType<Temperature>).toUnit("°F"))
                logInfo("test", "{} and {}", Go.state, Go.name)
                if (Go.state == ON && Warm.state != NULL) logInfo("test", "on")
            end
            """
        s.timeline = #"{ "at": "2026-01-09T10:00", "update": { "item": "Go", "state": "ON" } }"#
        let (result, rules) = try await s.run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["state 20.5 °C, setpoint 21 °C", "true true true", "n=20.5 int=20 sum=7 div=3",
                                       "q=21.5 °C f=68.9 °F", "ON and Go", "on"], "\(rules)")
    }

    @Test func timersFireCancelAndRescheduleOnTheVirtualClockAndGlobalsPersist() async throws {
        var s = RuleScenario()
        s.items = #"[{ "name": "Go", "type": "Number", "state": "0" }]"#
        s.files["t.rules"] = """
            var Timer t = null
            var fired = 0
            rule "arm"
            when
                Item Go received update
            then
                if (Go.state == 1) t = createTimer(now.plusMinutes(30), [| fired = fired + 1; logInfo("test", "fired " + fired + " at " + now.getHour + ":" + now.getMinute) ])
                if (Go.state == 2) t.reschedule(now.plusHours(2))
                if (Go.state == 3) logInfo("test", "cancel " + t.cancel + " active " + t.isActive)
                if (Go.state == 4) t = createTimer(now.minusMinutes(5)) [| logInfo("test", "past timer at " + now.getHour + ":" + now.getMinute) ]
            end
            """
        s.timeline = #"""
            { "at": "2026-01-09T10:00", "update": { "item": "Go", "state": "1" } },
            { "at": "2026-01-09T12:00", "update": { "item": "Go", "state": "1" } },
            { "at": "2026-01-09T12:10", "update": { "item": "Go", "state": "2" } },
            { "at": "2026-01-09T16:00", "update": { "item": "Go", "state": "1" } },
            { "at": "2026-01-09T16:10", "update": { "item": "Go", "state": "3" } },
            { "at": "2026-01-09T18:00", "update": { "item": "Go", "state": "4" } }
            """#
        let (result, rules) = try await s.run()
        #expect(result.failures.isEmpty)
        #expect(Self.logged(rules) == ["fired 1 at 10:30", "fired 2 at 14:10", "cancel true active false", "past timer at 18:0"], "\(rules)")
        #expect(rules.contains { $0.hasPrefix("2026-01-09T10:30  timer of rule \"arm\"") })
    }

    @Test func implicitVariablesAndARuntimeErrorThatEndsOnlyThatRun() async throws {
        var s = RuleScenario()
        s.items = #"[{ "name": "Sensor", "type": "Number:Temperature", "state": "20 °C" }, { "name": "Note", "type": "String" }]"#
        s.files["i.rules"] = """
            rule "implicit"
            when
                Item Sensor changed or Item flat_1_heating_setpoint received command
            then
                if (receivedCommand !== null) logInfo("test", "command " + receivedCommand + " to " + triggeringItemName)
                else logInfo("test", triggeringItem.name + " " + previousState + " -> " + newState)
            end

            rule "broken"
            when
                Item Sensor changed to 30|°C
            then
                var Timer none = null
                none.cancel()
                logInfo("test", "not reached")
            end
            """
        s.timeline = #"""
            { "at": "2026-01-09T10:00", "update": { "item": "Sensor", "state": "22.5 °C" } },
            { "at": "2026-01-09T11:00", "command": { "item": "flat-1/heating/setpoint", "value": "19" } },
            { "at": "2026-01-09T12:00", "update": { "item": "Sensor", "state": "30 °C" } }
            """#
        let (result, rules) = try await s.run()
        #expect(result.failures.isEmpty)
        #expect(Self.logged(rules) == ["Sensor 20 °C -> 22.5 °C", "command 19 to flat_1_heating_setpoint", "Sensor 22.5 °C -> 30 °C"], "\(rules)")
        #expect(rules.contains { $0.contains(#"rule "broken" ← Sensor changed from 22.5 °C to 30 °C: no conditions; error: "#) && $0.hasSuffix("i.rules:14:10: cancel was called on null (NullPointerException, rules.dslRuntime)") }, "\(rules)")
    }

    @Test func aDSLFileNamingAnUnknownItemIsRefusedWithASuggestion() {
        var s = RuleScenario()
        s.files["u.rules"] = """
            rule "typo"
            when
                Item flat_1_heating_switch changed
            then
                flat_1_heating_setpiont.sendCommand(20)
            end
            """
        let problems = s.problems()
        #expect(problems.count == 1 && problems[0].contains(#"u.rules:1: rule "typo" names the Item "flat_1_heating_setpiont", which does not exist. Hint: did you mean "flat_1_heating_setpoint"?"#), "\(problems)")
    }

    @Test func aUIRuleMayUseADSLScriptConditionAndAction() async throws {
        var s = RuleScenario()
        s.items = #"[{ "name": "N", "type": "Number", "state": "1" }]"#
        let script = #"{"type": "application/vnd.openhab.dsl.rule", "script": "N.postUpdate((N.state as Number) * 2)"}"#
        let condition = #"{"type": "application/vnd.openhab.dsl.rule", "script": "(N.state as Number) < 5"}"#
        s.files["r.json"] = "[" + uiRule("dbl", triggers: "[\(module("t", "timer.GenericCronTrigger", #"{"cronExpression": "0 0 * * * ?"}"#))]",
                                       conditions: "[\(module("c", "script.ScriptCondition", condition))]",
                                       actions: "[\(module("a", "script.ScriptAction", script))]") + "]"
        s.expect = #"{ "at": "2026-01-09T12:00", "item": "N", "state": "8" }, { "rule": "dbl", "runs": 3 }"#
        let (result, _) = try await s.run()
        #expect(result.failures.isEmpty, "\(result.failures)")
    }

    @Test func aRuleThatTriggersItselfEndsTheRunWithItsName() async throws {
        var s = RuleScenario()
        s.items = #"[{ "name": "N", "type": "Number", "state": "0" }]"#
        s.files["loop.rules"] = """
            rule "echo"
            when
                Item N changed
            then
                N.postUpdate((N.state as Number) + 1)
            end
            """
        s.timeline = #"{ "at": "2026-01-09T10:00", "update": { "item": "N", "state": "1" } }"#
        do {
            _ = try await s.run()
            Issue.record("the loop was not stopped")
        } catch let error as ScenarioError {
            #expect(error.message.contains("rule \"echo\"") && error.message.contains("ran more than 10000 times at 2026-01-09T10:00 without the clock moving"),
                    "\(error.message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}

/// A scenario's rules run in every world built from it (a suite, the fuzzer's repeat with typed seams, a test's
/// second run): each world starts with the file's globals unset and its rules' threads free.
struct DSLFreshWorldTests {
    @Test func aSecondWorldOfTheSameScenarioStartsAfresh() async throws {
        var s = RuleScenario()
        s.items = #"[{ "name": "Go", "type": "Number", "state": "0" }]"#
        s.files["g.rules"] = """
            var count = 0
            val broken = newHashMap("a" -> 1, nowhere -> 2)
            rule "count"
            when
                Item Go received update
            then
                count = count + 1
                logInfo("test", "run " + count)
                logInfo("test", "broken " + broken)
            end
            rule "sleepy"
            when
                Item Go received update 2
            then
                Thread::sleep(60000)
                logInfo("test", "woke")
            end
            """
        s.timeline = #"""
            { "at": "2026-01-09T10:00", "update": { "item": "Go", "state": "1" } },
            { "at": "2026-01-09T11:00", "update": { "item": "Go", "state": "1" } },
            { "at": "2026-01-09T23:59:30", "update": { "item": "Go", "state": "2" } }
            """#
        let scenario = try s.load()
        var logs: [[String]] = []
        for _ in 0..<3 {
            let result = try await ScenarioRunner.run(scenario)
            logs.append(result.log.filter { $0.contains("rule \"") })
        }
        #expect(logs[0].contains { $0.contains("run 1") } && logs[0].contains { $0.contains("run 2") }, "\(logs[0])")
        #expect(logs[0].contains { $0.contains("nowhere") })  // the global's error, at the first run
        #expect(logs[1] == logs[0])
        #expect(logs[2] == logs[0])
    }
}
