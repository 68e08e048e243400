import Foundation
import JavaScript
import ScenarioFormat
import Scenarios
import Testing

extension JavaScriptSuite {
    /// UI rules' JavaScript script modules (what Main UI's script editor and Blockly save), and the openhab-js
    /// members that reach the twin's actions, Things and rule builder, as users run them: scenario runs on the
    /// virtual clock.
    @Suite struct JavaScriptUIRuleTests {
        static let items = JavaScriptRuleTests.items

        /// A JSON string literal.
        static func quoted(_ text: String) -> String {
            String(decoding: (try? JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed])) ?? Data("\"\"".utf8), as: UTF8.self)
        }

        /// One UI rule: a trigger (JSON), an optional JavaScript condition, a JavaScript action.
        static func rule(_ uid: String, trigger: String, condition: String? = nil, action: String, type: String = "application/javascript") -> String {
            let conditions = condition.map { "[{ \"id\": \"2\", \"type\": \"script.ScriptCondition\", \"configuration\": { \"type\": \"\(type)\", \"script\": \(quoted($0)) } }]" } ?? "[]"
            return """
            { "uid": "\(uid)", "name": "\(uid)", "triggers": [\(trigger)], "conditions": \(conditions),
              "actions": [{ "id": "3", "type": "script.ScriptAction", "configuration": { "type": "\(type)", "script": \(quoted(action)) } }] }
            """
        }

        @Test func aScriptActionAndAScriptConditionRunOnTheVirtualClock() async throws {
            let s = JSScenario()
            s.items = Self.items
            let action = """
            if (event.newState !== 'ON') {
              return;
            }
            items.Counter.postUpdate(items.Counter.numericState + 1);
            items.Mode.postUpdate(`${ctx.ruleUID} ${ruleUID} ${event.itemName} ${event.oldState}->${event.newState} ${time.ZonedDateTime.now().toLocalTime()}`);
            setTimeout(() => items.Lamp.sendCommand('OFF'), 30 * 60 * 1000);
            """
            s.files["rules/ui.json"] = "[" + Self.rule("lamp-rule", trigger: "{ \"id\": \"1\", \"type\": \"core.ItemStateChangeTrigger\", \"configuration\": { \"itemName\": \"Lamp\" } }",
                                                       condition: "event.newState == 'ON' && items.Counter.numericState < 2", action: action) + "]"
            s.otherRules = ["rules/ui.json"]
            s.timeline = """
            { "at": "2026-01-09T10:00", "update": { "item": "Lamp", "state": "ON" } },
            { "at": "2026-01-09T11:00", "update": { "item": "Lamp", "state": "ON" } },
            { "at": "2026-01-09T12:00", "update": { "item": "Lamp", "state": "ON" } }
            """
            s.expect = """
            { "at": "2026-01-09T09:59", "item": "Counter", "state": "0" },
            { "at": "2026-01-09T10:01", "item": "Mode", "state": "lamp-rule lamp-rule Lamp OFF->ON 10:00" },
            { "at": "2026-01-09T10:29", "item": "Lamp", "state": "ON" },
            { "at": "2026-01-09T10:31", "item": "Lamp", "state": "OFF" },
            { "at": "2026-01-09T11:01", "item": "Counter", "state": "2" },
            { "at": "2026-01-09T12:45", "item": "Lamp", "state": "ON" },
            { "item": "Counter", "state": "2" },
            { "rule": "lamp-rule", "runs": 2 }
            """
            let result = try await s.run()
            #expect(result.passed, "\(result.failures)")
            // The third ON finds the counter at 2: the condition's value decides, the action does not run.
            #expect(result.log.contains { $0.hasPrefix("2026-01-09T12:00") && $0.contains("rule \"lamp-rule\"") && $0.contains("condition 2 not met") }, "\(result.log)")
        }

        @Test func aConditionThatGivesNoBooleanFailsAsOpenHABLogsItAndTheWrapperDirectiveTakesReturn() async throws {
            let s = JSScenario()
            s.items = Self.items
            let trigger = "{ \"id\": \"1\", \"type\": \"timer.TimeOfDayTrigger\", \"configuration\": { \"time\": \"09:00\" } }"
            s.files["rules/ui.json"] = "[" + [
                Self.rule("not-a-boolean", trigger: trigger, condition: "'yes'", action: "items.Counter.postUpdate(1);"),
                Self.rule("wrapped", trigger: trigger, condition: "'use wrapper';\nreturn items.Lamp.state === 'OFF';", action: "items.Mode.postUpdate('wrapped ran');"),
                Self.rule("wrapped-false", trigger: trigger, condition: "'use wrapper';\nreturn 1 > 2;", action: "items.Mode.postUpdate('must not run');"),
            ].joined(separator: ",") + "]"
            s.otherRules = ["rules/ui.json"]
            s.expect = """
            { "item": "Counter", "state": "0" }, { "item": "Mode", "state": "wrapped ran" },
            { "rule": "not-a-boolean", "runs": 0 }, { "rule": "wrapped", "runs": 1 }, { "rule": "wrapped-false", "runs": 0 }
            """
            let result = try await s.run()
            #expect(result.passed, "\(result.failures)")
            #expect(result.log.contains { $0.contains("rule \"not-a-boolean\"") && $0.contains("did not return a boolean value, but 'yes'") }, "\(result.log)")
        }

        @Test func runRuleSkipsConditionsWhenToldAndPassesArgumentsAsTheContext() async throws {
            let s = JSScenario()
            s.items = Self.items
            let at = { (time: String) in "{ \"id\": \"1\", \"type\": \"timer.TimeOfDayTrigger\", \"configuration\": { \"time\": \"\(time)\" } }" }
            s.files["rules/ui.json"] = "[" + [
                Self.rule("target", trigger: "", condition: "false", action: "items.Counter.postUpdate(items.Counter.numericState + 1);"),
                Self.rule("caller", trigger: at("09:00"), action: "rules.runRule('target');\nrules.runRule('target', {}, false);"),
                // What Blockly's "run rule with context" and "get context attribute" blocks generate.
                Self.rule("with-args", trigger: at("10:00"), action: "rules.runRule('reader', {'name1': 'Stefan', 'n': 2});"),
                Self.rule("reader", trigger: "", action: "items.Mode.postUpdate([ctx['name1'], name1, ctx.n + 1, ctx.ruleUID, event.raw.name1].join(' '));"),
            ].joined(separator: ",") + "]"
            s.otherRules = ["rules/ui.json"]
            s.expect = """
            { "item": "Counter", "state": "1" }, { "rule": "target", "runs": 1 },
            { "item": "Mode", "state": "Stefan Stefan 3 reader Stefan" }, { "rule": "reader", "runs": 1 }
            """
            let result = try await s.run()
            #expect(result.passed, "\(result.failures)")
        }

        @Test func hostileUIScriptsAreLocatedErrorsAndTheRunGoesOn() async throws {
            // A syntax error: located at validation in the rule file, with the script's line and column.
            let broken = JSScenario()
            broken.items = Self.items
            broken.files["rules/ui.json"] = "[\n" + Self.rule("broken", trigger: "", action: "const a = 1;\nif (a > ) {}") + "\n]"
            broken.otherRules = ["rules/ui.json"]
            let problems = broken.problems()
            #expect(problems.contains { $0.contains("rules/ui.json:3") && $0.contains("rules.jsSyntax") && $0.contains("script line 2") }, "\(problems)")

            // At run time: an escape attempt finds nothing of Node's realm, unsupported members and a rule that runs
            // itself are located errors of their runs, and the next rule still runs.
            let s = JSScenario()
            s.items = Self.items
            let escape = """
            const found = [];
            try { found.push(typeof this.constructor.constructor('return process')()); } catch (e) { found.push(e.name); }
            try { require('fs'); found.push('fs'); } catch (e) { found.push(e.code || e.message); }
            try { found.push(typeof require('@runtime').process); } catch (e) { found.push(e.name); }
            items.Mode.postUpdate(found.join(','));
            """
            let at = { (time: String) in "{ \"id\": \"1\", \"type\": \"timer.TimeOfDayTrigger\", \"configuration\": { \"time\": \"\(time)\" } }" }
            s.files["rules/ui.json"] = "[" + [
                Self.rule("escape", trigger: at("09:00"), action: escape),
                Self.rule("registers", trigger: at("09:10"), action: "\nrules.JSRule({ name: 'x', execute: () => {} });"),
                Self.rule("recursive", trigger: at("09:20"), action: "items.Counter.postUpdate(items.Counter.numericState + 1);\nrules.runRule('recursive');"),
                Self.rule("after", trigger: at("10:00"), action: "items.Lamp.sendCommand('ON');"),
            ].joined(separator: ",") + "]"
            s.otherRules = ["rules/ui.json"]
            s.expect = "{ \"item\": \"Mode\", \"state\": \"ReferenceError,rules.jsRequire,rules.jsUnsupported\" }, { \"item\": \"Lamp\", \"state\": \"ON\" }"
            let result = try await s.run()
            #expect(result.passed, "\(result.failures)")
            #expect(result.log.contains { $0.contains("rule \"registers\"") && $0.contains("rules.jsUnsupported") && $0.contains("rules.JSRule in a UI rule's script")
                && $0.contains("rules/ui.json#registers.3:2") }, "\(result.log)")
            #expect(result.log.contains { $0.contains("rules.runRule nested deeper than 16 rules") }, "\(result.log)")
        }

        @Test func theRuleBuilderMakesRulesAndRefusesWhatOpenhabJsCannotDo() async throws {
            let s = JSScenario()
            s.items = Self.items.replacingOccurrences(of: "[ {", with: "[ { \"name\": \"Note\", \"type\": \"String\", \"state\": \"-\" }, {")
            s.files["automation/js/built.js"] = """
            rules.when().item('Lamp').changed().toOn().then().send('lamp on').toItem('Mode').build('Lamp on');
            rules.when().cron('0 0 8 * * ?').or().timeOfDay('20:00')
              .if(() => items.Lamp.state === 'ON').then().postUpdate('7').toItem('Counter').build('Twice a day', 'two triggers', ['T'], 'twice');
            rules.when().item('Mode').receivedCommand().then((e) => items.Note.postUpdate(`${e.it ?? 'none'} ${e.receivedCommand}`)).build();
            """
            s.timeline = "{ \"at\": \"2026-01-09T12:00\", \"update\": { \"item\": \"Lamp\", \"state\": \"ON\" } }"
            s.expect = """
            { "at": "2026-01-09T08:01", "item": "Counter", "state": "0" },
            { "at": "2026-01-09T12:01", "item": "Mode", "state": "lamp on" },
            { "at": "2026-01-09T20:01", "item": "Counter", "state": "7" },
            { "rule": "twice", "runs": 2 }, { "rule": "Lamp on", "runs": 1 }
            """
            let result = try await s.run()
            #expect(result.passed, "\(result.failures)")
            // The generated name (openhab-js: the compact description, made safe) and the received command as `it`.
            #expect(result.log.contains { $0.contains("rule \"Mode___custom_function\"") && $0.contains("Note := lamp on lamp on") }, "\(result.log)")

            let refused = JSScenario()
            refused.items = Self.items
            refused.files["automation/js/for.js"] = "\nrules.when().item('Lamp').changed().to('ON').for(60000).then().sendOff().toItem('Lamp').build('x');\n"
            let problems = refused.problems()
            #expect(problems.contains { $0.contains("automation/js/for.js:2") && $0.contains("rules.jsUnsupported") && $0.contains(".for(duration)") }, "\(problems)")
        }

        @Test func uiJavaScriptAndAConfDirectorysScriptsShareTheWorldsChild() async throws {
            // A user's whole configuration: the conf directory's automation/js scripts and UI rules with JavaScript run
            // in the world's one child, with the conf directory as root. The UI action requires the conf's own module
            // (automation/js/node_modules, as the add-on resolves it) and reads what a file's rule put in cache.shared;
            // a conf script openHAB fails to load too is skipped with a warning, and the rest runs.
            let s = JSScenario()
            s.items = Self.items
            s.members = "\"openhabConf\": \"conf\","
            s.files["conf/automation/js/a.js"] = """
            rules.JSRule({ name: 'a', triggers: [triggers.TimeOfDayTrigger('09:00')],
              execute: () => { cache.shared.put('who', 'file'); items.Counter.postUpdate(1); } });
            """
            s.files["conf/automation/js/broken.js"] = "rules.JSRule({ name: 'b',\n"
            s.files["conf/automation/js/node_modules/helper/index.js"] = "module.exports = { label: (x) => `helped ${x}` };\n"
            s.files["rules/ui.json"] = "[" + Self.rule("ui", trigger: "{ \"id\": \"1\", \"type\": \"timer.TimeOfDayTrigger\", \"configuration\": { \"time\": \"10:00\" } }",
                                                       action: "items.Mode.postUpdate(require('helper').label(cache.shared.get('who')));") + "]"
            s.otherRules = ["rules/ui.json"]
            s.expect = """
            { "at": "2026-01-09T08:59", "item": "Counter", "state": "0" },
            { "at": "2026-01-09T09:01", "item": "Counter", "state": "1" },
            { "at": "2026-01-09T10:01", "item": "Mode", "state": "helped file" },
            { "rule": "a", "runs": 1 }, { "rule": "ui", "runs": 1 }
            """
            let scenario = try s.load()
            #expect(scenario.warnings.contains { $0.contains("conf/automation/js/broken.js:") && $0.contains("skipped") }, "\(scenario.warnings)")
            let result = try await s.run()
            #expect(result.passed, "\(result.failures)")

            // A .js entry of `rules` beside such a conf directory is one root too many: located, with where it belongs.
            let refused = JSScenario()
            refused.items = Self.items
            refused.members = s.members
            refused.files["conf/automation/js/a.js"] = s.files["conf/automation/js/a.js"]
            refused.files["automation/js/extra.js"] = "rules.JSRule({ name: 'x', triggers: [triggers.TimeOfDayTrigger('09:00')], execute: () => {} });\n"
            let problems = refused.problems()
            #expect(problems.contains { $0.contains("rules[0]") && $0.contains("extra.js") && $0.contains("one set of JavaScript files") }, "\(problems)")
        }

        @Test func blocklysDateBlocksReadFieldsAndSubMillisecondUnits() async throws {
            // What Blockly's "get milli of date" and "nanos between" blocks generate.
            let s = JSScenario()
            s.items = Self.items
            let action = """
            var d = time.toZDT('2005-12-04 12:04:05.123');
            items.Mode.postUpdate([d.getLong(time.ChronoField.MILLI_OF_SECOND), d.get(time.ChronoField.DAY_OF_YEAR),
              time.ChronoUnit.NANOS.between(time.toZDT('2022-04-03'), time.toZDT('2022-04-04')),
              time.ChronoUnit.MICROS.between(d, d.plus(5, time.ChronoUnit.MILLIS))].join(' '));
            """
            s.files["rules/ui.json"] = "[" + Self.rule("dates", trigger: "{ \"id\": \"1\", \"type\": \"timer.TimeOfDayTrigger\", \"configuration\": { \"time\": \"09:00\" } }", action: action) + "]"
            s.otherRules = ["rules/ui.json"]
            s.expect = "{ \"item\": \"Mode\", \"state\": \"123 338 86400000000000 5000\" }"
            let result = try await s.run()
            #expect(result.passed, "\(result.failures)")
        }

        @Test func thingsReadThroughARequiredModuleFollowTheWorld() async throws {
            // The script names no Thing itself; its module does, so the child reports it and the twin keeps the
            // Things live: the status at 11:00 is the one the timeline set at 10:00, not the one at the start.
            let s = JSScenario()
            s.items = Self.items
            s.files["automation/js/lib/watch.js"] = "module.exports = () => things.getThing('twin:thermostat:flat-1:heating').statusInfo;\n"
            s.files["automation/js/uses-lib.js"] = """
            const status = require('./lib/watch');
            rules.JSRule({ name: 'Status', triggers: [triggers.TimeOfDayTrigger('09:00'), triggers.TimeOfDayTrigger('11:00')],
              execute: () => items.Mode.postUpdate(status()) });
            """
            s.timeline = "{ \"at\": \"2026-01-09T10:00\", \"thing\": { \"thing\": \"flat-1/heating\", \"status\": \"OFFLINE\" } }"
            s.expect = """
            { "at": "2026-01-09T09:01", "item": "Mode", "state": "ONLINE" },
            { "at": "2026-01-09T11:01", "item": "Mode", "state": "OFFLINE (COMMUNICATION_ERROR): Device does not respond (fault injected)" }
            """
            let result = try await s.run()
            #expect(result.passed, "\(result.failures)")
        }

        @Test func theChildSeesThingsInTheRegistrysOrder() async throws {
            // The Things go to the child as one ordered JSON object: getThings() lists them in the registry's (UID)
            // order, not the listing's nor a dictionary's, on every run.
            let s = JSScenario()
            s.items = Self.items
            s.files["automation/js/list.js"] = """
            rules.JSRule({ name: 'List', triggers: [triggers.TimeOfDayTrigger('09:00')],
              execute: () => items.Mode.postUpdate(things.getThings().map((t) => t.uid).join(',')) });
            """
            s.devices = #"[ { "id": "heating", "type": "heating", "powerW": 2000, "setpointC": 21 }, { "id": "door", "type": "lock" }, { "id": "back", "type": "lock" } ]"#
            s.expect = "{ \"at\": \"2026-01-09T09:01\", \"item\": \"Mode\", \"state\": \"twin:lock:flat-1:back,twin:lock:flat-1:door,twin:thermostat:flat-1:heating\" }"
            let result = try await s.run()
            #expect(result.passed, "\(result.failures)")
        }

        @Test func actionsReachTheTwinsTransformationsResponsesCalendarAndRules() async throws {
            let s = JSScenario()
            s.items = Self.items
            s.members = """
            "responses": [ { "url": "https://api.example.com/price", "body": "0.31" }, { "command": "uptime", "output": "up 3 days" },
                           { "scope": "ntfy", "method": "send*", "result": 42 } ],
            "ephemeris": { "bankHolidays": { "2026-01-09": "Test Day" } },
            """
            s.files["automation/js/lib/helper.js"] = "var helperValue = 'loaded ' + (typeof items);\n"
            s.files["automation/js/acts.js"] = """
            rules.JSRule({ name: 'Acts', triggers: [triggers.TimeOfDayTrigger('09:00')], execute: () => {
              load('/etc/openhab/automation/js/lib/helper.js');
              const parts = [
                actions.Transformation.transform('REGEX', 's/(\\\\d+)C/$1 °C/g', '21C'),
                actions.Transformation.transform('JSONPATH', '$.t', '{"t": 23.5}'),
                actions.Transformation.transform('REGEX', '(', 'kept'),
                actions.HTTP.sendHttpGetRequest('https://api.example.com/price'),
                actions.HTTP.sendHttpGetRequest('https://api.example.com/none'),
                actions.Exec.executeCommandLine(time.Duration.ofSeconds(5), 'uptime'),
                actions.Ephemeris.isBankHoliday(), actions.Ephemeris.getBankHolidayName(1), actions.Ephemeris.isWeekend(1),
                rules.isEnabled('Acts'),
                actions.thingActions('ntfy', 'ntfy:topic:host').sendMessage('hi', 2),
                helperValue,
              ];
              items.Mode.postUpdate(parts.join('|'));
            } });
            """
            s.expect = """
            { "item": "Mode", "state": "21 °C|23.5|kept|0.31||up 3 days|true||true|true|42|loaded object" },
            { "http": { "text": "GET https://api.example.com/none" }, "count": 1 },
            { "exec": { "text": "uptime" }, "count": 1 },
            { "action": { "scope": "ntfy", "method": "sendMessage", "arguments": ["hi", "2"] }, "count": 1 }
            """
            let result = try await s.run()
            #expect(result.passed, "\(result.failures)")
            #expect(result.log.contains { $0.contains("https://api.example.com/none has no scripted response") && $0.contains("rules.unscripted") }, "\(result.log)")

            // A transformation the twin does not run is refused by name, never passed through.
            let refused = JSScenario()
            refused.items = Self.items
            refused.files["automation/js/x.js"] = "rules.JSRule({ name: 'X', triggers: [triggers.TimeOfDayTrigger('09:00')], execute: () => {\n  actions.Transformation.transform('XSLT', 'a.xsl', '<a/>');\n} });\n"
            let log = try await refused.run().log
            #expect(log.contains { $0.contains("rules.jsUnsupported") && $0.contains("XSLT") && $0.contains("automation/js/x.js:2") }, "\(log)")
        }

        @Test func httpActionsToTheTwinsOwnURLsAreAnsweredByTheTwin() async throws {
            // As the Rules DSL's: the twin's OpenWeatherMap and its openHAB REST API answer in the middle of the run (a
            // POST to an Item is its command); a status outside 2xx is noted; any other URL still needs "responses".
            let s = JSScenario()
            s.items = Self.items
            s.files["automation/js/web.js"] = """
            rules.JSRule({ name: 'Web', triggers: [triggers.TimeOfDayTrigger('09:00')], execute: () => {
              const w = JSON.parse(actions.HTTP.sendHttpGetRequest('https://api.openweathermap.org/data/2.5/weather?q=Budapest&units=metric&appid=MY-KEY'));
              actions.HTTP.sendHttpPostRequest('http://openhabian:8080/rest/items/Counter', 'text/plain', '5');
              const lamp = actions.HTTP.sendHttpGetRequest('http://localhost:8080/rest/items/Lamp/state');
              const counter = actions.HTTP.sendHttpGetRequest('http://localhost:8080/rest/items/Counter/state');
              const nope = actions.HTTP.sendHttpGetRequest('http://127.0.0.1:8080/rest/items/Nope/state');
              const other = actions.HTTP.sendHttpGetRequest('https://example.org/forecast');
              items.Mode.postUpdate(`${w.name} ${w.main.temp} ${lamp} ${counter} ${nope.includes('Nope')} ${other}`);
            } });
            """
            s.expect = """
            { "at": "2026-01-09T09:01", "item": "Mode", "state": "Budapest -2 OFF 5 true null" },
            { "item": "Counter", "state": "5" },
            { "http": { "text": "POST http://openhabian:8080/rest/items/Counter 5" }, "count": 1 }
            """
            let result = try await s.run()
            #expect(result.passed, "\(result.failures)")
            #expect(result.log.contains { $0.contains("GET http://127.0.0.1:8080/rest/items/Nope/state answered 404 by the twin") }, "\(result.log)")
            #expect(result.log.contains { $0.contains("https://example.org/forecast has no scripted response") }, "\(result.log)")
            #expect(!result.log.contains { $0.contains("appid=MY-KEY has no scripted response") }, "\(result.log)")
        }
    }
}
