import Foundation
import Rules
@testable import ScenarioFormat
@testable import Scenarios
import SmartHome
import Testing
@_spi(TwinParts) import Twin

/// `/rest/rules` over bytes: openHAB's EnrichedRuleDTO JSON, admin-only access, run now and enable.
@Suite("The rules REST resource")
struct RuleRESTRouterTests {
    static let policy = OpenHABAccessPolicy(tokens: ["admin-token": .administrator, "user-token": .user])

    func world() async throws -> World {
        var s = RuleScenario()
        s.items = #"[{ "name": "N", "type": "Number", "state": "0" }]"#
        s.files["rules.json"] = "[" + uiRule("set-n", "Set N", triggers: "[\(module("1", "core.ItemCommandTrigger", #"{"itemName": "flat_1_heating_switch", "command": "ON"}"#))]",
                                            conditions: "[\(module("2", "core.TimeOfDayCondition", #"{"startTime": "06:00", "endTime": "22:00"}"#))]",
                                            actions: "[\(module("3", "core.ItemStateUpdateAction", #"{"itemName": "N", "state": "7"}"#))]") + "]"
        return try await World.build(try s.load())
    }

    func request(_ method: OpenHABRequest.Method, _ path: String, token: String? = "admin-token", body: String = "") -> OpenHABRequest {
        OpenHABRequest(method, path, headers: token.map { ["X-OPENHAB-TOKEN": $0] } ?? [:], body: Data(body.utf8))
    }

    @Test func listsRulesAsOpenHABsEnrichedRuleDTO() async throws {
        let router = RuleRESTRouter(engine: try await world().rules, policy: Self.policy)
        let response = try #require(await router.handle(request(.get, "/rest/rules")))
        #expect(response.status == 200 && response.header("Content-Type") == "application/json")
        #expect(response.bodyText == #"[{"status":{"status":"IDLE","statusDetail":"NONE"},"editable":true,"#
            + #""triggers":[{"id":"1","configuration":{"itemName":"flat_1_heating_switch","command":"ON"},"type":"core.ItemCommandTrigger"}],"#
            + #""conditions":[{"inputs":{},"id":"2","configuration":{"startTime":"06:00","endTime":"22:00"},"type":"core.TimeOfDayCondition"}],"#
            + #""actions":[{"inputs":{},"id":"3","configuration":{"itemName":"N","state":"7"},"type":"core.ItemStateUpdateAction"}],"#
            + #""configuration":{},"configDescriptions":[],"uid":"set-n","name":"Set N","tags":[],"visibility":"VISIBLE"}]"#)
    }

    @Test func rulesAreForAdminsAndUnknownUIDsAre404WithoutBody() async throws {
        let router = RuleRESTRouter(engine: try await world().rules, policy: Self.policy)
        #expect(await router.handle(request(.get, "/rest/rules", token: nil))?.status == 401)
        #expect(await router.handle(request(.get, "/rest/rules", token: "user-token"))?.status == 403)
        let missing = try #require(await router.handle(request(.get, "/rest/rules/nope")))
        #expect(missing.status == 404 && missing.body.isEmpty)
        #expect(await router.handle(request(.post, "/rest/rules/nope/runnow"))?.status == 404)
        let refused = try #require(await router.handle(request(.delete, "/rest/rules", token: "user-token")))
        #expect(refused.status == 405 && refused.header("Allow") == "GET, HEAD")  // the method before the role, as JAX-RS
        #expect(await router.handle(request(.get, "/rest/rules/nope/runnow/more"))?.status == 404)
        #expect(await router.handle(request(.get, "/rest/items")) == nil)
    }

    @Test func runNowSkipsConditionsAndEnableSwitchesTheStatus() async throws {
        let world = try await world()
        let router = RuleRESTRouter(engine: world.rules, policy: Self.policy)
        // 00:00 is outside the rule's 06:00–22:00 window: runnow runs the actions anyway (as openHAB's REST call).
        #expect(await router.handle(request(.post, "/rest/rules/set-n/runnow"))?.status == 200)
        #expect(world.rules.runCount(of: "set-n") == 1)
        #expect(await world.runtime.state(of: try ItemName("N"))?.description == "7")
        #expect(await router.handle(request(.post, "/rest/rules/set-n/enable", body: "false"))?.status == 200)
        #expect(await router.handle(request(.post, "/rest/rules/set-n/enable", body: "maybe"))?.status == 400)
        let one = try #require(await router.handle(request(.get, "/rest/rules/set-n")))
        #expect(one.bodyText.hasPrefix(#"{"status":{"status":"UNINITIALIZED","statusDetail":"DISABLED"},"editable":true,"#))
    }
}

/// The built-in weather watcher is a rule on the same engine: listed, counted, not editable.
@Suite("Built-in automations as rules")
struct BuiltInAutomationRuleTests {
    @Test func theWeatherWatcherIsAnHourlyRuleAtMinuteFive() async throws {
        let text = minimalScenario.replacingOccurrences(of: "  \"timeline\": [", with: """
              "automations": { "weatherWatcher": { "heatOnBelowC": 15 } },
              "timeline": [
            """).replacingOccurrences(of: #"  "expect": [ { "at": "2026-01-09T16:00", "item": "flat-1/door/lock", "state": "OFF" } ]"#, with: """
              "expect": [ { "rule": "Weather watcher (Europe/Budapest)", "runs": 24 },
                          { "rule": "weatherWatcher-Europe/Budapest", "from": "2026-01-09T10:00", "to": "2026-01-09T12:00", "runs": 2 } ]
            """)
        let scenario = try ScenarioDecoder.decode(text, file: "watcher.json")
        let result = try await ScenarioRunner.run(scenario)
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(!result.log.contains { $0.contains("rule \"Weather watcher") }, "built-in runs log through the automation log only")

        let world = try await World.build(scenario)
        let router = RuleRESTRouter(engine: world.rules, policy: OpenHABAccessPolicy(tokens: ["t": .administrator]))
        let body = await router.handle(OpenHABRequest(.get, "/rest/rules", headers: ["X-OPENHAB-TOKEN": "t"]))?.bodyText
        #expect(body == #"[{"status":{"status":"IDLE","statusDetail":"NONE"},"editable":false,"#
            + #""triggers":[{"id":"1","configuration":{"cronExpression":"0 5 * * * ?"},"type":"timer.GenericCronTrigger"}],"conditions":[],"#
            + #""actions":[{"inputs":{},"id":"2","configuration":{"automation":"weatherWatcher-Europe/Budapest"},"type":"twin.BuiltInAction"}],"#
            + #""configuration":{},"configDescriptions":[],"uid":"weatherWatcher-Europe/Budapest","name":"Weather watcher (Europe/Budapest)","tags":[],"visibility":"VISIBLE"}]"#)
    }
}
