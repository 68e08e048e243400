@testable import ScenarioFormat
@testable import Scenarios
import Testing
import Twin

/// openHAB's actions run into the outbox, scripted responses, and outbox expectations (negative controls
/// included: an expectation fails when the rule does not send).
@Suite("Rules DSL actions and the outbox")
struct DSLActionTests {
    /// A rule running `body` when Go turns ON at 10:00 (and, with `twice`, again at 12:00).
    static func scenario(_ body: String, expect: String = "", responses: String = "[]", twice: Bool = false) -> RuleScenario {
        var s = RuleScenario()
        s.items = #"[{ "name": "Go", "type": "Switch", "state": "OFF" }, { "name": "Out", "type": "String", "state": "-" }]"#
        s.files["a.rules"] = "rule \"act\"\nwhen\n    Item Go changed to ON\nthen\n" + body + "\nend\n"
        var steps = [#"{ "at": "2026-01-09T10:00", "update": { "item": "Go", "state": "ON" } }"#]
        if twice {
            steps += [#"{ "at": "2026-01-09T11:00", "update": { "item": "Go", "state": "OFF" } }"#,
                      #"{ "at": "2026-01-09T12:00", "update": { "item": "Go", "state": "ON" } }"#]
        }
        s.timeline = steps.joined(separator: ", ")
        s.expect = expect
        s.extra = #""responses": \#(responses)"#
        return s
    }

    @Test func everyActionLandsInTheOutboxWithItsRecipientAndText() async throws {
        let s = Self.scenario("""
            sendNotification("host@example.com", "Door open", "door", "HIGH")
            sendBroadcastNotification("All out")
            sendLogNotification("Logged")
            getActions("mail", "mail:smtp:home").sendHtmlMail("a@b.c", "Report", "<b>ok</b>")
            val bot = getActions("telegram", "telegram:telegramBot:bot")
            bot.sendTelegram(123456789L, "to a chat")
            bot.sendTelegram("%d guests, %s", 2, "arrived")
            val pushover = getActions("pushover", "pushover:pushover-account:me")
            val receipt = pushover.sendPriorityMessage("Leak!", "Bath", 2)
            pushover.cancelPriorityMessage(receipt)
            say("Hello")
            playSound("doorbell.mp3")
            playSound("sonos:PLAY1:hall", "bell.mp3")
            executeCommandLine("/bin/touch", "/tmp/x")
            sendHttpPostRequest("https://hook.example.com/x", "application/json", "{\\"a\\":1}", 2000)
            sendHttpDeleteRequest("https://hook.example.com/x/1")
            """, responses: #"[{"url": "https://hook.example.com/*", "body": "ok"}, {"command": "/bin/touch *", "output": ""}]"#)
        let (result, rules) = try await s.run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        let sent = rules.joined(separator: "\n")
        for line in ["→ notification sendNotification to host@example.com: Door open", "→ notification sendBroadcastNotification to broadcast: All out",
                     "→ notification sendLogNotification to log: Logged", "→ mail sendHtmlMail to a@b.c: Report — <b>ok</b>",
                     "→ telegram sendTelegram to 123456789: to a chat", "→ telegram sendTelegram to telegram:telegramBot:bot: 2 guests, arrived",
                     "→ pushover sendPriorityMessage to pushover:pushover-account:me: Bath — Leak!",
                     "→ pushover cancelPriorityMessage to pushover:pushover-account:me: cancel receipt-", "→ say say to default: Hello",
                     "→ sound playSound to default: doorbell.mp3", "→ sound playSound to sonos:PLAY1:hall: bell.mp3",
                     "→ exec executeCommandLine to /bin/touch: /bin/touch /tmp/x",
                     "→ http sendHttpPostRequest to https://hook.example.com/x: POST https://hook.example.com/x {\"a\":1}",
                     "→ http sendHttpDeleteRequest to https://hook.example.com/x/1: DELETE https://hook.example.com/x/1"] {
            #expect(sent.contains(line), "\(line) in \(sent)")
        }
        #expect(!sent.contains("error"), "\(sent)")
    }

    @Test func anOutboxExpectationFailsWhenTheRuleDoesNotSend() async throws {
        let expect = #"{ "notification": { "contains": "door left open", "recipient": "host@example.com" }, "count": 1 }"#
        let sends = #"sendNotification("host@example.com", "The door left open since " + now.hour)"#
        let (sent, _) = try await Self.scenario(sends, expect: expect).run()
        #expect(sent.failures.isEmpty, "\(sent.failures)")
        // Negative controls: the rule sends nothing; it sends to someone else; it sends twice.
        let (silent, _) = try await Self.scenario(#"logInfo("test", "door left open")"#, expect: expect).run()
        #expect(silent.failures.count == 1)
        #expect(silent.failures.first.map { "\($0)".contains("0 matching; 0 notification(s) sent") } == true, "\(silent.failures)")
        let (other, _) = try await Self.scenario(#"sendNotification("guest@example.com", "door left open")"#, expect: expect).run()
        #expect(other.failures.count == 1)
        #expect(other.failures.first.map { "\($0)".contains("to guest@example.com: \"door left open\"") } == true, "\(other.failures)")
        let (twice, _) = try await Self.scenario(sends, expect: expect, twice: true).run()
        #expect(twice.failures.count == 1, "\(twice.failures)")
        // A window: only the 12:00 one is from 11:00 on; another kind (mail) is not counted.
        let windowed = #"{ "notification": { "contains": "left open" }, "from": "2026-01-09T11:00", "count": 1 }, { "mail": {}, "count": 0 }"#
        let (window, _) = try await Self.scenario(sends, expect: windowed, twice: true).run()
        #expect(window.failures.isEmpty, "\(window.failures)")
    }

    @Test func unscriptedCommandsAndURLsAreAnsweredAsFailuresAndLogged() async throws {
        let (result, rules) = try await Self.scenario("""
            val a = executeCommandLine(Duration.ofSeconds(2), "/usr/bin/uptime")
            val b = sendHttpGetRequest("https://api.example.com/status")
            val c = sendHttpGetRequest("https://api.example.com/price?zone=HU")
            val d = sendHttpPostRequest("https://api.example.com/price", "text/plain", "x")
            Out.postUpdate("" + a + "|" + b + "|" + c + "|" + d)
            """, expect: #"{ "at": "2026-01-09T10:01", "item": "Out", "state": "null|null|0.3|null" }, { "http": { "contains": "api.example.com" }, "count": 3 }"#,
            responses: #"[{"url": "https://api.example.com/price*", "method": "GET", "body": "0.3"}]"#).run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        let log = rules.joined(separator: "\n")
        #expect(log.contains("a.rules:5:9: executeCommandLine \"/usr/bin/uptime\" has no scripted response; it was answered as a failure (null) (rules.unscripted)"), "\(log)")
        #expect(log.contains("GET https://api.example.com/status has no scripted response"), "\(log)")
        #expect(log.contains("POST https://api.example.com/price has no scripted response"), "\(log)")
        // Scripted, the command's output comes back.
        let (scripted, _) = try await Self.scenario(#"Out.postUpdate(executeCommandLine(Duration.ofSeconds(2), "/usr/bin/uptime").trim)"#,
                                                    expect: #"{ "at": "2026-01-09T10:01", "item": "Out", "state": "up 3 days" }"#,
                                                    responses: #"[{"command": "/usr/bin/uptime", "output": "up 3 days\n"}]"#).run()
        #expect(scripted.failures.isEmpty, "\(scripted.failures)")
    }

    /// A compound assignment whose value may pause (an HTTP action) reads its target, applies the operator and stores,
    /// in that order, each time it runs (the suspending walk runs the target's compiled read).
    @Test func compoundAssignmentsWhoseValueMayPause() async throws {
        let (result, rules) = try await Self.scenario("""
            var s = "price "
            var n = 10
            var i = 0
            while (i < 2) {
                s += sendHttpGetRequest("https://api.example.com/price")
                n -= Integer::parseInt(sendHttpGetRequest("https://api.example.com/price"))
                i++
            }
            Out.postUpdate(s + "|" + n)
            """, expect: #"{ "at": "2026-01-09T10:01", "item": "Out", "state": "price 33|4" }"#,
            responses: #"[{"url": "https://api.example.com/price", "method": "GET", "body": "3"}]"#).run()
        #expect(result.failures.isEmpty, "\(result.failures) \(rules)")
    }

    @Test func badResponsesAndOutboxExpectationsAreLocatedErrors() {
        var s = Self.scenario(#"say("x")"#, expect: #"{ "say": { "text": "x" }, "count": 1, "atLeast": 1 }, { "sms": {} }, { "notification": { "body": "x" } }"#,
                              responses: #"[{"command": "a", "url": "b"}, {"url": "x", "method": "PATCH"}, {"url": "x", "status": 900}, {"command": "c"}]"#)
        let problems = s.problems().joined(separator: "\n")
        for text in ["gives both \"command\" and \"url\"", "\"PATCH\" is not a method", "must be an HTTP status", "output",
                     "gives both \"count\" and \"atLeast\"", "sms", "body"] {
            #expect(problems.contains(text), "\(text) in \(problems)")
        }
        s = Self.scenario(#"getActions("mail", "mail:smtp:home").sendMail("a@b.c", "s", "t")"#, expect: #"{ "mail": { "recipient": "a@b.c" }, "count": 1 }"#)
        #expect(s.problems().isEmpty, "\(s.problems())")
    }

    @Test func regexTransformsAsOpenHABsService() async throws {
        let (result, rules) = try await Self.scenario("""
            logInfo("test", transform("REGEX", ".*temp=([0-9.]+).*", "  cpu temp=48.3'C  ") + "|" + transform("REGEX", "s/a/o/g", "banana")
                + "|" + transform("REGEX", "s/a/o/", " banana ") + "|" + transform("REGEX", "([0-9]+) W", "no number") + "|" + transform("REGEX", "[a-z]+", "abc")
                + "|" + transform("REGEX", "(", "x") + "|" + transformRaw("REGEX", "(.*)-.*", "12-34"))
            try { transformRaw("REGEX", "(", "x") } catch (Exception e) { logInfo("test", "raw threw") }
            """).run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        // First group of a whole match; s///g and s/// replace; no match is null; no group is ""; a bad
        // pattern gives the value back (transform) or throws (transformRaw).
        #expect(DSLRuleTests.logged(rules) == ["48.3|bonono|bonana|null||x|12", "raw threw"], "\(rules)")
        // A type known only at run time ends the run; a literal one is refused before it (below).
        let (_, other) = try await Self.scenario(#"val t = "JS"\#nOut.postUpdate(transform(t, "x.js", "{}"))"#).run()
        #expect(other.joined().contains("transform(\"JS\", …): the twin runs the transformations JSONPATH, MAP, REGEX, SCALE only (rules.dslUnsupported)"), "\(other)")
        let literal = Self.scenario(#"Out.postUpdate(transform("JS", "x.js", "{}"))"#).problems().joined()
        #expect(literal.contains("transform(\"JS\", …) is a transformation the twin does not run (rules.dslUnsupported)"), "\(literal)")
    }

    /// Issue 41: a scope the twin has no outbox kind for is any binding's: its calls land as the generic `action`.
    @Test func aScopeOfAnyBindingLandsAsAnAction() async throws {
        let (result, rules) = try await Self.scenario(#"getActions("sms", "sms:modem:1").sendMail("x", "y", "z")"#).run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(rules.joined().contains("→ action sms.sendMail to sms:modem:1: x, y, z"), "\(rules)")
    }

    /// A scenario whose rule runs `body`, with the MAP and SCALE files of `transformFiles`.
    static func transforming(_ body: String, files: [String: String], transformFiles: String) -> RuleScenario {
        var s = scenario(body)
        for (name, text) in files { s.files[name] = text }
        // Only .rules files go under "rules".
        s.extra += #", "transformFiles": \#(transformFiles)"#
        return s
    }

    @Test func mapScaleAndJSONPathTransformFromTheScenariosFiles() async throws {
        let files = ["openhab/transform/de.map": "ON=an\nOFF=aus\n=unbekannt\n",
                     "openhab/transform/temp.scale": "[..18[=kalt\n[18..24]=angenehm\n]24..]=warm\nformat=%label% (%value%)\n"]
        let s = Self.transforming("""
            logInfo("test", transform("MAP", "de.map", "ON") + "|" + transform("map", "de.map", "NULL") + "|" + transform("SCALE", "temp.scale", "21.5")
                + "|" + transform("SCALE", "temp.scale", "30 °C") + "|" + transform("SCALE", "temp.scale", "n/a")
                + "|" + transform("JSONPATH", "$.main.temp", "{\\"main\\": {\\"temp\\": 3.5}}") + "|" + transform("JSONPATH", "$.x", "{}"))
            try { transformRaw("SCALE", "temp.scale", "n/a") } catch (Exception e) { logInfo("test", "raw threw " + e.message) }
            """, files: files, transformFiles: #"["openhab/transform"]"#)
        let (result, rules) = try await s.run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(DSLRuleTests.logged(rules) == ["an|unbekannt|angenehm (21.5)|warm (30 °C)|n/a|3.5|{}",
                                               "raw threw Scale must be used with numeric inputs, valid quantity types or a 'NaN' entry."], "\(rules)")
    }

    @Test func aTransformFileTheScenarioDoesNotLoadIsRefusedBeforeTheRun() {
        let files = ["openhab/transform/de.map": "ON=an\n"]
        let s = Self.transforming(#"Out.postUpdate(transform("MAP", "en.map", "ON"))"#, files: files, transformFiles: #"["openhab/transform/de.map"]"#)
        let problems = s.problems().joined(separator: "\n")
        #expect(problems.contains("a.rules:5:16: transform(\"MAP\", \"en.map\", …) names a MAP file the scenario's \"transformFiles\" do not load (rules.dslUnsupported)"), "\(problems)")
        #expect(problems.contains("did you mean \"de.map\"?"), "\(problems)")
        // The same rule with the file loaded passes validation (the control).
        let fine = Self.transforming(#"Out.postUpdate(transform("MAP", "de.map", "ON"))"#, files: files, transformFiles: #"["openhab/transform/de.map"]"#)
        #expect(fine.problems().isEmpty, "\(fine.problems())")
        // A file's globals are checked too.
        var globals = Self.transforming(#"logInfo("test", "x")"#, files: files, transformFiles: #"["openhab/transform/de.map"]"#)
        globals.files["a.rules"] = "val w = transform(\"MAP\", \"nosuch.map\", \"ON\")\n" + (globals.files["a.rules"] ?? "")
        #expect(globals.problems().joined().contains("a.rules:1:9: transform(\"MAP\", \"nosuch.map\", …) names a MAP file"), "\(globals.problems())")
        // A JSONPATH filter is refused where it is written.
        let filter = Self.transforming(#"Out.postUpdate(transform("JSONPATH", "$.a[?(@.b)]", "{}"))"#, files: [:], transformFiles: "[]")
        #expect(filter.problems().joined().contains("a.rules:5:16: the JSONPATH \"$.a[?(@.b)]\" has [?(@.b)]"), "\(filter.problems())")
    }

    @Test func badTransformFilesAreLocatedErrors() {
        let files = ["t/ok.map": "A=1\n", "t/bad.scale": "[0..10]=low\nhigh=oops\n", "t/esc.map": "A=\\u12\n"]
        let s = Self.transforming(#"logInfo("test", "x")"#, files: files, transformFiles: #"["t/bad.scale", "t/esc.map", "t/missing.map", "t/readme.txt"]"#)
        let problems = s.problems().joined(separator: "\n")
        #expect(problems.contains("bad.scale:2: transform.badEntry: \"high\" is not a scale range, the entry for text that is no number, or format"), "\(problems)")
        #expect(problems.contains("esc.map:1: transform.badEscape:"), "\(problems)")
        #expect(problems.contains("missing.map: there is no such file"), "\(problems)")
        #expect(problems.contains("\"t/readme.txt\" is not a .map or .scale file"), "\(problems)")
    }

    @Test func theOutboxIsWrittenToTheReportInTheOrderSent() async throws {
        var s = Self.scenario("""
            sendNotification("host@example.com", "Door, \\"front\\" open")
            say("Bye")
            """, twice: true)
        s.end = "2026-01-09T18:00"
        let result = try await ScenarioRunner.run(try s.load(), options: World.Options(recordTimeseries: .minutes(15)))
        let files = Dictionary(uniqueKeysWithValues: try ReportWriter.render(result).map { ($0.name, $0.text) })
        let outbox = try #require(files["outbox.csv"])
        #expect(outbox == """
            time,rule,kind,action,recipient,text
            2026-01-09T10:00,act,notification,sendNotification,host@example.com,"Door, ""front"" open"
            2026-01-09T10:00,act,say,say,default,Bye
            2026-01-09T12:00,act,notification,sendNotification,host@example.com,"Door, ""front"" open"
            2026-01-09T12:00,act,say,say,default,Bye

            """, "\(outbox)")
        // A scenario without rules writes none.
        var plain = RuleScenario()
        plain.end = "2026-01-09T06:00"
        let none = try await ScenarioRunner.run(try plain.load(), options: World.Options(recordTimeseries: .minutes(15)))
        #expect(try ReportWriter.render(none).allSatisfy { $0.name != "outbox.csv" })
    }

    /// A rule's HTTP action to the twin's own OpenWeatherMap or openHAB REST API is answered by the twin, in
    /// process; any other URL still needs "responses" (and is answered as a failure without).
    @Test func theTwinsOwnURLsAreAnsweredByTheTwin() async throws {
        let s = Self.scenario("""
            val w = sendHttpGetRequest("https://api.openweathermap.org/data/2.5/weather?q=Budapest&units=metric&appid=MY-OWN-KEY")
            logInfo("test", transform("JSONPATH", "$.name", w) + " " + transform("JSONPATH", "$.main.temp", w))
            logInfo("test", sendHttpGetRequest("http://localhost:8080/rest/items/Go/state"))
            sendHttpPostRequest("http://openhabian:8080/rest/items/Out", "text/plain", "hello")
            logInfo("test", sendHttpGetRequest("http://127.0.0.1:8080/rest/items/Nope/state"))
            logInfo("test", "" + sendHttpGetRequest("https://example.org/forecast"))
            """, expect: #"{ "item": "Out", "state": "hello" }"#)
        let (result, rules) = try await s.run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        let logged = DSLRuleTests.logged(rules)
        #expect(logged.count == 4, "\(rules)")
        #expect(logged.first?.hasPrefix("Budapest -2") == true, "\(logged)")
        #expect(logged.dropFirst().first == "ON", "\(logged)")
        #expect(logged.dropFirst(2).first?.contains("404") == true, "\(logged)")
        #expect(logged.last == "null", "\(logged)")
        let text = rules.joined(separator: "\n")
        #expect(text.contains("GET https://example.org/forecast has no scripted response"), "\(text)")
        #expect(!text.contains("api.openweathermap.org/data/2.5/weather?q=Budapest&units=metric&appid=MY-OWN-KEY has no scripted response"), "\(text)")
        // Every request is in the outbox all the same.
        #expect(result.outbox.filter { $0.channel == .http }.count == 5)
    }
}
