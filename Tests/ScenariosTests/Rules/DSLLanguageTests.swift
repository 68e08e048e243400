@testable import ScenarioFormat
@testable import Scenarios
import Testing
import Twin

/// The Rules DSL as openHAB users write it (issue 28) and its budgets (issue 26), run in scenarios: each
/// expected line is what Java/Xbase gives for the same expression.
@Suite("Rules DSL language")
struct DSLLanguageTests {
    static func logged(_ rules: [String]) -> [String] { DSLRuleTests.logged(rules) }

    static func run(_ body: String, items: String = #"[{ "name": "Go", "type": "Switch", "state": "OFF" }]"#, globals: String = "",
                    end: String = "2026-01-10T00:00") async throws -> (ScenarioResult, [String]) {
        try await scenario(body, items: items, globals: globals, end: end).run()
    }

    /// A scenario whose one rule runs `body` when `Go` turns ON on 2026-01-09 at 10:00; `extra` adds top-level keys.
    static func scenario(_ body: String, items: String = #"[{ "name": "Go", "type": "Switch", "state": "OFF" }]"#, globals: String = "",
                         end: String = "2026-01-10T00:00", extra: String = "") -> RuleScenario {
        var s = RuleScenario()
        s.items = items
        s.end = end
        s.files["l.rules"] = globals + "\nrule \"lang\"\nwhen\n    Item Go changed to ON\nthen\n" + body + "\nend\n"
        s.timeline = #"{ "at": "2026-01-09T10:00", "update": { "item": "Go", "state": "ON" } }"#
        s.extra = extra
        return s
    }

    @Test func numbersFollowJavaAndOpenHAB() async throws {
        let (result, rules) = try await Self.run("""
            logInfo("test", "" + (7 / 2) + " " + (7 % 3) + " " + (7.0 / 2) + " " + (2 ** 10) + " " + (-7 / 2) + " " + (1 + 2 * 3))
            logInfo("test", "" + (10L * 3) + " " + Integer::parseInt("42") + " " + Double.parseDouble("2.5") + " " + Math::max(3, 9) + " " + Math.round(2.5))
            logInfo("test", "" + (1e3 + 1) + " " + 0x1F + " " + 1_000 + " " + (3 == 3.0) + " " + ("a" + null))
            val q = new QuantityType("21 °C")
            logInfo("test", "" + (q + 1|°C) + " " + new DecimalType(5) + " " + (new DecimalType(5) == 5))
            logInfo("test", String::format("%s=%d %.1f %5.2f|%-4s|%%", "n", 42, 2.25, 3.14159, "ab"))
            """)
        #expect(result.failures.isEmpty, "\(result.failures)")
        // `2 ** 10` is IntegerExtensions.operator_power → Math.pow, a double: Java prints 1024.0; `1e3 + 1` is a double too.
        #expect(Self.logged(rules) == ["3 1 3.5 1024.0 -3 7", "30 42 2.5 9 3", "1001.0 31 1000 true anull", "22 °C 5 true", "n=42 2.3  3.14|ab  |%"], "\(rules)")
    }

    /// A `Number` state takes part as a BigDecimal (openhab-core `NumberExtensions`: exact `+ - *`, `/` at scale 8
    /// HALF_UP), two BigDecimals divide with DECIMAL128 (Xbase `BigDecimalExtensions`), double literals stay
    /// doubles (`DoubleExtensions`), and each prints as Java's `toString` does.
    @Test func numberStatesComputeAsBigDecimals() async throws {
        let (result, rules) = try await Self.run("""
            val t = Temp.state as Number
            logInfo("test", "" + (t + 0.1) + " " + (t / 3) + " " + (0.1 + 0.2) + " " + (t * 2) + " " + (1bd / 3bd) + " " + (t - 21.5))
            val BigDecimal b = 0.1
            logInfo("test", "" + (b + 0.2) + " " + t.toBigDecimal.setScale(0, RoundingMode.HALF_UP) + " " + String::format("%.2f", t / 3) + " " + (t == 21.50) + " " + ((t / 3) instanceof BigDecimal))
            """, items: #"[{ "name": "Go", "type": "Switch", "state": "OFF" }, { "name": "Temp", "type": "Number", "state": "21.5" }]"#)
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["21.6 7.16666667 0.30000000000000004 43.0 0.3333333333333333333333333333333333 0.0", "0.3 22 7.17 true true"], "\(rules)")
    }

    /// A Number Item whose state has hundreds of digits (found by fuzzing seed 20261125) formats as Java's
    /// `String.format("%.1f", 1.6161616161616162E305)` does — the shortest digits, then zeros — not `NaN.0`.
    @Test func formattingNumbersPastDecimalsRangeWritesTheirDigits() async throws {
        let big = String(repeating: "16", count: 153)
        let (result, rules) = try await Self.run("""
            val v = (Big.state as Number).doubleValue
            logInfo("test", String::format("%.1f|%.2f|%.1f|%.0f|%.3f", v - 15, 1e20, -1e-200, 1.5e17, 1e-5))
            """, items: #"[{ "name": "Go", "type": "Switch", "state": "OFF" }, { "name": "Big", "type": "Number", "state": "\#(big)" }]"#)
        #expect(result.failures.isEmpty, "\(result.failures)")
        let digits = "16161616161616162" + String(repeating: "0", count: 306 - 17)
        #expect(Self.logged(rules) == ["\(digits).0|100000000000000000000.00|-0.0|150000000000000000|0.000"], "\(rules)")
    }

    /// `java.util.Formatter`'s `%t` conversions, argument indices (`%1$td`, `%<tm`) and a `Locale` first, as a
    /// rule writes a German date: Java 17's CLDR names (`Mo.`, `März`), `,` as German decimal separator and `.`
    /// for grouping; `now` is Friday 2026-01-09 10:00 in Budapest (+0100).
    @Test func formattingDatesWithLocalesAndArgumentIndices() async throws {
        let (result, rules) = try await Self.run("""
            val d = LocalDate.of(2026, 3, 23)
            logInfo("test", String.format(java.util.Locale.GERMAN, "%ta %1$td.%1$tm", d) + "|" + String.format(Locale.GERMAN, "%tA, %<te. %<tB %<tb|%.2f|%,d", d, 1234.5, 1234567))
            logInfo("test", String::format("%tA %<te %<tB %<tY|%tF|%2$tj", d, d.plusDays(300)) + "|" + String::format("%2$s-%1$s-%s-%s", "a", "b"))
            logInfo("test", String::format("%tH:%<tM %<tT %<tR %<tp %<tz %<tZ", now))
            """)
        #expect(Self.logged(rules) == ["Mo. 23.03|Montag, 23. März März|1234,50|1.234.567",
                                       "Monday 23 March 2026|2027-01-17|017|b-a-a-b"], "\(rules)")
        // %tZ asks for a zone's short name, which the twin does not print: the run ends with Java's exception,
        // logged as openHAB logs a rule's error (the scenario has no expectation on it, so it passes).
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(rules.contains { $0.contains("UnknownFormatConversionException") && $0.contains("%tZ") }, "\(rules)")
    }

    /// Hostile format specifiers end the run with Java's exception, located — never a crash or a huge string.
    @Test(arguments: ["%99999999999$s", "%0$s", "%<s", "%t", "%tq", "%2$s", "%$s", "%1$<s", "%1$1001s", "%T"])
    func hostileFormatSpecifiersAreJavaExceptions(pattern: String) async throws {
        let (_, rules) = try await Self.run("""
            logInfo("test", String::format("\(pattern)", now))
            """)
        #expect(rules.contains { $0.contains("Exception") && $0.contains("l.rules:") }, "\(pattern): \(rules)")
    }

    /// A date conversion needs the field: `%tH` of a `LocalDate` is Java's UnsupportedTemporalTypeException.
    @Test func formattingATimeOfADateFails() async throws {
        let (_, rules) = try await Self.run("""
            logInfo("test", String::format("%tH", LocalDate.of(2026, 3, 23)))
            """)
        #expect(rules.contains { $0.contains("UnsupportedTemporalTypeException") }, "\(rules)")
    }

    @Test func stringsAndCollections() async throws {
        let (result, rules) = try await Self.run("""
            val s = "  Living Room Light  "
            val t = s.trim
            logInfo("test", t.toUpperCase + "|" + t.substring(7) + "|" + t.indexOf("Room") + "|" + t.replace(" ", "_") + "|" + t.replaceAll("[aeiou]", "") + "|" + t.split(" ").size + "|" + t.length)
            val list = newArrayList(5, 3, 8, 1)
            list.add(4)
            logInfo("test", "" + list.sortBy[ it ] + " " + list.filter[ it > 3 ] + " " + list.map[ it * 2 ] + " " + list.reduce[ a, b | a + b ] + " " + list.fold(100)[ a, b | a - b ])
            logInfo("test", "" + list.head + " " + list.last + " " + list.take(2) + " " + list.drop(3) + " " + list.exists[ it == 8 ] + " " + list.forall[ it > 0 ] + " " + list.findFirst[ it > 4 ] + " " + list.contains(3) + " " + list.size)
            val map = newHashMap("a" -> 1)
            map.put("b", 2)
            var sum = 0
            for (k : map.keySet) sum += map.get(k) as Integer
            val m2 = #{ "x" -> 10 }
            logInfo("test", "" + map + " " + sum + " " + m2.get("x") + " " + #[1, 2] + " " + #{3, 3, 4} + " " + (1 .. 4) + " " + map.containsKey("b"))
            """)
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["LIVING ROOM LIGHT|Room Light|7|Living_Room_Light|Lvng Rm Lght|3|17",
                                       "[1, 3, 4, 5, 8] [5, 8, 4] [10, 6, 16, 2, 8] 21 79",
                                       "5 4 [5, 3] [1, 4] true true 5 true 5",
                                       "{a=1, b=2} 3 10 [1, 2] [3, 4] [1, 2, 3, 4] true"], "\(rules)")
    }

    @Test func controlFlowLambdasSwitchAndExceptions() async throws {
        let (result, rules) = try await Self.run("""
            var n = 0
            for (var i = 0; i < 5; i++) { n += i }
            do { n = n * 2 } while (n < 50)
            var w = 0
            while (w < 3) w++
            logInfo("test", "n=" + n + " w=" + w)
            val kind = switch n { case 80: "eighty" case 81, case 82: "eighty-ish" default: "other" }
            val typed = switch (Go.state) { DecimalType: "number" OnOffType case Go.state == ON: "on" default: "?" }
            val guarded = switch 7 { case 7 > 5: "big" default: "small" }
            logInfo("test", kind + " " + typed + " " + guarded + " " + (Go.state instanceof OnOffType) + " " + (if (n > 10) "yes" else "no"))
            try {
                val x = Integer::parseInt("oops")
                logInfo("test", "not here " + x)
            } catch (NumberFormatException e) {
                logInfo("test", "caught " + e.message)
            } finally {
                logInfo("test", "finally")
            }
            try { throw new IllegalStateException("boom") } catch (Exception e) { logInfo("test", "rethrown " + e.getMessage) }
            val Functions$Function2<Integer, Integer, Integer> add = [ a, b | a + b ]
            val Procedures$Procedure1<String> shout = [ s | logInfo("test", s.toUpperCase) ]
            shout.apply("hi " + add.apply(2, 3))
            var Timer t = null
            logInfo("test", "safe " + t?.isActive + " " + (t?.running ?: "none"))
            """)
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["n=80 w=3", "eighty on big true yes", "caught For input string: \"oops\"", "finally", "rethrown boom",
                                       "HI 5", "safe false false"], "\(rules)")
    }

    /// Variables resolved once to frame slots (``DSLSuspension``, ``DSLFrame``) keep Xbase's scoping: a lambda made in
    /// a pass of a loop keeps that pass's `val`s (each pass had its own scope), one that assigns an outer `var`
    /// changes it, a local shadows an Item and an implicit variable the trigger did not set is null, a lambda made
    /// in a lambda sees both frames, and a lambda a loop calls again and again (one frame for the loop) starts each
    /// call with its own parameter.
    @Test func lambdasSeeTheVariablesOfWhereTheyWereMade() async throws {
        let (result, rules) = try await Self.run("""
            val fs = newArrayList
            for (i : #[1, 2, 3]) { val x = i * 10; fs.add([| x + i ]) }
            var n = 0
            val gs = newArrayList
            while (n < 3) { n = n + 1; val k = n; gs.add([| "k" + k ]) }
            logInfo("test", fs.map[ f | f.apply ].toString + " " + gs.map[ g | g.apply ].toString)
            var total = 0
            #[1, 2, 3].forEach[ v | total = total + v ]
            val Go = "local"
            logInfo("test", "total " + total + " " + Go + " " + newState + " " + receivedCommand)
            val base = 100
            val add = [ int a | [ int b | base + a + b ] ]
            logInfo("test", "" + add.apply(1).apply(2) + " " + #[1, 2, 3].map[ v | val sq = v * v; sq + 1 ].toString)
            try { throw new IllegalStateException("boom") } catch (Exception e) { val h = [| "caught " + e.message ]; logInfo("test", h.apply) }
            for (t : #[1, 2]) { createTimer(now.plusSeconds(t)) [| logInfo("test", "timer " + t + " " + base) ] }
            #[1].forEach[ v | logInfo("test", "only a lambda reads " + newState) ]
            #["a", "b"].forEach[ createTimer(now.plusSeconds(3), [ logInfo("test", "outer it " + it + " " + length) ]) ]
            """)
        #expect(result.failures.isEmpty, "\(result.failures)")
        // A `[ … ]` lambda called with no argument (a timer's Procedure0) reads the `it` of where it was made.
        #expect(Self.logged(rules) == ["[11, 22, 33] [k1, k2, k3]", "total 6 local ON null", "103 [2, 5, 10]", "caught boom",
                                       "only a lambda reads ON", "timer 1 100", "timer 2 100", "outer it a 1", "outer it b 1"], "\(rules)")
    }

    @Test func closuresCaptureGlobalsAndGroupsIterate() async throws {
        var s = RuleScenario()
        s.items = #"""
            [{ "name": "gBattery", "type": "Group" },
             { "name": "Battery_Door", "type": "Number", "state": "15", "group": "x" },
             { "name": "Go", "type": "Switch", "state": "OFF" }]
            """#
        s.items = #"[{ "name": "gBattery", "type": "Group", "members": ["Battery_Door", "Battery_Window", "Battery_Hall"] }, { "name": "Battery_Door", "type": "Number", "state": "15" }, { "name": "Battery_Window", "type": "Number", "state": "80" }, { "name": "Battery_Hall", "type": "Number", "state": "5" }, { "name": "Go", "type": "Switch", "state": "OFF" }]"#
        s.files["b.rules"] = """
            var int checks = 0
            val Functions$Function1<Number, Boolean> isLow = [ level | level < 20 ]
            rule "batteries"
            when
                Item Go changed to ON
            then
                checks = checks + 1
                val low = gBattery.members.filter[ b | isLow.apply(b.state as Number) ].sortBy[ name ]
                low.forEach[ b | logInfo("test", b.name + " is low at " + b.state + "%") ]
                logInfo("test", "checks " + checks + ", " + low.size + " of " + gBattery.members.size + " low, min " + gBattery.members.map[ (state as Number).intValue ].min)
            end
            """
        s.timeline = #"{ "at": "2026-01-09T10:00", "update": { "item": "Go", "state": "ON" } }"#
        let (result, rules) = try await s.run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["Battery_Door is low at 15%", "Battery_Hall is low at 5%", "checks 1, 2 of 3 low, min 5"], "\(rules)")
    }

    @Test func javaTimeOnTheVirtualClock() async throws {
        let (result, rules) = try await Self.run("""
            val t = now.plusDays(1).withHour(7).withMinute(30)
            logInfo("test", t.format(DateTimeFormatter::ofPattern("EEE dd.MM.yyyy HH:mm")) + " " + t.dayOfWeek + " " + t.isAfter(now))
            logInfo("test", "" + Duration::between(now, t).toMinutes + " " + LocalTime::parse("07:30").isBefore(LocalTime::of(8, 0)) + " " + now.toLocalDate + " " + now.truncatedTo(ChronoUnit::HOURS).minute + " " + now.plus(90, ChronoUnit::MINUTES).hour)
            val dt = new DateTimeType()
            logInfo("test", "" + dt.zonedDateTime.hour + " " + now.plusMonths(1).monthValue + " " + now.minusYears(1).year)
            """)
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["Sat 10.01.2026 07:30 SATURDAY true", "1290 true 2026-01-09 0 11", "10 2 2025"], "\(rules)")
    }

    /// Issue 26: time arithmetic that overflows is a run-time rule error in the run log, as `1/0` is.
    @Test(arguments: ["now.plusDays(9223372036854775807)", "now.plusSeconds(-9223372036854775807 - 1)", "now.plusYears(2147483647)",
                      "now.plusMinutes(9223372036854775807)", "1 / 0"])
    func overflowingTimeIsARunTimeError(expression: String) async throws {
        let (result, rules) = try await Self.run("val x = \(expression)\nlogInfo(\"test\", \"not reached \" + x)")
        #expect(result.failures.isEmpty)
        #expect(Self.logged(rules).isEmpty)
        #expect(rules.contains { $0.contains("error: ") && $0.contains("l.rules:") && ($0.contains("DateTimeException") || $0.contains("ArithmeticException")) }, "\(rules)")
    }

    /// Issue 26: a value may not grow without bound (a located rule error ends the run).
    @Test func aStringThatDoublesForeverEndsTheRun() async throws {
        let (result, rules) = try await Self.run("var s = \"x\"\nwhile (true) { s = s + s }")
        #expect(result.failures.isEmpty)
        #expect(rules.contains { $0.contains("error: ") && $0.contains("rules.dslValueTooLarge") && $0.contains("l.rules:") }, "\(rules)")
    }

    /// Issue 26: a run that never ends is ended by the per-run budget; the scenario's budget ends the scenario
    /// naming the rule (here a cron every minute with an endless loop).
    @Test func endlessLoopsAreBoundedPerRunAndPerScenario() async throws {
        let (result, rules) = try await Self.run("var i = 0\nwhile (true) { i = i + 1 }")
        #expect(result.failures.isEmpty)
        #expect(rules.contains { $0.contains("rules.dslBudget") && $0.contains("l.rules:") }, "\(rules)")

        var s = RuleScenario()
        s.end = "2026-01-12T00:00"
        s.files["spin.rules"] = "rule \"spin\"\nwhen\n    Time cron \"0 * * * * ?\"\nthen\n    while (true) {}\nend\n"
        do {
            _ = try await s.run()
            Issue.record("an endless loop every minute did not end the scenario")
        } catch let error as ScenarioError {
            #expect(error.message.contains("rule \"spin\"") && error.message.contains("used up their budget"), "\(error.message)")
        }
    }

    /// `Thread::sleep` pauses the rule's run on the virtual clock while the world goes on, and the rule's
    /// next trigger waits for it (one thread per rule in openHAB).
    @Test func threadSleepPausesOnTheVirtualClockAndTheNextTriggerWaits() async throws {
        var s = RuleScenario()
        s.items = #"[{ "name": "Go", "type": "Number", "state": "0" }, { "name": "Other", "type": "Switch", "state": "OFF" }]"#
        s.files["sleep.rules"] = """
            rule "sleeper"
            when
                Item Go received update
            then
                logInfo("test", "start " + Go.state + " at " + now.minute + ":" + now.second)
                Thread::sleep(90000)
                logInfo("test", "woke " + Go.state + " at " + now.minute + ":" + now.second + " other " + Other.state)
            end
            rule "other"
            when
                Item Other changed
            then
                logInfo("test", "other ran at " + now.minute + ":" + now.second)
            end
            """
        s.timeline = #"""
            { "at": "2026-01-09T10:00", "update": { "item": "Go", "state": "1" } },
            { "at": "2026-01-09T10:01", "update": { "item": "Other", "state": "ON" } },
            { "at": "2026-01-09T10:01", "update": { "item": "Go", "state": "2" } }
            """#
        let (result, rules) = try await s.run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["start 1 at 0:0", "other ran at 1:0", "woke 2 at 1:30 other ON", "start 2 at 1:30", "woke 2 at 3:0 other ON"], "\(rules)")
    }

    /// Issue 26: `Thing "no:such:thing" changed` is refused by validate, with a suggestion.
    @Test func anUnknownThingIsRefused() {
        var s = RuleScenario()
        s.files["t.rules"] = "rule \"t\"\nwhen\n    Thing \"twin:thermostat:flat-1:heatng\" changed\nthen\nend\n"
        let problems = s.problems()
        #expect(problems.count == 1 && problems[0].contains("twin:thermostat:flat-1:heatng") && problems[0].contains("twin:thermostat:flat-1:heating"), "\(problems)")
    }

    /// openHAB 2's `receivedEvent.getEvent` names what changed in openHAB 3 instead of "no method".
    @Test func receivedEventIsTheEventTextSinceOpenHAB3() {
        var s = RuleScenario()
        s.files["b.rules"] = "rule \"b\"\nwhen\n    Channel \"hue:0820:bridge:dimmer:event\" triggered\nthen\n    if (receivedEvent.getEvent == \"1002.0\") logInfo(\"b\", \"on\")\nend\n"
        let problems = s.problems()
        #expect(problems.count == 1 && problems[0].contains("since openHAB 3 receivedEvent is the event's text")
                && problems[0].contains(#"receivedEvent == "SHORT_PRESSED""#), "\(problems)")
        s.files["b.rules"] = "rule \"b\"\nwhen\n    Channel \"hue:0820:bridge:dimmer:event\" triggered\nthen\n    if (receivedEvent == \"1002.0\") logInfo(\"b\", \"on\")\nend\n"
        #expect(s.problems().isEmpty, "\(s.problems())")
    }

    /// `Item.postUpdate(v)` / `Item.setState(v)` on an Item named at the call site and on an Item handed around as a
    /// value take the one way of the Item's methods (the value carries the name checked once: ``DSLValue/item(_:)``);
    /// a variable of the same name still shadows the Item, and both give the same states, log and errors.
    @Test func anItemNamedAtTheCallSiteUpdatesAsTheMethodTableDoes() async throws {
        let items = #"[{ "name": "Go", "type": "Switch", "state": "OFF" }, { "name": "N", "type": "Number", "state": "0" }, "#
            + #"{ "name": "S", "type": "String", "state": "-" }]"#
        let (result, rules) = try await Self.run("""
            N.postUpdate(5)
            S.setState("named")
            logInfo("test", "" + N.state + " " + S.state)
            val held = S
            held.postUpdate("held")
            N.postUpdate(2.5)
            logInfo("test", "" + N.state + " " + S.state)
            newArrayList(S).forEach[ s | s.postUpdate("each") ]
            logInfo("test", "" + S.state)
            if (true) { val S = N; S.postUpdate(7) }
            logInfo("test", "" + N.state + " " + S.state)
            N.postUpdate(null)
            """, items: items)
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["5 named", "2.5 held", "each", "7 each"], "\(rules)")
        let log = rules.joined(separator: "\n")
        #expect(log.contains("postUpdate to N with null"), "\(log)")
    }

    /// `sendCommand` with a number, as an Item's method or as the function with an Item or its name: a Number Item or
    /// a Group takes the number's `DecimalType` command (``ItemType/numberCommand(_:)``), other Items parse its text;
    /// the run log shows the number's text either way, and `null` is refused as before.
    @Test func aNumberCommandIsTheCommandItsTextParsesTo() async throws {
        let items = #"[{ "name": "Go", "type": "Switch", "state": "OFF" }, { "name": "N", "type": "Number", "state": "0" }, "#
            + #"{ "name": "T", "type": "Number:Temperature", "state": "0 °C" }, { "name": "D", "type": "Dimmer", "state": "0" }, "#
            + #"{ "name": "S", "type": "String", "state": "-" }, { "name": "G", "type": "Group", "members": ["M"] }, "#
            + #"{ "name": "M", "type": "Number", "state": "0" }]"#
        let (result, rules) = try await Self.run("""
            N.sendCommand(5)
            T.sendCommand(21.5)
            D.sendCommand(40)
            S.sendCommand(2.50bd)
            G.sendCommand(3)
            logInfo("test", "" + N.state + " " + T.state + " " + D.state + " " + S.state + " " + M.state)
            sendCommand(N, 0.1 + 0.2)
            sendCommand("T", 7)
            val held = D
            held.sendCommand(1e7)
            logInfo("test", "" + N.state + " " + T.state + " " + D.state)
            N.sendCommand(1e7)
            logInfo("test", "" + N.state)
            N.sendCommand(null)
            """, items: items)
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["5 21.5 °C 40 2.50 3", "0.30000000000000004 7 °C 40", "10000000"], "\(rules)")
        let log = rules.joined(separator: "\n")
        #expect(log.contains("sendCommand to N with null"), "\(log)")
        #expect(log.contains("command 1.0E7 to D refused"), "\(log)")
    }
}
