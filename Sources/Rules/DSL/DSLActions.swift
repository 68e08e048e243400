import Simulation
import SmartHome

/// openHAB's actions that reach out of the house, run into the engine's outbox (``OutboxMessage``): the
/// openHAB Cloud notifications (`NotificationAction`), the add-ons' Thing actions through `getActions`
/// (mail's `SendMailActions`, telegram's `TelegramActions`, pushover's `PushoverActions`), `say` and
/// `playSound` (core `Audio`/`Voice`), `executeCommandLine` (core `Exec`) and the HTTP actions (core
/// `HTTP`). Nothing leaves the twin: a command line or request is answered from the scenario's
/// `responses`; one nobody scripted is answered as openHAB answers a failure — `null` — and the run log
/// says so (`rules.unscripted`), at once, on the virtual clock.
enum DSLActions {
    static func text(_ v: DSLValue, _ i: DSLInterpreter) -> String { i.describe(v) }

    private static func send(_ i: DSLInterpreter, _ channel: OutboxMessage.Channel, _ action: String, _ recipient: String, _ text: String) {
        i.execution.send(channel, action: action, to: recipient, text)
    }

    /// The actions that may pause the run: an HTTP request the twin answers itself waits for its answer.
    static let suspendingFunctions: [String: DSLSuspendingFunction] = [
        "sendHttpGetRequest": { i, a, at in try await http("GET", i, a, at) },
        "sendHttpPostRequest": { i, a, at in try await http("POST", i, a, at) },
        "sendHttpPutRequest": { i, a, at in try await http("PUT", i, a, at) },
        "sendHttpDeleteRequest": { i, a, at in try await http("DELETE", i, a, at) },
    ]

    static let functions: [String: DSLFunction] = [
        // NotificationAction: sendNotification(userId, message[, icon, severity …]).
        "sendNotification": { i, a, at in
            guard a.count >= 2 else { throw DSLFlow.failure("sendNotification takes a user (an e-mail address) and a message", at) }
            send(i, .notification, "sendNotification", text(a[0], i), text(a[1], i))
            return .null
        },
        "sendBroadcastNotification": { i, a, at in
            guard let message = a.first else { throw DSLFlow.failure("sendBroadcastNotification takes a message", at) }
            send(i, .notification, "sendBroadcastNotification", "broadcast", text(message, i))
            return .null
        },
        "sendLogNotification": { i, a, at in
            guard let message = a.first else { throw DSLFlow.failure("sendLogNotification takes a message", at) }
            send(i, .notification, "sendLogNotification", "log", text(message, i))
            return .null
        },
        // Voice.say(text[, voice[, sink[, volume]]]).
        "say": { i, a, at in
            guard let words = a.first else { throw DSLFlow.failure("say takes a text", at) }
            let sink: String
            if a.count >= 3, case .string(let s) = a[2] { sink = s } else { sink = "default" }
            send(i, .say, "say", sink, text(words, i))
            return .null
        },
        // Audio.playSound(file), (file, volume), (sink, file), (sink, file, volume).
        "playSound": { i, a, at in
            guard let first = a.first else { throw DSLFlow.failure("playSound takes a sound file (and optionally a sink first)", at) }
            if a.count >= 2, case .string(let sink) = first, case .string(let file) = a[1] {
                send(i, .sound, "playSound", sink, file)
            } else {
                send(i, .sound, "playSound", "default", text(first, i))
            }
            return .null
        },
        "executeCommandLine": { i, a, at in try executeCommandLine(i, a, at) },
        "transform": { i, a, at in try DSLTransform.call(raw: false, i, a, at) },
        "transformRaw": { i, a, at in try DSLTransform.call(raw: true, i, a, at) },
        "getActions": { i, a, at in
            guard a.count == 2, case .string(let scope) = a[0], case .string(let thing) = a[1] else {
                throw DSLFlow.failure("getActions takes a binding scope and a Thing UID (getActions(\"mail\", \"mail:smtp:home\"))", at)
            }
            guard thingActions[scope] != nil else {
                // openHAB returns null for a scope no Thing offers; the twin names the ones it runs.
                throw DSLFlow.failure("getActions(\"\(scope)\", …): the twin runs the actions of \(thingActions.keys.sorted().joined(separator: ", ")); "
                                      + "\(scope) is not one of them (rules.dslUnsupported)", at, type: "UnsupportedOperationException")
            }
            return .actions(scope: scope, thing: thing)
        },
    ]

    /// `executeCommandLine(Duration, cmd, args…)` waits and returns the output; `executeCommandLine(cmd,
    /// args…)` does not wait and returns null. The command line is the arguments joined by spaces; its
    /// outbox recipient is the program (the first of them).
    private static func executeCommandLine(_ i: DSLInterpreter, _ a: [DSLValue], _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        var parts = a[...]
        var waits = false
        if case .duration? = parts.first { waits = true; parts = parts.dropFirst() }
        guard !parts.isEmpty else { throw DSLFlow.failure("executeCommandLine takes a command (and optionally a Duration first)", at) }
        let command = parts.map { text($0, i) }.joined(separator: " ")
        send(i, .exec, "executeCommandLine", text(parts[parts.startIndex], i), command)
        guard let output = i.execution.scriptedOutput(command: command) else {
            i.execution.record("error: \(at): executeCommandLine \"\(command)\" has no scripted response; it was answered as a failure (null) "
                               + "(rules.unscripted); hint: add {\"command\": \"\(command)\", \"output\": \"…\"} to the scenario's \"responses\"")
            return .null
        }
        return waits ? .string(output) : .null
    }

    /// `sendHttpXRequest(url[, contentType, content][, headers][, timeout])`: the scripted body; else, for a URL
    /// of the twin's own (its OpenWeatherMap, its openHAB REST API), the twin's answer; else null. openHAB's
    /// `HttpUtil.executeUrl` gives the body whatever the status, so a 404 or 401 body is returned too.
    private static func http(_ method: String, _ i: DSLInterpreter, _ a: [DSLValue], _ at: DSLLocation) async throws(DSLFlow) -> DSLValue {
        let name = "sendHttp\(method.prefix(1))\(method.dropFirst().lowercased())Request"
        guard case .string(let url)? = a.first else { throw DSLFlow.failure("\(name) takes a URL first", at, type: "IllegalArgumentException") }
        var body = ""
        if method == "POST" || method == "PUT", a.count >= 3, case .string = a[1] { body = text(a[2], i) }
        send(i, .http, name, url, body.isEmpty ? "\(method) \(url)" : "\(method) \(url) \(body)")
        if let response = i.execution.scriptedResponse(url: url, method: method) { return .string(response.body) }
        // The twin's own URLs (its OpenWeatherMap, its openHAB REST API) answer in process, after the scripted ones.
        if let response = await i.execution.twinResponse(method: method, url: url, body: body) {
            if !(200..<300).contains(response.status) {
                i.execution.record("\(method) \(url) answered \(response.status) by the twin")
            }
            return .string(response.body)
        }
        i.execution.record("error: \(at): \(method) \(url) has no scripted response; it was answered as a failure (null) "
                           + "(rules.unscripted); hint: add {\"url\": \"\(url)\", \"body\": \"…\"} to the scenario's \"responses\"")
        return .null
    }

    // MARK: Thing actions

    /// The scopes `getActions` knows, with the actions each offers.
    static let thingActions: [String: Set<String>] = [
        "mail": ["sendMail", "sendHtmlMail", "sendMailWithAttachment", "sendMailWithAttachments", "sendHtmlMailWithAttachment",
                 "sendHtmlMailWithAttachments"],
        "telegram": ["sendTelegram", "sendTelegramPhoto", "sendTelegramQuery", "sendTelegramAnswer"],
        "pushover": ["sendMessage", "sendHtmlMessage", "sendMonospaceMessage", "sendAttachmentMessage", "sendURLMessage",
                     "sendPriorityMessage", "cancelPriorityMessage", "sendMessageToDevice"],
    ]

    private static func thingAction(_ name: String, _ body: @escaping @Sendable (DSLInterpreter, String, [DSLValue], DSLLocation) throws(DSLFlow) -> DSLValue) -> DSLMethod {
        { i, r, a, at in
            guard case .actions(let scope, let thing) = r, thingActions[scope]?.contains(name) == true else {
                throw DSLFlow.failure("\(r.text) has no action \(name)", at, type: "NoSuchMethodException")
            }
            return try body(i, thing, a, at)
        }
    }

    /// mail: `sendMail(to, subject, text)` and its HTML and attachment forms; the outbox text is
    /// `subject — text`. telegram: `sendTelegram([chatId,] text[, args…])` (a format with arguments).
    /// pushover: `sendMessage(text[, title])`, `sendPriorityMessage(text, title, priority)`,
    /// `sendMessageToDevice(device, text[, title])`, `cancelPriorityMessage(receipt)` (the add-on's
    /// `PushoverActions`: a request to the service too, so it lands in the outbox as `cancel <receipt>`).
    static let thingActionMethods: [String: DSLMethod] = {
        var table: [String: DSLMethod] = [:]
        for name in thingActions["mail"]! {
            table[name] = thingAction(name) { i, _, a, at throws(DSLFlow) in
                guard a.count >= 3 else { throw DSLFlow.failure("\(name) takes a recipient, a subject and a text", at) }
                send(i, .mail, name, text(a[0], i), text(a[1], i) + " — " + text(a[2], i))
                return .bool(true)
            }
        }
        for name in thingActions["telegram"]! {
            table[name] = thingAction(name) { i, thing, a, at throws(DSLFlow) in
                var rest = a[...]
                var chat = thing
                if let first = rest.first, rest.count >= 2, case .int(let id) = first { chat = String(id); rest = rest.dropFirst() }
                guard let message = rest.first else { throw DSLFlow.failure("\(name) takes a text (and optionally a chat id first)", at) }
                var words = text(message, i)
                if name == "sendTelegram", rest.count > 1, case .string = message {
                    words = try DSLText.format(Array(rest), at, i).text
                }
                send(i, .telegram, name, chat, words)
                return .bool(true)
            }
        }
        for name in thingActions["pushover"]! {
            table[name] = thingAction(name) { i, thing, a, at throws(DSLFlow) in
                var rest = a[...]
                var recipient = thing
                if name == "sendMessageToDevice", rest.count >= 2 { recipient = text(rest[rest.startIndex], i); rest = rest.dropFirst() }
                guard let message = rest.first else { throw DSLFlow.failure("\(name) takes a \(name == "cancelPriorityMessage" ? "receipt" : "text")", at) }
                if name == "cancelPriorityMessage" {
                    send(i, .pushover, name, recipient, "cancel " + text(message, i))
                    return .bool(true)
                }
                let title = rest.dropFirst().first.map { text($0, i) + " — " } ?? ""
                send(i, .pushover, name, recipient, title + text(message, i))
                return name == "sendPriorityMessage" ? .string("receipt-\(i.execution.now.unixMilliseconds)") : .bool(true)
            }
        }
        return table
    }()
}
