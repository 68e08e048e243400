import Testing
@testable import Rules

/// The Rules DSL subset: every trigger form, every body construct, and located errors for bad files.
@Suite("Rules DSL parsing")
struct DSLParserTests {
    static func compile(_ text: String) throws(RulesError) -> [Rule] { try DSLCompiler.compile(text, file: "rules/test.rules") }

    static func error(_ text: String) -> RulesError? {
        do {
            _ = try compile(text)
            return nil
        } catch {
            return error
        }
    }

    /// openHAB 3+'s DSLRuleProvider parses `System shuts down` and drops the trigger with a warning ("no longer
    /// supported"); the rule loads with its other triggers, numbered as openHAB numbers the ones it makes.
    @Test func systemShutsDownIsParsedAndDroppedWithAWarning() throws {
        let (rules, problems, warnings) = DSLCompiler.compileAll("""
            rule "save"
            when
                System shuts down or
                Item Pump changed
            then
                logInfo("save", "x")
            end
            """, file: "rules/test.rules")
        #expect(problems.isEmpty, "\(problems)")
        #expect(rules.map(\.name) == ["save"])
        #expect(rules.first?.triggers.map(\.id) == ["1"])
        guard case .itemStateChange(let item, _, _)? = rules.first?.triggers.first?.kind else {
            Issue.record("the Item trigger stays: \(rules)")
            return
        }
        #expect(item.text == "Pump")
        #expect(warnings.map(\.code) == [.dslDroppedTrigger])
        #expect(warnings.first?.message.hasPrefix("rules/test.rules:3:5: \"System shuts down\"") == true, "\(warnings)")
        // Through the throwing entry point the rule loads too: a warning is no problem.
        #expect(try Self.compile("rule \"r\"\nwhen\n    System shuts down\nthen\n    logInfo(\"a\", \"b\")\nend\n").first?.triggers.isEmpty == true)
    }

    /// openHAB 2 offered Apache Commons' StringUtils on strings (`name.containsIgnoreCase(x)`); openHAB 3+ has no such
    /// extension and refuses the file, and so the twin says (a conf directory skips the file).
    @Test func openHAB2StringUtilsExtensionsAreWhatOpenHAB3Refuses() throws {
        let error = try #require(Self.error("""
            rule "r"
            when
                Item Blind changed
            then
                if (Blind.name.containsIgnoreCase("kitchen")) logInfo("a", "b")
            end
            """))
        #expect(error.message.contains(".containsIgnoreCase(…) is openHAB 2's StringUtils extension"), "\(error.message)")
        #expect(DSLCompiler.openHABRefuses(error))
        #expect(error.hint == "write text.toLowerCase.contains(part.toLowerCase).")
        // A method java.lang.String has is not taken for one of them.
        #expect(Self.error("rule \"r\"\nwhen\n    Item Blind changed\nthen\n    if (Blind.name.equalsIgnoreCase(\"k\")) logInfo(\"a\", \"b\")\nend\n") == nil)
    }

    @Test func everyTriggerFormMapsOntoAModuleType() throws {
        let rules = try Self.compile("""
            rule "all"
            when
                Item A received command or Item A received command ON or Item B received update
                or Item B received update 21|°C or Item C changed or Item C changed from OFF to ON
                or Item C changed to -3 or Member of gDoors changed to OPEN or Member of gDoors received command OFF
                or Member of gDoors received update or Time cron "0 0/5 * * * ?" or Time is midnight or Time is noon
                or Time is 07:45 or Time is Next_CheckIn or Time is Next_CheckIn timeOnly offset=-7200 or System started
                or Thing "twin:thermostat:flat-1:heating" changed from ONLINE to OFFLINE
            then
            end
            """)
        let rule = try #require(rules.first)
        #expect(rule.uid == "test-1" && rule.name == "all")
        #expect(rule.triggers.map(\.moduleType) == [
            "core.ItemCommandTrigger", "core.ItemCommandTrigger", "core.ItemStateUpdateTrigger", "core.ItemStateUpdateTrigger",
            "core.ItemStateChangeTrigger", "core.ItemStateChangeTrigger", "core.ItemStateChangeTrigger", "core.GroupStateChangeTrigger",
            "core.GroupCommandTrigger", "core.GroupStateUpdateTrigger", "timer.GenericCronTrigger", "timer.GenericCronTrigger",
            "timer.GenericCronTrigger", "timer.GenericCronTrigger", "timer.DateTimeTrigger", "timer.DateTimeTrigger",
            "core.SystemStartlevelTrigger", "core.ThingStatusChangeTrigger"])
        let config = rule.triggers.map { $0.configuration.map { "\($0.0)=\($0.1)" }.joined(separator: " ") }
        #expect(config[1] == #"itemName="A" command="ON""#)
        #expect(config[3] == #"itemName="B" state="21 °C""#)
        #expect(config[5] == #"itemName="C" previousState="OFF" state="ON""#)
        #expect(config[6] == #"itemName="C" state="-3""#)
        #expect(config[11] == #"cronExpression="0 0 0 * * ? *""#)
        #expect(config[13] == #"cronExpression="0 45 7 * * ? *""#)
        #expect(config[15] == #"itemName="Next_CheckIn" timeOnly=true offset=-7200"#)
        #expect(config[16] == "startlevel=40")
        #expect(config[17] == #"thingUID="twin:thermostat:flat-1:heating" previousStatus="ONLINE" status="OFFLINE""#)
    }

    @Test func everyBodyConstructParsesAndNamesItsItems() throws {
        let rules = try Self.compile("""
            import java.time.Duration
            var Timer t = null
            val Number LIMIT = 21
            var count = 0

            rule "body"
            when
                Item Temp changed
            then
                val QuantityType<Temperature> now_c = Temp.state as QuantityType<Temperature>
                var Number n = (Temp.state as Number).doubleValue
                var text = "x: " + Temp.state + " " + now_c.toString
                if (Temp.state == NULL || Temp.state == UNDEF) { return; }
                else if (Temp.state > 21|°C && !(Mode.state == ON)) { Heater.sendCommand(ON) }
                else Heater.sendCommand(OFF)
                while (n < 3) { n = n + 1 }
                count += 1
                sendCommand("Heater", "OFF")
                postUpdate(Mode, OFF)
                t = createTimer(now.plusMinutes(5)) [| logInfo("x", "fired {}", count) ]
                if (t !== null && t.isActive) t.reschedule(now.plusHours(1))
                logWarn("x", if (n > 2) "many" else "few")
                val h = now.getHour
                val d = now.getDayOfWeek.getValue
            end
            """)
        let script = try #require(rules.first?.actions.first)
        guard case .script(let body) = script.kind else { Issue.record("not a script"); return }
        #expect(body.referencedItems.sorted() == ["Heater", "Mode", "Temp"])
        #expect(body.source.hasPrefix("val QuantityType<Temperature> now_c") && body.source.hasSuffix("val d = now.getDayOfWeek.getValue"))
    }

    @Test(arguments: [
        ("rule \"a\"\nwhen\n    Item A changed\nthen\n    logInfo(\"a\", \"b\")\n",
         "rules/test.rules:1:1: rule \"a\" has no \"end\" (rules.dslSyntax)."),
        ("rule \"a\"\nwhen\n    Item A updated\nthen\nend\n",
         "rules/test.rules:3:12: found updated where \"received command\", \"received update\" or \"changed\" was expected (rules.dslSyntax)."),
        ("rule \"a\"\nwhen\n    Item A changed\nthen\n    logInfo(\"a\", \"b)\nend\n",
         "rules/test.rules:5:18: this string is never closed; end it with \" (rules.dslSyntax)."),
        ("rule \"a\"\nwhen\n    Channel \"x:y:z\" triggered\nthen\nend\n",
         "rules/test.rules:3:5: \"x:y:z\" is not a channel UID: it has 3 segment(s) separated by \":\"; a channel UID has at least 4 (rules.dslSyntax)."),
        ("rule \"a\"\nwhen\n    Item A changed\nthen\n    callScript(\"ls\")\nend\n",
         "rules/test.rules:5:5: callScript(\"ls\") names the script ls.script, which the scenario's \"scriptFiles\" do not have (rules.dslUnknownScript)."),
        ("rule \"a\"\nwhen\n    Item A changed\nthen\n    A.varianceSince(now)\nend\n",
         "rules/test.rules:5:7: .varianceSince(…) is the persistence extension varianceSince, which the twin does not run yet (rules.dslUnsupported)."),
        ("rule \"a\"\nwhen\n    Item A changed\nthen\n    x = 1\nend\n",
         "rules/test.rules:5:5: x is assigned but never declared; declare it with var (rules.dslSyntax)."),
        ("rule \"a\"\nwhen\n    Item A changed\nthen\n    val x = 1\n    x = 2\nend\n",
         "rules/test.rules:6:5: x is a val (or a parameter) and cannot be assigned (rules.dslSyntax)."),
        ("rule \"a\"\nwhen\n    Time cron \"0 0 25 * * ?\"\nthen\nend\n",
         "rules/test.rules:3:5: Cron expression \"0 0 25 * * ?\": field 3 (hours) \"25\" is out of range 0–23."),
        ("rule \"a\"\nwhen\n    Item A changed\nthen\n    if (A.state == ON {\nend\n",
         "rules/test.rules:5:23: found { where \")\" was expected (rules.dslSyntax)."),
        ("rule a\nwhen\nthen\nend\n",
         "rules/test.rules:3:1: found then where a trigger: Item, Member of, Time, System started, Thing or Channel was expected (rules.dslSyntax)."),
        ("rule \"a\"\nwhen\n    Item A changed\nthen\n    val t = new DateTime()\nend\n",
         "rules/test.rules:5:13: new DateTime(…) (Joda-Time of openHAB 2) is not run by the twin (rules.dslUnsupported)."),
        ("rule \"a\"\nwhen\n    Item A changed\nthen\n    val h = now.getHourOfDay\nend\n",
         "rules/test.rules:5:17: .getHourOfDay is Joda-Time of openHAB 2, which openHAB 3+ and the twin do not have (rules.dslUnsupported)."),
        ("rule \"a\"\nwhen\n    Item A changed\nthen\n    wakeUp(\"x\")\nend\n",
         "rules/test.rules:5:5: wakeUp(…) is the openHAB action wakeUp, which the twin does not run yet (rules.dslUnsupported)."),
        ("rule \"a\"\nwhen\n    Item A changed\nthen\n    Math::maks(1, 2)\nend\n",
         "rules/test.rules:5:11: Math has no static member maks the twin runs (rules.dslUnsupported)."),
        ("rule \"a\"\nwhen\n    Item A changed\nthen\n    A.sendComand(ON)\nend\n",
         "rules/test.rules:5:7: no value the twin knows has a method or property sendComand (rules.dslUnsupported)."),
        ("rule \"a\"\nwhen\n    Item A changed\nthen\n    val x = 1\n    x++\nend\n",
         "rules/test.rules:6:6: x is a val and cannot be changed with ++/-- (rules.dslSyntax)."),
        ("rule \"a\"\nwhen\n    Item A changed\nthen\n    val x = 1" + String(repeating: "0", count: 399) + "\nend\n",
         "rules/test.rules:5:13: 1000000000000000000000000000000000000000… is not a number Java can hold (an int literal must fit a long; a decimal must be finite) (rules.dslSyntax)."),
    ])
    func badFilesGetLocatedErrors(text: String, message: String) {
        #expect(Self.error(text)?.message == message)
    }

    @Test func nestingIsBoundedSoAFileCannotExhaustTheStack() {
        let deep = "rule \"d\"\nwhen\n    Item A changed\nthen\n    logInfo(\"x\", " + String(repeating: "(", count: 50_000) + "1"
            + String(repeating: ")", count: 50_000) + ")\nend\n"
        #expect(Self.error(deep)?.message.contains("is nested more than \(DSLLimits.maxExpressionDepth) levels deep") == true)
    }

    /// Issue 26: flat left-associative chains of 60k–100k terms overflowed the stack; each link counts
    /// as one level of the one expression-depth budget.
    @Test(arguments: [
        "val x = " + Array(repeating: "1", count: 60_000).joined(separator: "+"),
        "val x = " + Array(repeating: "\"a\"", count: 100_000).joined(separator: " + "),
        "val x = " + Array(repeating: "true", count: 100_000).joined(separator: " && "),
        "if (A.state == ON) { }" + String(repeating: " else if (A.state == ON) { }", count: 100_000),
        "val x = A" + String(repeating: ".state", count: 100_000),
        "val x = 1" + String(repeating: " as Number", count: 100_000),
    ])
    func longFlatChainsAreALocatedErrorNotACrash(body: String) {
        let text = "rule \"chain\"\nwhen\n    Item A changed\nthen\n    " + body + "\nend\n"
        let error = Self.error(text)
        #expect(error?.code == .dslSyntax)
        #expect(error?.message.hasPrefix("rules/test.rules:5:") == true && error?.message.contains("levels deep") == true, "\(String(describing: error?.message.prefix(200)))")
    }

    @Test func chainsWithinTheBudgetCompile() throws {
        let chain = Array(repeating: "1", count: 200).joined(separator: " + ")
        #expect(try Self.compile("rule \"c\"\nwhen\n    Item A changed\nthen\n    logInfo(\"x\", \"\" + (\(chain)))\nend\n").count == 1)
    }

    /// Issue 26: `1e308` is a double as in Xbase; a literal Java cannot hold is a located error, never `inf`.
    @Test func numberLiteralsAsXbase() throws {
        #expect(try Self.compile("rule \"n\"\nwhen\n    Item A changed\nthen\n    val x = 1e308 + 2.5E-3 + 10L + 0x1F + 1_000 + 1.5d\nend\n").count == 1)
        if case .number(let d)? = DSLInterpreter.literal("1e308") { #expect(d == 1e308) } else { Issue.record("1e308 is not a double") }
        if case .int(let n)? = DSLInterpreter.literal("0x1F") { #expect(n == 31) } else { Issue.record("0x1F is not an int") }
        if case .int(let n)? = DSLInterpreter.literal("10L") { #expect(n == 10) } else { Issue.record("10L is not a long") }
        #expect(DSLInterpreter.literal("1e309") == nil)
        #expect(Self.error("rule \"n\"\nwhen\n    Item A changed\nthen\n    val x = 1e309\nend\n")?.code == .dslSyntax)
    }

    @Test func unsupportedConstructsHaveTheirOwnCode() {
        #expect(Self.error("rule \"a\"\nwhen\n    Item A changed\nthen\n    publish(\"broker\", \"t\", \"v\")\nend\n")?.code == .dslUnsupported)
        #expect(Self.error("rule \"a\"\nwhen\n    Item A changed\nthen\n    callScript(\"ls\")\nend\n")?.code == .dslUnknownScript)
        #expect(Self.error("rule \"a\"\nwhen\n    Item A changed\nthen\n    x = 1\nend\n")?.code == .dslSyntax)
    }

    /// Every problem of a file is reported, not only the first; the good rules still load.
    @Test func allProblemsOfAFileAreReportedAndGoodRulesStillLoad() {
        let text = """
            rule "one"
            when
                Item A changed
            then
                callScript("x")
            end

            rule "two"
            when
                Item A updated
            then
            end

            rule "three"
            when
                Item A changed
            then
                logInfo("x", "fine")
            end

            rule "four"
            when
                Item A changed
            then
                val x = 1
                x = 2
                A.medianSince(now.minusHours(1))
            end
            """
        let (rules, problems, _) = DSLCompiler.compileAll(text, file: "rules/test.rules")
        #expect(rules.map(\.name) == ["three"])
        #expect(problems.map { $0.message.prefix(21) } == ["rules/test.rules:10:1", "rules/test.rules:5:5:", "rules/test.rules:26:5", "rules/test.rules:27:7"], "\(problems.map(\.message))")
    }

    /// Issue 28: CRLF, CR-only and BOM files load the same rules as their LF twin (a `//` comment must not
    /// swallow the rest of the file).
    @Test func lineEndsAndBOMDoNotChangeWhatLoads() throws {
        let lf = """
            // Heating
            var Number count = 0 // a counter
            rule "first" // trailing comment
            when
            \tItem A changed
            then
            \tcount = count + 1 // count
            \tlogInfo("x", "n={}", count)
            end
            rule "second"
            when
                Item A received command
            then
                /* a block
                   comment */ logInfo("x", "cmd")
            end
            """
        let reference = try Self.compile(lf)
        #expect(reference.map(\.name) == ["first", "second"])
        for variant in [lf.replacingOccurrences(of: "\n", with: "\r\n"), lf.replacingOccurrences(of: "\n", with: "\r"), "\u{FEFF}" + lf,
                        "\u{FEFF}" + lf.replacingOccurrences(of: "\n", with: "\r\n")] {
            let rules = try Self.compile(variant)
            #expect(rules.map(\.name) == reference.map(\.name))
            #expect(rules.map(\.source) == reference.map(\.source))
            #expect(rules.map { $0.triggers.map(\.moduleType) } == reference.map { $0.triggers.map(\.moduleType) })
        }
    }

    /// Issue 28: the Xbase grammar rules are written in (each form parses and its names resolve).
    @Test func xbaseConstructsParse() throws {
        let rules = try Self.compile("""
            import java.util.Map
            import org.openhab.core.model.script.ScriptServiceUtil
            val Map<String, List<Integer>> table = newHashMap
            val Functions$Function2<Number, Number, Number> add = [ a, b | a + b ]
            val Procedures$Procedure1<String> say = [ String s | logInfo("x", s) ]
            var int counter = 0
            rule Unquoted_Name
            when
                Item A changed or Thing "twin:lock:flat-1:door" received update ONLINE or System reached start level 100
            then
                val list = newArrayList(1, 2, 3)
                list.forEach[ n | counter += n ]
                list.forEach[ logInfo("x", "" + it) ]
                val evens = list.filter[ it % 2 == 0 ].map[ it * 10 ]
                val total = list.reduce[ s, n | s + n ]
                val folded = list.fold(0) [ s, n | s + n ]
                val first = list.findFirst[ n | n > 1 ]
                for (i : 0 ..< 3) { counter++ }
                for (var i = 0; i < 3; i++) { counter-- }
                do { counter = counter + 1 } while (counter < 5)
                switch A.state {
                    case ON: logInfo("x", "on")
                    case OFF, case NULL: logInfo("x", "off or null")
                    DecimalType case A.state > 5: logInfo("x", "big")
                    default: logInfo("x", "other")
                }
                val s = switch (counter) { case 1: "one" case 2: "two" default: "many" }
                try {
                    val n = Integer::parseInt("12x")
                } catch (NumberFormatException e) {
                    logWarn("x", e.message)
                } finally {
                    logInfo("x", "done")
                }
                if (A.state instanceof OnOffType) say.apply("switch")
                val t = createTimer(now.plusSeconds(5)) [ | logInfo("x", "t") ]
                if (t?.running == false && t.isActive) t?.cancel
                val x = null ?: 5
                val m = #{ "a" -> 1, "b" -> 2 }
                val l = #[ 1, 2 ]
                val st = #{ 1, 2 }
                counter *= 2
                counter /= 2
                counter %= 7
                val y = 2 ** 3
                val same = l === l || l !== l
                val q = new QuantityType("21 °C")
                val d = new DecimalType(5)
                val on = OnOffType::ON
                val max = Math::max(1, 2) + Math.min(3, 4)
                val txt = String::format("%s %d %.1f", "a", 1, 2.5)
                val z = ZonedDateTime::now().plusMinutes(5).hour
                val dt = (A.state as DateTimeType).zonedDateTime
                val dur = Duration::ofMinutes(5).toMillis
                Thread::sleep(100)
                logInfo("x", add.apply(1, 2) + " " + table + evens + total + folded + first + s + x + m + st + y + same + q + d + on + max + txt + z + dt + dur)
            end
            """)
        #expect(rules.map(\.name) == ["Unquoted_Name"])
        #expect(rules.first?.triggers.map(\.moduleType) == ["core.ItemStateChangeTrigger", "core.ThingStatusUpdateTrigger", "core.SystemStartlevelTrigger"])
        let script = try #require(rules.first?.actions.first)
        guard case .script(let body) = script.kind else { Issue.record("not a script"); return }
        #expect(body.referencedItems == ["A"])
    }
}
