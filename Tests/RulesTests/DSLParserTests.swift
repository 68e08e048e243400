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
         "rules/test.rules:1:1: rule \"a\" has no \"end\"."),
        ("rule \"a\"\nwhen\n    Item A updated\nthen\nend\n",
         "rules/test.rules:3:12: found updated where \"received command\", \"received update\" or \"changed\" was expected."),
        ("rule \"a\"\nwhen\n    Item A changed\nthen\n    logInfo(\"a\", \"b)\nend\n",
         "rules/test.rules:5:18: this string is never closed; end it with \"."),
        ("rule \"a\"\nwhen\n    Channel \"x:y:z\" triggered\nthen\nend\n",
         "rules/test.rules:3:5: Channel triggers are not run by the twin (its devices have no trigger channels)."),
        ("rule \"a\"\nwhen\n    Item A changed\nthen\n    switch A.state { case ON: x }\nend\n",
         "rules/test.rules:5:5: switch statements (use if / else if) are not in the DSL subset the twin runs."),
        ("rule \"a\"\nwhen\n    Item A changed\nthen\n    Thread::sleep(100)\nend\n",
         "rules/test.rules:5:5: Thread::… (a Java class) is not in the DSL subset the twin runs."),
        ("rule \"a\"\nwhen\n    Item A changed\nthen\n    executeCommandLine(\"ls\")\nend\n",
         "rules/test.rules:5:23: executeCommandLine(…) is not in the DSL subset the twin runs."),
        ("rule \"a\"\nwhen\n    Item A changed\nthen\n    x = 1\nend\n",
         "rules/test.rules:5:5: x is assigned but never declared; declare it with var."),
        ("rule \"a\"\nwhen\n    Time cron \"0 0 25 * * ?\"\nthen\nend\n",
         "rules/test.rules:3:5: Cron expression \"0 0 25 * * ?\": field 3 (hours) \"25\" is out of range 0–23."),
        ("rule \"a\"\nwhen\n    Item A changed\nthen\n    if (A.state == ON {\nend\n",
         "rules/test.rules:5:23: found { where \")\" was expected."),
        ("rule a\nwhen\nthen\nend\n",
         "rules/test.rules:1:6: found a where the rule's name in quotes was expected."),
    ])
    func badFilesGetLocatedErrors(text: String, message: String) {
        #expect(Self.error(text)?.message == message)
    }

    @Test func nestingIsBoundedSoAFileCannotExhaustTheStack() {
        let deep = "rule \"d\"\nwhen\n    Item A changed\nthen\n    logInfo(\"x\", " + String(repeating: "(", count: 50_000) + "1"
            + String(repeating: ")", count: 50_000) + ")\nend\n"
        #expect(Self.error(deep)?.message.hasSuffix("is nested more than 200 levels deep.") == true)
    }

    @Test func unsupportedConstructsHaveTheirOwnCode() {
        #expect(Self.error("rule \"a\"\nwhen\n    Item A changed\nthen\n    executeCommandLine(\"ls\")\nend\n")?.code == .dslUnsupported)
        #expect(Self.error("rule \"a\"\nwhen\n    Item A changed\nthen\n    x = 1\nend\n")?.code == .dslSyntax)
    }
}
