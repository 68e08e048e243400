@testable import ScenarioFormat
@testable import Scenarios
import Testing
import Twin

/// Constructs real users' openHAB 3–5 rule files use that the twin refused before (issue 28's held-out
/// files): `now()`, `Item.state = v`, `callScript` with script files, `ReentrantLock`, `HSBType`,
/// `SimpleDateFormat`. Each expectation is what openHAB / Java gives.
@Suite("Rules DSL on real users' files")
struct DSLRealFilesTests {
    static func logged(_ rules: [String]) -> [String] { DSLRuleTests.logged(rules) }

    /// `now()` is `now`; `Item.state = v` is GenericItem.setState: the state applies and `changed` and
    /// `received update` rules run, as for postUpdate.
    @Test func nowWithParenthesesAndStateAssignment() async throws {
        var s = RuleScenario()
        s.items = #"[{ "name": "Go", "type": "Switch", "state": "OFF" }, { "name": "Level", "type": "Number", "state": "1" }]"#
        s.files["a.rules"] = """
            rule "assign"
            when
                Item Go changed to ON
            then
                Level.state = 42
                logInfo("test", "hour " + now().hour + " level " + Level.state)
            end
            rule "watch"
            when
                Item Level changed
            then
                logInfo("test", "changed " + previousState + " -> " + newState)
            end
            """
        s.timeline = #"{ "at": "2026-01-09T10:00", "update": { "item": "Go", "state": "ON" } }"#
        s.expect = #"{ "at": "2026-01-09T10:01", "item": "Level", "state": "42" }"#
        let (result, rules) = try await s.run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["hour 10 level 42", "changed 1 -> 42"], "\(rules)")
    }

    /// `callScript("name")` runs `scriptFiles`' `name.script` with a fresh scope and returns its value;
    /// the `.script` ending is optional; a computed unknown name is openHAB's ScriptExecutionException.
    @Test func callScriptRunsAScenarioScriptFile() async throws {
        var s = RuleScenario()
        s.items = #"[{ "name": "Go", "type": "Switch", "state": "OFF" }, { "name": "Lamp", "type": "Switch", "state": "OFF" }]"#
        s.files["scripts/lamp_on.script"] = "Lamp.sendCommand(ON)\nval n = 20 + 1\nn * 2\n"
        s.files["a.rules"] = """
            rule "calls"
            when
                Item Go changed to ON
            then
                val r = callScript("lamp_on")
                logInfo("test", "returned " + r + " lamp " + Lamp.state)
                callScript("lamp_on.script")
                try {
                    callScript("lamp_" + "off")
                } catch (Exception e) {
                    logInfo("test", "caught " + e.message)
                }
            end
            """
        s.extra = #""scriptFiles": ["scripts/lamp_on.script"]"#
        s.timeline = #"{ "at": "2026-01-09T10:00", "update": { "item": "Go", "state": "ON" } }"#
        let (result, rules) = try await s.run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["returned 42 lamp ON", "caught Script 'lamp_off' cannot be found."], "\(rules)")
    }

    /// A literal name the scenario has no script for is refused by validate, located, with a suggestion;
    /// an Item a script names must exist like one a rule names.
    @Test func unknownScriptsAndTheirItemsAreRefused() {
        var s = RuleScenario()
        s.items = #"[{ "name": "Go", "type": "Switch", "state": "OFF" }]"#
        s.files["scripts/lamp_on.script"] = "Lampe.sendCommand(ON)\n"
        s.files["a.rules"] = "rule \"c\"\nwhen\n    Item Go changed\nthen\n    callScript(\"lamp_onn\")\nend\nrule \"d\"\nwhen\n    Item Go changed\nthen\n    callScript(\"lamp_on\")\nend\n"
        s.extra = #""scriptFiles": ["scripts/lamp_on.script"]"#
        let problems = s.problems()
        #expect(problems.contains { $0.contains("a.rules:5") && $0.contains("rules.dslUnknownScript") && $0.contains("did you mean \"lamp_on\"") }, "\(problems)")
        s.files["a.rules"] = "rule \"d\"\nwhen\n    Item Go changed\nthen\n    callScript(\"lamp_on\")\nend\n"
        let itemProblems = s.problems()
        #expect(itemProblems.count == 1 && itemProblems[0].contains("\"Lampe\""), "\(itemProblems)")
    }

    /// `ReentrantLock` across rules: a run that sleeps inside the lock keeps another rule's run waiting at
    /// `lock()` until it unlocks (virtual time goes on); `tryLock` answers at once. At the unlock the waiting
    /// run goes on first, then the one that unlocked (Java allows either order; the twin always picks this one).
    @Test func reentrantLockMakesAnotherRuleWait() async throws {
        var s = RuleScenario()
        s.items = #"[{ "name": "A", "type": "Switch", "state": "OFF" }, { "name": "B", "type": "Switch", "state": "OFF" }]"#
        s.files["lock.rules"] = """
            import java.util.concurrent.locks.ReentrantLock
            val ReentrantLock lock = new ReentrantLock()

            rule "first"
            when
                Item A changed to ON
            then
                lock.lock()
                try {
                    logInfo("test", "first holds at " + now.minute + ":" + now.second + " locked " + lock.isLocked)
                    Thread::sleep(30000)
                } finally {
                    lock.unlock()
                }
                logInfo("test", "first unlocked at " + now.minute + ":" + now.second)
            end

            rule "second"
            when
                Item B changed to ON
            then
                logInfo("test", "second tries at " + now.minute + ":" + now.second + " " + lock.tryLock)
                lock.lock()
                logInfo("test", "second holds at " + now.minute + ":" + now.second)
                lock.unlock()
                logInfo("test", "free " + !lock.isLocked)
            end
            """
        s.timeline = #"""
            { "at": "2026-01-09T10:00", "update": { "item": "A", "state": "ON" } },
            { "at": "2026-01-09T10:00:10", "update": { "item": "B", "state": "ON" } }
            """#
        let (result, rules) = try await s.run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["first holds at 0:0 locked true", "second tries at 0:10 false", "second holds at 0:30", "free true",
                                       "first unlocked at 0:30"], "\(rules)")
    }

    /// HSBType as openhab-core's HSBType and ColorUtil compute it (5 significant digits).
    @Test func hsbTypeAsOpenHAB() async throws {
        let (result, rules) = try await DSLLanguageTests.run("""
            val c = new HSBType("120,100,50")
            logInfo("test", "" + c.hue + " " + c.saturation + " " + c.brightness + " " + c.red + " " + c.green + " " + c.blue + " " + c.getRGB + " " + c.toRGB)
            val d = new HSBType(new DecimalType(240), new PercentType(50), new PercentType(100))
            logInfo("test", "" + d + " " + HSBType::fromRGB(255, 0, 0) + " " + HSBType::fromRGB(0, 0, 255) + " " + HSBType.fromRGB(255, 128, 0) + " " + HSBType::GREEN + " " + (d instanceof HSBType))
            """)
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["120 100 50 0 50 0 -16744448 [0, 50, 0]", "240,50,100 0,100,100 240,100,100 30.117,100,100 120,100,100 true"], "\(rules)")
    }

    /// HSBType.toXY as openHAB 4's ColorUtil.hsbToXY computes it: sRGB gamma, the "Wide RGB D65" matrix, x and y of
    /// X+Y+Z (moved onto the default gamut's closest edge when outside it: then a fourth element, 0), then Y; each
    /// × 100 as a PercentType. Worked by hand from the formulas: red is X 0.664511, Y 0.283881, Z 0.000088 →
    /// x 0.70061, y 0.29930, outside the red–green edge (x + y ≤ 0.9962) → projected onto it: 0.69874, 0.29736.
    @Test func hsbTypeToXYAsOpenHAB() async throws {
        let (result, rules) = try await DSLLanguageTests.run("""
            for (text : newArrayList("0,100,100", "240,100,100", "120,50,100")) {
                val xy = new HSBType(text).toXY
                logInfo("test", text + " " + xy.size + " " + Math.round(xy.get(0).doubleValue * 100) + " " + Math.round(xy.get(1).doubleValue * 100) + " " + Math.round(xy.get(2).doubleValue * 100))
            }
            """)
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["0,100,100 4 6987 2974 2839", "240,100,100 3 1355 399 477", "120,50,100 3 2446 5461 7394"], "\(rules)")
    }

    /// openHAB imports ChronoUnit's and DayOfWeek's constants statically: a rule writes them bare, and they are no
    /// Item names (a conf directory would otherwise skip the file for an Item "MINUTES" no .items file declares).
    @Test func staticallyImportedConstantsWrittenBare() async throws {
        let (result, rules) = try await DSLLanguageTests.run("""
            val n = MINUTES.between(now, now.withHour(18).withMinute(0))
            logInfo("test", "" + n + " " + (now.dayOfWeek == FRIDAY) + " " + (now.dayOfWeek == MONDAY) + " " + HOURS.between(now.withHour(1), now.withHour(5)))
            """)
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["480 true false 4"], "\(rules)")
    }

    /// `new SimpleDateFormat(pattern).format(new Date())` as rules print a time; `new Date(ms)`.
    @Test func simpleDateFormatAndDate() async throws {
        let (result, rules) = try await DSLLanguageTests.run("""
            val fmt = new SimpleDateFormat("yyyy-MM-dd HH:mm")
            logInfo("test", fmt.format(new Date()) + " " + new SimpleDateFormat("HH:mm:ss").format(new Date(0)))
            """)
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["2026-01-09 10:00 01:00:00"], "\(rules)")
    }

    /// `ScriptServiceUtil.getItemRegistry.getItem(name)` (openHAB 3+'s way to an Item by a computed name),
    /// a `Queue` from `newLinkedList` (`offer`, `peek`, `poll`), `getClass`, fully qualified names.
    @Test func itemRegistryQueuesAndQualifiedNames() async throws {
        let (result, rules) = try await DSLLanguageTests.run("""
            val item = ScriptServiceUtil.getItemRegistry.getItem("G" + "o")
            val same = org.openhab.core.model.script.ScriptServiceUtil.getItemRegistry().getItem("Go")
            logInfo("test", item.name + " " + item.state + " " + (same.name == "Go") + " " + "x".getClass + " " + java.time.ZonedDateTime::now().hour)
            val java.util.Queue<String> q = newLinkedList()
            q.offer("a")
            q.add("b")
            logInfo("test", q.peek + " " + q.poll + " " + q.poll + " " + q.poll + " " + q.size)
            try { ScriptServiceUtil.getItemRegistry.getItem("Nope") } catch (Exception e) { logInfo("test", e.message) }
            """)
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["Go ON true class java.lang.String 10", "a a b null 0", "Item 'Nope' could not be found in the item registry"], "\(rules)")
    }

    /// Joda-Time calls of openHAB 2 that openHAB 3+ no longer has are refused with the java.time call.
    @Test func jodaCallsNameTheirJavaTimeReplacement() {
        var s = RuleScenario()
        s.items = #"[{ "name": "Go", "type": "Switch", "state": "OFF" }]"#
        s.files["j.rules"] = "rule \"j\"\nwhen\n    Item Go changed\nthen\n    val t = now.withTimeAtStartOfDay\nend\n"
        let problems = s.problems()
        #expect(problems.count == 1 && problems[0].contains("j.rules:5") && problems[0].contains("truncatedTo(ChronoUnit::DAYS)"), "\(problems)")
    }

    /// Ephemeris `isWeekend` with openHAB's default dayset (Saturday, Sunday): 2026-01-09 is a Friday.
    @Test func isWeekendWithOpenHABsDefaultDayset() async throws {
        let (result, rules) = try await DSLLanguageTests.run("""
            logInfo("test", "" + isWeekend + " " + isWeekend() + " " + isWeekend(1) + " " + isWeekend(now.plusDays(2)) + " " + isInDayset("weekend", 3))
            """)
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["false false true true false"], "\(rules)")
    }

    /// Ephemeris bank holidays answer from the scenario's `ephemeris.bankHolidays` (2026-01-09 is a Friday);
    /// without them a run that asks ends with an error naming the key, not a guess.
    @Test func bankHolidaysComeFromTheScenario() async throws {
        func scenario(_ ephemeris: String?) -> RuleScenario {
            DSLLanguageTests.scenario("""
                logInfo("test", "" + isBankHoliday + " " + isBankHoliday(1) + " " + getBankHolidayName(1) + " " + getBankHolidayName(now.plusDays(2)))
                """, extra: ephemeris.map { #""ephemeris": "# + $0 } ?? "")
        }
        let (result, rules) = try await scenario(#"{ "bankHolidays": { "2026-01-10": "Test Day" } }"#).run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["false true Test Day null"], "\(rules)")
        let (_, unlisted) = try await scenario(nil).run()
        #expect(unlisted.joined(separator: "\n").contains("isBankHoliday needs the scenario's bank holidays"), "\(unlisted)")
        #expect(scenario(#"{ "bankHolidays": { "2026-02-30": "No Day" } }"#).problems().contains { $0.contains("2026-02-30") })
    }

    /// A lock never unlocked keeps the next run waiting to the end (as a Java thread would), without hanging
    /// the scenario; `unlock` by a run that does not hold it is Java's IllegalMonitorStateException.
    @Test func aLockNeverReleasedAndAForeignUnlock() async throws {
        var s = RuleScenario()
        s.items = #"[{ "name": "A", "type": "Switch", "state": "OFF" }, { "name": "B", "type": "Switch", "state": "OFF" }, { "name": "C", "type": "Switch", "state": "OFF" }]"#
        s.files["d.rules"] = """
            val java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock()
            rule "holder"
            when
                Item A changed to ON
            then
                lock.lock()
                lock.lock()
                logInfo("test", "holds " + lock.getHoldCount + " " + lock.isHeldByCurrentThread)
            end
            rule "waiter"
            when
                Item B changed to ON
            then
                lock.lock()
                logInfo("test", "waiter got it")
            end
            rule "foreign unlock"
            when
                Item C changed to ON
            then
                try { lock.unlock() } catch (IllegalMonitorStateException e) { logInfo("test", "caught " + lock.isHeldByCurrentThread) }
            end
            """
        s.timeline = #"""
            { "at": "2026-01-09T10:00", "update": { "item": "A", "state": "ON" } },
            { "at": "2026-01-09T10:01", "update": { "item": "B", "state": "ON" } },
            { "at": "2026-01-09T10:02", "update": { "item": "C", "state": "ON" } }
            """#
        let (result, rules) = try await s.run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["holds 2 true", "caught false"], "\(rules)")
    }

    /// A script that calls itself ends the run at 32 levels (a located budget error), not the process.
    @Test func aScriptCallingItselfEndsTheRun() async throws {
        var s = RuleScenario()
        s.items = #"[{ "name": "Go", "type": "Switch", "state": "OFF" }]"#
        s.files["scripts/again.script"] = "callScript(\"again\")\n"
        s.files["a.rules"] = "rule \"r\"\nwhen\n    Item Go changed to ON\nthen\n    callScript(\"again\")\nend\n"
        s.extra = #""scriptFiles": ["scripts/again.script"]"#
        s.timeline = #"{ "at": "2026-01-09T10:00", "update": { "item": "Go", "state": "ON" } }"#
        let (_, rules) = try await s.run()
        #expect(rules.contains { $0.contains("again.script:1:1") && $0.contains("32 scripts deep") && $0.contains("rules.dslBudget") }, "\(rules)")
    }

    /// java.time's `withMonth`, `withYear`, `withDayOfYear` (the day clamps to the month's last day, as Java).
    @Test func zonedDateTimeWithMonthYearAndDayOfYear() async throws {
        let (result, rules) = try await DSLLanguageTests.run("""
            val t = now.withDayOfMonth(31)
            logInfo("test", "" + t.withMonth(2).toLocalDate + " " + t.withMonth(2).withYear(2028).toLocalDate + " " + now.withDayOfYear(60).toLocalDate + " " + now.withDayOfYear(1).hour)
            try { now.withDayOfYear(366) } catch (Exception e) { logInfo("test", "caught") }
            """)
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["2026-02-28 2028-02-28 2026-03-01 10", "caught"], "\(rules)")
    }
}
