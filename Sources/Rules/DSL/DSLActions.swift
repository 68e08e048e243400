import Simulation
import SmartHome

/// openHAB's actions that reach out of the house, run into the engine's outbox (``OutboxMessage``): the
/// openHAB Cloud notifications (`NotificationAction`), the add-ons' Thing actions through `getActions`
/// (mail's `SendMailActions`, telegram's `TelegramActions`, pushover's `PushoverActions` with outbox kinds
/// of their own; any other binding's — `publishMQTT`, … — as the generic `action` kind), `say`,
/// `playSound`, `playStream` and the master volume (core `Audio`/`Voice`), `executeCommandLine` (core
/// `Exec`) and the HTTP actions (core `HTTP`). Nothing leaves the twin: a command line or request is answered from the scenario's
/// `responses`; one nobody scripted is answered as openHAB answers a failure — `null` — and the run log
/// says so (`rules.unscripted`), at once, on the virtual clock.
enum DSLActions {
    static func text(_ v: DSLValue, _ i: DSLInterpreter) -> String { i.describe(v) }

    private static func send(_ i: DSLInterpreter, _ channel: OutboxMessage.Channel, _ action: String, _ recipient: String, _ text: String,
                             scope: String? = nil, arguments: [String] = []) {
        i.execution.send(channel, action: action, to: recipient, text, scope: scope, arguments: arguments)
    }

    /// The actions that may pause the run: an HTTP request the twin answers itself waits for its answer.
    static let suspendingFunctions: [String: DSLSuspendingFunction] = [
        "sendHttpGetRequest": { i, a, at in try await http("GET", i, a, at) },
        "sendHttpPostRequest": { i, a, at in try await http("POST", i, a, at) },
        "sendHttpPutRequest": { i, a, at in try await http("PUT", i, a, at) },
        "sendHttpDeleteRequest": { i, a, at in try await http("DELETE", i, a, at) },
        // Things.getThingStatusInfo(uid): the Thing registry's status, or null for a UID it does not have
        // (openhab-core ThingActions: `thingRegistry.get(uid)` null → null).
        "getThingStatusInfo": { i, a, at in
            guard a.count == 1, case .string(let uid) = a[0] else { throw DSLFlow.failure("getThingStatusInfo takes a Thing UID", at, type: "IllegalArgumentException") }
            guard let thing = try? ThingUID(uid), let info = await i.execution.engine.runtime.things.status(of: thing) else { return .null }
            return .thingStatus(info)
        },
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
        // Audio.playStream(url), playStream(sink, url): the stream's URL lands in the outbox (`playStream(null)` stops).
        "playStream": { i, a, at in
            guard let first = a.first else { throw DSLFlow.failure("playStream takes a URL (and optionally a sink first)", at) }
            if a.count >= 2, case .string(let sink) = first { send(i, .sound, "playStream", sink, text(a[1], i)) } else {
                send(i, .sound, "playStream", "default", text(first, i))
            }
            return .null
        },
        // Audio.setMasterVolume(PercentType | float 0…1), increaseMasterVolume(percent), decreaseMasterVolume(percent).
        "setMasterVolume": { i, a, at in try volume("setMasterVolume", i, a, at) },
        "increaseMasterVolume": { i, a, at in try volume("increaseMasterVolume", i, a, at) },
        "decreaseMasterVolume": { i, a, at in try volume("decreaseMasterVolume", i, a, at) },
        "executeCommandLine": { i, a, at in try executeCommandLine(i, a, at) },
        "transform": { i, a, at in try DSLTransform.call(raw: false, i, a, at) },
        "transformRaw": { i, a, at in try DSLTransform.call(raw: true, i, a, at) },
        "getActions": { i, a, at in
            guard a.count == 2, case .string(let scope) = a[0], case .string(let thing) = a[1] else {
                throw DSLFlow.failure("getActions takes a binding scope and a Thing UID (getActions(\"mail\", \"mail:smtp:home\"))", at)
            }
            // Any scope: mail, telegram and pushover have outbox kinds of their own; every other binding's
            // method lands as the generic `action` kind (see ``genericAction``).
            return .actions(scope: scope, thing: thing)
        },
    ]

    private static func volume(_ name: String, _ i: DSLInterpreter, _ a: [DSLValue], _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        guard a.count == 1, a[0].numeric != nil else { throw DSLFlow.failure("\(name) takes a volume (a PercentType, or 0 to 1)", at, type: "IllegalArgumentException") }
        send(i, .sound, name, "default", text(a[0], i))
        return .null
    }

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

    /// The scopes with outbox kinds of their own (`mail`, `telegram`, `pushover`) and the actions each has; every
    /// other scope and method is ``genericAction(_:)``.
    static let thingActions: [String: Set<String>] = [
        "mail": ["sendMail", "sendHtmlMail", "sendMailWithAttachment", "sendMailWithAttachments", "sendHtmlMailWithAttachment",
                 "sendHtmlMailWithAttachments"],
        "telegram": ["sendTelegram", "sendTelegramPhoto", "sendTelegramQuery", "sendTelegramAnswer"],
        "pushover": ["sendMessage", "sendHtmlMessage", "sendMonospaceMessage", "sendAttachmentMessage", "sendURLMessage",
                     "sendPriorityMessage", "cancelPriorityMessage", "sendMessageToDevice"],
    ]

    private static func thingAction(_ name: String, _ body: @escaping @Sendable (DSLInterpreter, String, [DSLValue], DSLLocation) throws(DSLFlow) -> DSLValue) -> DSLMethodCode {
        .init { i, r, a, at in
            guard case .actions(let scope, let thing) = r else { throw DSLFlow.failure("\(r.text) has no action \(name)", at, type: "NoSuchMethodException") }
            guard thingActions[scope]?.contains(name) == true else { return genericAction(name)(i, r, a, at) }
            return try body(i, thing, a, at)
        }
    }

    /// Any binding's Thing action (`getActions("mqtt", "mqtt:broker:home").publishMQTT(topic, value)`): the scope,
    /// the Thing, the method and its arguments land in the outbox as the `action` kind; it returns the scenario's
    /// scripted `result` for that scope and method (`responses`), else null — openHAB's "no result" for an action
    /// that returns nothing. The twin cannot know a binding's action signatures, so every method name is taken.
    static func genericAction(_ name: String) -> @Sendable (DSLInterpreter, DSLValue, [DSLValue], DSLLocation) -> DSLValue {
        { i, r, a, _ in
            guard case .actions(let scope, let thing) = r else { return .null }
            let arguments = a.map { text($0, i) }
            i.execution.send(.action, action: name, to: thing, arguments.joined(separator: ", "), scope: scope, arguments: arguments)
            switch i.execution.scriptedResult(scope: scope, method: name, thing: thing) {
            case .text(let s)?: return .string(s)
            case .number(let n)?: return n == n.rounded() && abs(n) < 9e15 ? .int(Int64(n)) : .number(n)
            case .boolean(let b)?: return .bool(b)
            case .null?, nil: return .null
            }
        }
    }

    /// mail: `sendMail(to, subject, text)` and its HTML and attachment forms; the outbox text is
    /// `subject — text`. telegram: `sendTelegram([chatId,] text[, args…])` (a format with arguments).
    /// pushover: `sendMessage(text[, title])`, `sendPriorityMessage(text, title, priority)`,
    /// `sendMessageToDevice(device, text[, title])`, `cancelPriorityMessage(receipt)` (the add-on's
    /// `PushoverActions`: a request to the service too, so it lands in the outbox as `cancel <receipt>`).
    static let thingActionMethods: [String: DSLMethodCode] = {
        var table: [String: DSLMethodCode] = [:]
        for name in thingActions["mail"]! {
            table[name] = thingAction(name) { i, _, a, at throws(DSLFlow) in
                guard a.count >= 3 else { throw DSLFlow.failure("\(name) takes a recipient, a subject and a text", at) }
                send(i, .mail, name, text(a[0], i), text(a[1], i) + " — " + text(a[2], i), scope: "mail", arguments: a.map { text($0, i) })
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
                send(i, .telegram, name, chat, words, scope: "telegram", arguments: a.map { text($0, i) })
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
                    send(i, .pushover, name, recipient, "cancel " + text(message, i), scope: "pushover", arguments: a.map { text($0, i) })
                    return .bool(true)
                }
                let title = rest.dropFirst().first.map { text($0, i) + " — " } ?? ""
                send(i, .pushover, name, recipient, title + text(message, i), scope: "pushover", arguments: a.map { text($0, i) })
                return name == "sendPriorityMessage" ? .string("receipt-\(i.execution.now.unixMilliseconds)") : .bool(true)
            }
        }
        return table
    }()
}
