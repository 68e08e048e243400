@testable import ScenarioFormat
@testable import Scenarios
import Testing
import Twin

/// openHAB UI rules (RuleDTO JSON) run by the engine inside scenarios: each module type, the execution
/// order, and located errors for what cannot run.
@Suite("UI rules in scenarios")
struct UIRuleTests {
    @Test func aCommandTriggerWithAWildcardRunsAnActionAfterTheCommand() async throws {
        var s = RuleScenario()
        s.files["rules.json"] = "[" + uiRule("r1", "Echo", triggers: "[\(module("t", "core.ItemCommandTrigger", #"{"itemName": "flat_1_*_setpoint", "command": "18"}"#))]",
                                            actions: "[\(module("a", "core.ItemStateUpdateAction", #"{"itemName": "Note", "state": "setpoint asked"}"#))]") + "]"
        s.items = #"[{ "name": "Note", "type": "String" }]"#
        s.timeline = #"""
            { "at": "2026-01-09T10:00", "command": { "item": "flat-1/heating/setpoint", "value": "19" } },
            { "at": "2026-01-09T11:00", "command": { "item": "flat-1/heating/setpoint", "value": "18" } }
            """#
        s.expect = #"""
            { "at": "2026-01-09T10:30", "item": "Note", "state": "NULL" },
            { "at": "2026-01-09T11:00", "item": "Note", "state": "setpoint asked" },
            { "rule": "Echo", "runs": 1 }
            """#
        let (result, rules) = try await s.run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(rules == ["2026-01-09T11:00  rule \"Echo\" ← flat_1_heating_setpoint received command 18: no conditions; Note := setpoint asked"])
    }

    @Test func physicsRespondsToARuleAndASecondRuleHearsTheChangeInOrder() async throws {
        var s = RuleScenario()
        s.items = #"[{ "name": "Warm", "type": "Switch", "state": "OFF" }]"#
        s.files["rules.json"] = "[" + [
            uiRule("boost", "Boost", triggers: "[\(module("t", "timer.TimeOfDayTrigger", #"{"time": "06:00"}"#))]",
                   actions: "[\(module("a", "core.ItemCommandAction", #"{"itemName": "flat_1_heating_setpoint", "command": "23 °C"}"#)), \(module("b", "core.ItemCommandAction", #"{"itemName": "flat_1_heating_switch", "command": "ON"}"#))]"),
            uiRule("warm", "Warm enough", triggers: "[\(module("t", "core.ItemStateChangeTrigger", #"{"itemName": "flat_1_heating_temperature", "previousState": "13.9 °C", "state": "14 °C"}"#))]",
                   actions: "[\(module("a", "core.ItemStateUpdateAction", #"{"itemName": "Warm", "state": "ON"}"#))]"),
        ].joined(separator: ",") + "]"
        s.expect = #"{ "rule": "Warm enough", "runs": 1 }, { "rule": "Boost", "runs": 1 }, { "at": "2026-01-09T23:00", "item": "Warm", "state": "ON" }"#
        let (result, rules) = try await s.run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(rules.count == 2)
        #expect(rules.first == "2026-01-09T06:00  rule \"Boost\" ← cron 0 0 6 * * *: no conditions; flat_1_heating_setpoint ← 23 °C; flat_1_heating_switch ← ON")
        #expect(rules.last?.contains("rule \"Warm enough\" ← flat_1_heating_temperature changed from 13.9 °C to 14 °C") == true, "\(rules)")
        #expect((rules.last ?? "") > (rules.first ?? ""))
    }

    @Test func groupTriggersNameTheMemberAndUpdatesAndCommandsMatch() async throws {
        var s = RuleScenario()
        s.items = #"""
            [{ "name": "Door_A", "type": "Contact", "state": "CLOSED" }, { "name": "Door_B", "type": "Contact", "state": "CLOSED" },
             { "name": "gDoors", "type": "Group", "members": ["Door_A", "Door_B"] }, { "name": "Count", "type": "Number", "state": "0" }]
            """#
        s.files["rules.json"] = "[" + [
            uiRule("open", "A door opened", triggers: "[\(module("t", "core.GroupStateChangeTrigger", #"{"groupName": "gDoors", "state": "OPEN"}"#))]",
                   actions: "[\(module("a", "core.ItemStateUpdateAction", #"{"itemName": "Count", "state": "1"}"#))]"),
            uiRule("upd", "Any update", triggers: "[\(module("t", "core.ItemStateUpdateTrigger", #"{"itemName": "Door_B"}"#))]",
                   actions: "[]"),
        ].joined(separator: ",") + "]"
        s.timeline = #"""
            { "at": "2026-01-09T10:00", "update": { "item": "Door_B", "state": "OPEN" } },
            { "at": "2026-01-09T11:00", "update": { "item": "Door_B", "state": "OPEN" } }
            """#
        s.expect = #"{ "rule": "A door opened", "runs": 1 }, { "rule": "Any update", "runs": 2 }, { "at": "2026-01-09T12:00", "item": "Count", "state": "1" }"#
        let (result, rules) = try await s.run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(rules.contains("2026-01-09T10:00  rule \"A door opened\" ← Door_B (member of gDoors) changed from CLOSED to OPEN: no conditions; Count := 1"))
    }

    @Test func conditionsFollowOpenHABsComparisonsAndTimeWindows() async throws {
        var s = RuleScenario()
        s.items = #"[{ "name": "Level", "type": "Number:Temperature" }, { "name": "Hits", "type": "String" }]"#
        // `<` on a NULL state is true in openHAB ("not >="); "21" never equals 21 °C; 23:00–02:00 wraps.
        let trigger = "[\(module("t", "timer.GenericCronTrigger", #"{"cronExpression": "0 0 * * * ?"}"#))]"
        s.files["rules.json"] = "[" + [
            uiRule("lt-null", triggers: trigger, conditions: "[\(module("c", "core.ItemStateCondition", #"{"itemName": "Level", "operator": "<", "state": "5 °C"}"#))]", actions: "[]"),
            uiRule("eq-plain", triggers: trigger, conditions: "[\(module("c", "core.ItemStateCondition", #"{"itemName": "flat_1_heating_setpoint", "operator": "=", "state": "21"}"#))]", actions: "[]"),
            uiRule("ge-plain", triggers: trigger, conditions: "[\(module("c", "core.ItemStateCondition", #"{"itemName": "flat_1_heating_setpoint", "operator": ">=", "state": "21"}"#))]", actions: "[]"),
            uiRule("eq-unit", triggers: trigger, conditions: "[\(module("c", "core.ItemStateCondition", #"{"itemName": "flat_1_heating_setpoint", "operator": "=", "state": "69.8 °F"}"#))]", actions: "[]"),
            uiRule("night", triggers: trigger, conditions: "[\(module("c", "core.TimeOfDayCondition", #"{"startTime": "23:00", "endTime": "02:00"}"#))]", actions: "[]"),
            uiRule("friday", triggers: trigger, conditions: "[\(module("c", "timer.DayOfWeekCondition", #"{"days": ["FRI"]}"#))]", actions: "[]"),
            uiRule("weekend", triggers: trigger, conditions: "[\(module("c", "ephemeris.WeekendCondition", "{}"))]", actions: "[]"),
            uiRule("spaced", triggers: trigger, conditions: "[\(module("c", "timer.IntervalCondition", #"{"minInterval": 10800000}"#))]", actions: "[]"),
        ].joined(separator: ",") + "]"
        s.end = "2026-01-11T00:00"  // Friday and Saturday; a cron fires after the start, so 01:00 Friday … 00:00 Sunday
        s.expect = #"""
            { "rule": "lt-null", "runs": 48 }, { "rule": "eq-plain", "runs": 0 }, { "rule": "ge-plain", "runs": 48 },
            { "rule": "eq-unit", "runs": 48 }, { "rule": "night", "from": "2026-01-09T00:00", "to": "2026-01-10T00:00", "runs": 2 },
            { "rule": "friday", "runs": 23 }, { "rule": "weekend", "runs": 25 }, { "rule": "spaced", "runs": 16 }
            """#
        let (result, _) = try await s.run()
        #expect(result.failures.isEmpty, "\(result.failures)")
    }

    @Test func dateTimeThingStatusAndStartLevelTriggers() async throws {
        var s = RuleScenario()
        s.items = #"[{ "name": "Next_CheckIn", "type": "DateTime" }, { "name": "Log", "type": "String" }]"#
        s.files["rules.json"] = "[" + [
            uiRule("pre", "Two hours before check-in", triggers: "[\(module("t", "timer.DateTimeTrigger", #"{"itemName": "Next_CheckIn", "offset": -7200}"#))]",
                   actions: "[\(module("a", "core.ItemCommandAction", #"{"itemName": "flat_1_heating_setpoint", "command": "22"}"#))]"),
            uiRule("down", "Heating went offline", triggers: "[\(module("t", "core.ThingStatusChangeTrigger", #"{"thingUID": "twin:thermostat:flat-1:heating", "status": "OFFLINE"}"#))]",
                   actions: "[\(module("a", "core.ItemStateUpdateAction", #"{"itemName": "Log", "state": "heating offline"}"#))]"),
            uiRule("boot", "Started", triggers: "[\(module("t", "core.SystemStartlevelTrigger", #"{"startlevel": 40}"#))]", actions: "[]"),
        ].joined(separator: ",") + "]"
        s.timeline = #"""
            { "at": "2026-01-09T08:00", "update": { "item": "Next_CheckIn", "state": "2026-01-09T15:00" } },
            { "at": "2026-01-09T18:00", "thing": { "thing": "flat-1/heating", "status": "OFFLINE" } }
            """#
        s.expect = #"""
            { "at": "2026-01-09T13:00", "item": "flat-1/heating/setpoint", "state": "22 °C" },
            { "at": "2026-01-09T12:59", "item": "flat-1/heating/setpoint", "state": "21 °C" },
            { "at": "2026-01-09T18:00", "item": "Log", "state": "heating offline" },
            { "rule": "Started", "from": "2026-01-09T00:00", "to": "2026-01-09T00:01", "runs": 1 }
            """#
        let (result, rules) = try await s.run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(rules.contains("2026-01-09T18:00  rule \"Heating went offline\" ← Thing twin:thermostat:flat-1:heating changed from ONLINE to OFFLINE: no conditions; Log := heating offline"), "\(rules)")
    }

    @Test func rulesRunAndEnableOtherRulesAndStepsDoTheSame() async throws {
        var s = RuleScenario()
        s.items = #"[{ "name": "N", "type": "Number", "state": "0" }]"#
        let hourly = "[\(module("t", "timer.GenericCronTrigger", #"{"cronExpression": "0 30 * * * ?"}"#))]"
        s.files["rules.json"] = "[" + [
            uiRule("tick", "Tick", triggers: hourly, actions: "[]"),
            uiRule("stop", "Stop ticking", triggers: "[\(module("t", "timer.TimeOfDayTrigger", #"{"time": "06:00"}"#))]",
                   actions: "[\(module("a", "core.RuleEnablementAction", #"{"enable": false, "ruleUIDs": ["tick"]}"#)), \(module("b", "core.RunRuleAction", #"{"ruleUIDs": ["set"]}"#))]"),
            uiRule("set", "Set", triggers: "[]", conditions: "[\(module("c", "core.ItemStateCondition", #"{"itemName": "N", "operator": "=", "state": "0"}"#))]",
                   actions: "[\(module("a", "core.ItemStateUpdateAction", #"{"itemName": "N", "state": "7"}"#))]"),
        ].joined(separator: ",") + "]"
        s.timeline = #"""
            { "at": "2026-01-09T12:00", "enableRule": { "rule": "Tick", "enabled": true } },
            { "at": "2026-01-09T12:00", "runRule": { "rule": "set" } }
            """#
        s.expect = #"""
            { "rule": "Tick", "from": "2026-01-09T00:00", "to": "2026-01-09T12:00", "runs": 6 },
            { "rule": "Tick", "from": "2026-01-09T12:00", "to": "2026-01-10T00:00", "runs": 12 },
            { "rule": "Set", "runs": 1 }, { "at": "2026-01-09T13:00", "item": "N", "state": "7" }
            """#
        let (result, rules) = try await s.run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(rules.contains("2026-01-09T12:00  rule \"Set\" ← runRule step: condition c not met (N = 0, is 7)"), "\(rules)")
    }

    @Test func automationRulesJSONDatabaseLoadsInFileOrder() async throws {
        var s = RuleScenario()
        s.files["automation_rules.json"] = """
            { "zeta": { "class": "org.openhab.core.automation.dto.RuleDTO", "value": \(uiRule("zeta", "Z", triggers: "[\(module("t", "core.SystemStartlevelTrigger", #"{"startlevel": 100}"#))]", actions: "[]")) },
              "alpha": { "class": "org.openhab.core.automation.dto.RuleDTO", "value": \(uiRule("alpha", "A", triggers: "[\(module("t", "core.SystemStartlevelTrigger", #"{"startlevel": 100}"#))]", actions: "[]")) } }
            """
        let (result, rules) = try await s.run()
        #expect(result.passed)
        #expect(rules.map { $0.dropFirst(18).prefix(10) } == ["rule \"Z\" ←", "rule \"A\" ←"])
    }

    @Test func whatCannotRunIsALocatedProblem() {
        var s = RuleScenario()
        s.files["bad.json"] = """
            [
              { "uid": "a", "triggers": [ { "id": "1", "type": "core.ItemStateChangeTriger", "configuration": { "itemName": "x" } } ], "actions": [] },
              { "uid": "b", "triggers": [], "actions": [ { "id": "2", "type": "script.ScriptAction", "configuration": { "type": "application/x-python3", "script": "x" } } ] },
              { "uid": "c", "triggers": [ { "id": "3", "type": "core.ItemCommandTrigger", "configuration": { "itemName": "flat_1_heating_setpont" } } ], "actions": [] },
              { "uid": "d", "triggers": [ { "id": "4", "type": "timer.GenericCronTrigger", "configuration": { "cronExpression": "0 0 25 * * ?" } } ], "actions": [] }
            ]
            """
        let problems = s.problems()
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.contains { $0.contains("bad.json:2: [0].triggers[0].type: \"core.ItemStateChangeTriger\" is not a trigger type the twin can run. Hint: did you mean \"core.ItemStateChangeTrigger\"?") }, "\(problems)")
        #expect(problems.contains { $0.contains("bad.json:3: [1].actions[0].configuration.type: \"application/x-python3\" scripts cannot run in the twin") }, "\(problems)")
        #expect(problems.contains { $0.contains("bad.json:5: [3].triggers[0].configuration.cronExpression:") }, "\(problems)")
    }

    @Test func aRuleNamingAnUnknownItemOrRuleIsRefusedWithASuggestion() {
        var s = RuleScenario()
        s.files["rules.json"] = "[" + uiRule("c", triggers: "[\(module("t", "core.ItemCommandTrigger", #"{"itemName": "flat_1_heating_setpont"}"#))]",
                                            actions: "[\(module("a", "core.RunRuleAction", #"{"ruleUIDs": ["d"]}"#))]") + "]"
        s.timeline = #"{ "at": "2026-01-09T10:00", "runRule": { "rule": "C" } }"#
        let problems = s.problems()
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.contains { $0.contains("rule \"c\" names the Item \"flat_1_heating_setpont\", which does not exist. Hint: did you mean \"flat_1_heating_setpoint\"?") }, "\(problems)")
        #expect(problems.contains { $0.contains("rule \"c\" (action a) names the rule \"d\", which no rule file defines.") }, "\(problems)")
        #expect(problems.contains { $0.contains("timeline[0].runRule.rule: no rule (UID or name) \"C\". Hint: did you mean \"c\"?") }, "\(problems)")
    }

    @Test func theSameScenarioGivesTheSameRuleLog() async throws {
        var s = RuleScenario()
        s.items = #"[{ "name": "N", "type": "Number", "state": "0" }]"#
        s.files["rules.json"] = "[" + uiRule("r", triggers: "[\(module("t", "core.ItemStateChangeTrigger", #"{"itemName": "flat_1_heating_temperature"}"#))]",
                                            actions: "[\(module("a", "core.ItemCommandAction", #"{"itemName": "N", "command": "1"}"#))]") + "]"
        let first = try await s.run().result.log, second = try await s.run().result.log
        #expect(first == second && first.count > 20)
    }
}
