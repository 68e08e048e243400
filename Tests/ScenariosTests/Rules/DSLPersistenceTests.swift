@testable import ScenarioFormat
@testable import Scenarios
import Testing
import Twin

/// openHAB's persistence extensions called from Rules DSL bodies, on the scenario's persistence store.
@Suite("Rules DSL persistence extensions")
struct DSLPersistenceTests {
    static let items = #"""
        [{ "name": "Go", "type": "Switch", "state": "OFF" }, { "name": "Temp", "type": "Number", "state": "20" },
         { "name": "Power", "type": "Number:Power", "state": "100 W" }, { "name": "Mode", "type": "String", "state": "off" },
         { "name": "Result", "type": "String", "state": "-" }]
        """#

    /// A rule that runs `body` when Go turns ON at 16:00, after Temp was 22 (10:00), 24 (12:00), 24 again
    /// (13:00, an update, not a change) and 18 (14:00), and Mode went comfort (08:00), eco (09:00).
    static func scenario(_ body: String, persisted: String = #"["Temp", "Power", "Mode"]"#, strategy: String = "everyChange",
                         expect: String = "") -> RuleScenario {
        var s = RuleScenario()
        s.items = items
        s.files["p.rules"] = "rule \"persistence\"\nwhen\n    Item Go changed to ON\nthen\n" + body + "\nend\n"
        func update(_ at: String, _ item: String, _ state: String) -> String {
            #"{ "at": "2026-01-09T\#(at)", "update": { "item": "\#(item)", "state": "\#(state)" } }"#
        }
        s.timeline = [update("08:00", "Mode", "comfort"), update("09:00", "Mode", "eco"), update("10:00", "Temp", "22"),
                      update("11:00", "Power", "200 W"), update("12:00", "Temp", "24"), update("13:00", "Temp", "24"),
                      update("14:00", "Temp", "18"), update("16:00", "Go", "ON")].joined(separator: ", ")
        s.expect = expect
        s.extra = #""persistence": { "items": \#(persisted), "strategy": "\#(strategy)" }"#
        return s
    }

    @Test func aggregatesAndSingleStatesAsOpenHABComputesThem() async throws {
        let (result, rules) = try await Self.scenario("""
            val noon = now.withHour(12).withMinute(0)
            logInfo("test", String::format("%.4f", (Temp.averageSince(now.minusHours(6)) as Number).doubleValue) + " " + Temp.averageBetween(noon, noon.plusHours(2), "rrd4j") + " " + Temp.averageUntil(now))
            logInfo("test", "" + Temp.maximumSince(now.minusHours(6)).state + "@" + Temp.maximumSince(now.minusHours(6)).timestamp.hour + " " + Temp.minimumBetween(noon, now).state)
            logInfo("test", "" + Temp.sumSince(noon) + " " + Temp.deltaSince(noon) + " " + Temp.deltaBetween(noon, noon.plusHours(2)) + " " + Temp.countSince(noon) + " " + Temp.countStateChangesSince(now.minusDays(1)))
            logInfo("test", "" + Temp.changedSince(now.minusHours(1)) + " " + Temp.changedSince(noon) + " " + Temp.updatedSince(now.minusHours(1)) + " " + Temp.updatedBetween(noon, noon.plusHours(1)))
            logInfo("test", "" + Temp.historicState(noon.plusMinutes(30)).state + " " + Temp.persistedState(noon.minusHours(3)) + " " + Temp.lastUpdate.hour + " " + Temp.lastChange.hour)
            logInfo("test", "" + Temp.evolutionRate(noon) + " " + String::format("%.4f", (Temp.evolutionRateBetween(noon.minusHours(2), noon) as Number).doubleValue) + " " + Power.averageSince(now.minusHours(6)))
            logInfo("test", "" + Mode.previousState.state + " " + Mode.previousState(true).state + "@" + Mode.previousState(true).instant.hour + " " + Mode.previousState(true, "mapdb").name)
            """).run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        // Averages are time-weighted: since 10:00, 22 for 2 h, 24 for 2 h, 18 for 2 h → 21.33…; noon–14:00 all 24.
        // (Computed in doubles, printed rounded: openHAB's BigDecimal differs in the 16th digit.)
        // The maximum is 24 first stored at 12:00; the minimum since noon 18. Sum since noon 24 + 24 + 18 (the
        // 13:00 update is not a change, so not stored by everyChange: 24 + 18 = 42); delta 18 − 24 = −6,
        // over noon–14:00 too (14:00 stored 18). Power's 100 W was never stored:
        // its average is 200 W from 11:00 on.
        #expect(Self.logged(rules) == [
            "21.3333 24 18",
            "24@12 18",
            "42 -6 -6 2 2",
            "false true false true",
            "24 null 14 14",
            "-25 9.0909 200 W",
            "eco comfort@8 Mode",
        ], "\(rules)")
    }

    @Test func anItemTheScenarioDoesNotPersistIsRefusedWithItsLocation() async throws {
        let (result, rules) = try await Self.scenario("""
            logInfo("test", "before")
            Result.postUpdate("avg " + (Temp as GenericItem).averageSince(now.minusHours(1)))
            """, persisted: #"["Mode"]"#, expect: #"{ "at": "2026-01-09T17:00", "item": "Result", "state": "avg 18" }"#).run()
        let log = rules.joined(separator: "\n")
        #expect(log.contains("p.rules:6:50: Temp.averageSince(…) reads persistence, but the scenario's \"persistence\" does not record Temp (rules.dslNotPersisted)"), "\(log)")
        #expect(log.contains("add \"Temp\""), "\(log)")
        // The run ended there: the expectation on what it would have written fails.
        #expect(result.failures.count == 1, "\(result.failures)")
        // The control: recorded, the same rule writes it and the expectation holds.
        let (persisted, _) = try await Self.scenario("""
            Result.postUpdate("avg " + Temp.averageSince(now.minusHours(1)))
            """, expect: #"{ "at": "2026-01-09T17:00", "item": "Result", "state": "avg 18" }"#).run()
        #expect(persisted.failures.isEmpty, "\(persisted.failures)")
    }

    @Test func previousStateWithoutSkipEqualIsTheCurrentStateAndExpectationsSeeTheDifference() async throws {
        // A rule computing from previousState() (the current state, stored when it changed) instead of
        // previousState(true): the expectation written for openHAB's answer fails.
        let expect = #"{ "at": "2026-01-09T17:00", "item": "Result", "state": "was comfort" }"#
        let (wrong, _) = try await Self.scenario(#"Result.postUpdate("was " + Mode.previousState().state)"#, expect: expect).run()
        #expect(wrong.failures.count == 1)
        let (right, _) = try await Self.scenario(#"Result.postUpdate("was " + Mode.previousState(true).state)"#, expect: expect).run()
        #expect(right.failures.isEmpty, "\(right.failures)")
    }

    @Test func everyUpdateStoresRepeatedStatesAndPersistStoresNow() async throws {
        let (result, rules) = try await Self.scenario("""
            logInfo("test", "" + Temp.countSince(now.withHour(12).withMinute(0)) + " " + Temp.countStateChangesSince(now.withHour(12).withMinute(0)))
            Go.persist
            Temp.persist(now.minusMinutes(30), new DecimalType(30))
            logInfo("test", "" + Temp.historicState(now.minusMinutes(20)).state + " " + Temp.countSince(now.minusHours(1)))
            """, persisted: #"["Temp", "Go"]"#, strategy: "everyUpdate").run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        // everyUpdate: 12:00, 13:00, 14:00 stored (3), of which 14:00 is a change (1).
        #expect(Self.logged(rules) == ["3 1", "30 1"], "\(rules)")
    }

    @Test func getAllStatesListsTheStoredHistoricItemsOldestFirst() async throws {
        // Stored by everyChange: 22 (10:00), 24 (12:00; the 13:00 update is no change), 18 (14:00). Since noon: 24, 18;
        // noon to 13:30: 24; until now: openHAB's interval from now to now, nothing; an open begin before now: null.
        let (result, rules) = try await Self.scenario("""
            val noon = now.withHour(12).withMinute(0)
            logInfo("test", Temp.getAllStatesSince(noon).map[ h | h.state.toString + "@" + h.timestamp.hour ].join(" "))
            logInfo("test", "" + Temp.getAllStatesBetween(noon, noon.plusMinutes(90)).size + " " + Temp.getAllStatesSince(now.minusDays(1), "rrd4j").size + " " + Temp.getAllStatesUntil(now.minusHours(1)))
            """).run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["24@12 18@14", "1 3 null"], "\(rules)")
    }

    @Test func validateAcceptsTheExtensionsAndStillRefusesThoseTheTwinLacks() {
        var s = Self.scenario("""
            val h = Temp.maximumSince(now.minusHours(1), "influxdb")
            if (Temp.changedSince(now.minusMinutes(5)) && h !== null) logInfo("test", "" + h.state + Temp.lastChange + Temp.previousState(true).timestamp)
            """)
        #expect(s.problems().isEmpty, "\(s.problems())")
        s.files["p.rules"] = "rule \"r\"\nwhen\n    Item Go changed\nthen\n    logInfo(\"test\", \"\" + Temp.varianceSince(now.minusHours(1)))\nend\n"
        #expect(s.problems().contains { $0.contains("varianceSince") && $0.contains("rules.dslUnsupported") }, "\(s.problems())")
    }

    @Test func validateRefusesAnExtensionOnAnItemNamedButNotPersisted() {
        let body = "    val x = Temp.averageSince(now.minusHours(1))\n    logInfo(\"test\", \"\" + Mode.lastChange)"
        let refused = Self.scenario(body, persisted: #"["Mode"]"#).problems().joined(separator: "\n")
        #expect(refused.contains("p.rules:5:18: Temp.averageSince(…) reads persistence, but the scenario's \"persistence\" does not record Temp (rules.dslNotPersisted)"), "\(refused)")
        #expect(!refused.contains("Mode.lastChange"), "\(refused)")
        // Recorded by name or by "*". (With a Group selector, "gName*", the check is left to the run.)
        for persisted in [#"["Mode", "Temp"]"#, #"["*"]"#] {
            #expect(Self.scenario(body, persisted: persisted).problems().isEmpty, "\(persisted)")
        }
    }

    static func logged(_ rules: [String]) -> [String] { DSLRuleTests.logged(rules) }
}
