@testable import ScenarioFormat
@testable import Scenarios
import Testing
import Twin

/// Trigger channels: a scenario's `trigger` step fires an event, DSL `Channel "…" triggered [EVENT]` and UI
/// `core.ChannelEventTrigger` hear it, `receivedEvent` is the event as a String (openHAB 3+) and
/// `triggeringChannel` the channel; a different event or channel does not fire them (negative controls).
@Suite("Channel triggers")
struct ChannelTriggerTests {
    static let steps = #"""
        { "at": "2026-01-09T07:00", "trigger": { "channel": "astro:sun:home:rise#event", "event": "START" } },
        { "at": "2026-01-09T16:00", "trigger": { "channel": "astro:sun:home:set#event", "event": "END" } },
        { "at": "2026-01-09T16:30", "trigger": { "channel": "astro:sun:home:set#event", "event": "START" } }
        """#

    @Test func dslChannelTriggersHearTheirEventAndNoOther() async throws {
        var s = RuleScenario()
        s.items = #"[{ "name": "Porch", "type": "Switch", "state": "OFF" }]"#
        s.files["sun.rules"] = """
            rule "Sunset"
            when
                Channel "astro:sun:home:set#event" triggered START
            then
                Porch.sendCommand(ON)
                logInfo("test", "{} {} {}", receivedEvent, triggeringChannel, receivedEvent instanceof String)
            end

            rule "Any sun event"
            when
                Channel "astro:sun:home:set#event" triggered or
                Channel "astro:sun:home:rise#event" triggered
            then
                logInfo("test", "any " + receivedEvent)
            end
            """
        s.timeline = Self.steps
        s.expect = #"""
            { "at": "2026-01-09T16:15", "item": "Porch", "state": "OFF" },
            { "at": "2026-01-09T16:30", "item": "Porch", "state": "ON" },
            { "rule": "Sunset", "runs": 1 },
            { "rule": "Any sun event", "runs": 3 }
            """#
        let (result, rules) = try await s.run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(DSLRuleTests.logged(rules) == ["any START", "any END", "START astro:sun:home:set#event true", "any START"], "\(rules)")
        #expect(rules.contains { $0.hasPrefix("2026-01-09T16:30  rule \"Sunset\" ← channel astro:sun:home:set#event triggered START") }, "\(rules)")
    }

    @Test func aUIChannelEventTriggerHearsItsEvent() async throws {
        var s = RuleScenario()
        s.items = #"[{ "name": "Note", "type": "String" }]"#
        s.files["rules.json"] = "[" + uiRule("sunset", "UI sunset",
                                             triggers: "[\(module("t", "core.ChannelEventTrigger", #"{"channelUID": "astro:sun:home:set#event", "event": "START"}"#))]",
                                             actions: "[\(module("a", "core.ItemStateUpdateAction", #"{"itemName": "Note", "state": "sun set"}"#))]") + "]"
        s.timeline = Self.steps
        s.expect = #"""
            { "at": "2026-01-09T16:15", "item": "Note", "state": "NULL" },
            { "at": "2026-01-09T16:30", "item": "Note", "state": "sun set" },
            { "rule": "UI sunset", "runs": 1 }
            """#
        let (result, _) = try await s.run()
        #expect(result.failures.isEmpty, "\(result.failures)")
    }

    @Test func anExpectationOnARuleTheWrongEventWouldFireFails() async throws {
        var s = RuleScenario()
        s.items = #"[{ "name": "Porch", "type": "Switch", "state": "OFF" }]"#
        s.files["sun.rules"] = "rule \"Sunset\"\nwhen\n    Channel \"astro:sun:home:set#event\" triggered START\nthen\n    Porch.sendCommand(ON)\nend\n"
        s.timeline = #"{ "at": "2026-01-09T16:00", "trigger": { "channel": "astro:sun:home:set#event", "event": "END" } }"#
        s.expect = #"{ "at": "2026-01-09T17:00", "item": "Porch", "state": "ON" }"#
        let (result, _) = try await s.run()
        #expect(result.failures.count == 1)
        #expect(result.log.contains { $0.contains("no rule listens to astro:sun:home:set#event END") }, "\(result.log)")
    }

    @Test func badChannelUIDsAreLocatedErrors() {
        var s = RuleScenario()
        s.timeline = #"""
            { "at": "2026-01-09T07:00", "trigger": { "channel": "astro:sun#event", "event": "START" } },
            { "at": "2026-01-09T07:00", "trigger": { "channel": "astro:sun:home:set event", "event": "START" } },
            { "at": "2026-01-09T07:00", "trigger": { "channel": "astro:sun:home:set#event", "event": 5 } }
            """#
        let problems = s.problems().joined(separator: "\n")
        #expect(problems.contains("timeline[0].trigger.channel: \"astro:sun#event\" is not a channel UID: it has 2 segment(s)"), "\(problems)")
        #expect(problems.contains("timeline[1].trigger.channel: \"astro:sun:home:set event\" is not a channel UID: segment 4"), "\(problems)")
        #expect(problems.contains("timeline[2].trigger.event"), "\(problems)")
        var dsl = RuleScenario()
        dsl.files["a.rules"] = "rule \"x\"\nwhen\n    Channel \"astro:sun\" triggered\nthen\n    logInfo(\"a\", \"b\")\nend\n"
        #expect(dsl.problems().joined().contains("a.rules:3: column 5: \"astro:sun\" is not a channel UID"), "\(dsl.problems())")
        var ui = RuleScenario()
        ui.files["rules.json"] = "[" + uiRule("u", triggers: "[\(module("t", "core.ChannelEventTrigger", #"{"event": "START"}"#))]",
                                              actions: "[\(module("a", "core.ItemCommandAction", #"{"itemName": "flat_1_heating_switch", "command": "ON"}"#))]") + "]"
        #expect(ui.problems().joined().contains("channelUID"), "\(ui.problems())")
    }
}
