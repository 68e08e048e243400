/// The child's answer to one request.
struct JSReply: Sendable {
    var ok: Bool
    var error: JavaScriptError?
    var effects: [JSEffect]
    var rules: [JSRuleSpec]
    /// A UI rule's script condition: whether it holds, and what it gave when that was no boolean.
    var holds: Bool? = nil
    var notBoolean: String? = nil
    /// Whether the child has seen code that reads Things (the twin then sends their changes with each request).
    var needsThings = false

    /// Parses an answer: one of the hot shape (``hotShape(_:)``) straight from its bytes, any other through a tree.
    /// - Throws: ``JavaScriptError`` `rules.jsChild` when it is not JSON or not the shape the host writes.
    static func parse(_ bytes: [UInt8]) throws(JavaScriptError) -> JSReply {
        if let reply = hotShape(bytes) { return reply }
        return try parseTree(bytes)
    }

    /// Parses an answer through a ``JSWireValue`` tree (every shape the host writes).
    /// - Throws: ``JavaScriptError`` `rules.jsChild` when it is not JSON or not the shape the host writes.
    static func parseTree(_ bytes: [UInt8]) throws(JavaScriptError) -> JSReply {
        let root: JSWireValue
        do { root = try JSWireValue.parse(bytes) } catch {
            throw malformed(bytes, error)
        }
        guard case .object = root else {
            throw JavaScriptError(.child, "the Node.js child answered with a malformed message (not a JSON object): \"\(shown(bytes))\".")
        }
        guard let ok = root["ok"]?.boolValue, let effectList = root["effects"]?.arrayValue else {
            throw JavaScriptError(.child, "the Node.js child answered with a malformed message (no \"ok\" or \"effects\"): \"\(shown(bytes))\".")
        }
        var reply = JSReply(ok: ok, error: nil, effects: [], rules: [])
        reply.effects.reserveCapacity(effectList.count)
        for entry in effectList {
            guard let effect = effect(entry) else {
                throw JavaScriptError(.child, "the Node.js child answered with a malformed effect: \(shown(entry.encoded)).")
            }
            reply.effects.append(effect)
        }
        if !ok {
            let code = JavaScriptError.Code(rawValue: root["code"]?.stringValue ?? "") ?? .runtime
            reply.error = JavaScriptError(code, root["message"]?.stringValue ?? "the script failed", location: root["location"]?.stringValue)
        }
        let holds = root["holds"], notBoolean = root["notBoolean"], needsThings = root["needsThings"]
        guard holds.map({ $0.boolValue != nil }) ?? true, notBoolean.map({ $0.stringValue != nil }) ?? true,
              needsThings.map({ $0.boolValue != nil }) ?? true else {
            throw JavaScriptError(.child, "the Node.js child answered with a malformed reply (\"holds\", \"notBoolean\" or \"needsThings\" of the wrong type): \"\(shown(bytes))\".")
        }
        reply.holds = holds?.boolValue
        reply.notBoolean = notBoolean?.stringValue
        reply.needsThings = needsThings?.boolValue ?? false
        if let list = root["rules"]?.arrayValue {
            for entry in list {
                guard let rule = rule(entry) else {
                    throw JavaScriptError(.child, "the Node.js child answered with a malformed rule: \(shown(entry.encoded)).")
                }
                reply.rules.append(rule)
            }
        }
        return reply
    }

    /// The answer of almost every run — `{"ok":true,"effects":[…]}`, perhaps `"needsThings"` after, with updates,
    /// commands and log lines whose strings hold no escape — read without a ``JSWireValue`` tree, in the bytes' order
    /// as the host writes them; `nil` for anything else, which ``parse(_:)`` reads as a tree (and refuses when it is
    /// malformed). What this accepts is JSON of a fixed shape (no member missing or repeated, valid UTF-8), which the
    /// tree reads to the same reply.
    static func hotShape(_ bytes: [UInt8]) -> JSReply? {
        bytes.withUnsafeBufferPointer { u -> JSReply? in
            var r = HotReader(u: u)
            guard r.skip("{\"ok\":true,\"effects\":[") else { return nil }
            var reply = JSReply(ok: true, error: nil, effects: [], rules: [])
            if !r.skip("]") {
                repeat {
                    guard let effect = r.effect() else { return nil }
                    reply.effects.append(effect)
                } while r.skip(",")
                guard r.skip("]") else { return nil }
            }
            if r.skip(",\"needsThings\":") {
                if r.skip("true") { reply.needsThings = true } else if !r.skip("false") { return nil }
            }
            guard r.skip("}"), r.i == u.count else { return nil }
            return reply
        }
    }

    /// A cursor over an answer of the hot shape: each step matches or leaves the cursor where it was.
    private struct HotReader {
        let u: UnsafeBufferPointer<UInt8>
        var i = 0

        /// Whether the bytes at the cursor are `text` (then it moves past them).
        mutating func skip(_ text: StaticString) -> Bool {
            let n = text.utf8CodeUnitCount
            guard u.count - i >= n else { return false }
            let bytes = text.utf8Start
            for k in 0..<n where u[i + k] != bytes[k] { return false }
            i += n
            return true
        }

        /// A string without escapes or control characters, valid UTF-8.
        mutating func string() -> String? {
            guard i < u.count, u[i] == UInt8(ascii: "\"") else { return nil }
            var end = i + 1
            while end < u.count, u[end] != UInt8(ascii: "\""), u[end] != UInt8(ascii: "\\"), u[end] >= 0x20 { end += 1 }
            guard end < u.count, u[end] == UInt8(ascii: "\""),
                  let text = String(validating: UnsafeBufferPointer(rebasing: u[(i + 1)..<end]), as: UTF8.self) else { return nil }
            i = end + 1
            return text
        }

        /// `{"k":"upd"|"cmd","item":…,"value":…}` or `{"k":"log","level":…,"logger":…,"text":…}` (`nil`: the answer is
        /// not of the hot shape).
        mutating func effect() -> JSEffect? {
            guard skip("{\"k\":\"") else { return nil }
            if let update = skip("upd\",\"item\":") ? true : skip("cmd\",\"item\":") ? false : nil {
                guard let item = string(), skip(",\"value\":"), let value = string(), skip("}") else { return nil }
                return update ? .update(item: item, value: value) : .command(item: item, value: value)
            }
            guard skip("log\",\"level\":"), let level = string(), skip(",\"logger\":"), let logger = string(),
                  skip(",\"text\":"), let text = string(), skip("}") else { return nil }
            return .log(level: level, logger: logger, text: text)
        }
    }

    /// The error for a message that is not JSON: where it stops fitting and what it starts with.
    static func malformed(_ bytes: [UInt8], _ error: JSWireValue.SyntaxError) -> JavaScriptError {
        JavaScriptError(.child, "the Node.js child answered with a malformed message (not JSON: byte \(error.offset) of \(bytes.count), "
                        + "expected \(error.expected)): \"\(shown(bytes))\".")
    }

    /// The first 60 bytes of a message, for an error.
    static func shown(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix(60), as: UTF8.self) + (bytes.count > 60 ? "…" : "")
    }

    private static func effect(_ e: JSWireValue) -> JSEffect? {
        let s = { (key: String) in e[key]?.stringValue }
        switch s("k") {
        case "cmd": return s("item").flatMap { item in s("value").map { .command(item: item, value: $0) } }
        case "upd": return s("item").flatMap { item in s("value").map { .update(item: item, value: $0) } }
        case "log":
            guard let level = s("level"), let logger = s("logger"), let text = s("text") else { return nil }
            return .log(level: level, logger: logger, text: text)
        case "out":
            guard let channel = s("channel"), let action = s("action"), let recipient = s("recipient"), let text = s("text") else { return nil }
            return .outbox(channel: channel, action: action, recipient: recipient, text: text)
        case "timer":
            guard let id = e["id"]?.int64Value, let id = Int(exactly: id), let at = e["at"]?.doubleValue, at.isFinite,
                  abs(at) < 1e15 else { return nil }
            return .timer(id: id, atMs: Int64(at), label: s("label") ?? "timer", rule: s("rule"))
        case "cancel": return e["id"]?.int64Value.flatMap { Int(exactly: $0) }.map { .cancel(id: $0) }
        case "enable":
            guard let rule = s("rule"), let enabled = e["enabled"]?.boolValue else { return nil }
            return .enable(rule: rule, enabled: enabled)
        case "runRule": return s("rule").map { .runRule($0, considerConditions: e["conditions"]?.boolValue ?? true, arguments: s("args")) }
        case "act":
            guard let scope = s("scope"), let method = s("method"), let thing = s("thing"), let list = e["args"]?.arrayValue else { return nil }
            let args = list.compactMap(\.stringValue)
            guard args.count == list.count else { return nil }
            return .thingAction(scope: scope, method: method, thing: thing, arguments: args)
        case "note": return s("text").map { .note($0) }
        default: return nil
        }
    }

    private static func rule(_ r: JSWireValue) -> JSRuleSpec? {
        guard let id = r["id"]?.stringValue, let name = r["name"]?.stringValue, let triggerList = r["triggers"]?.arrayValue else { return nil }
        var triggers: [JSTriggerSpec] = []
        for t in triggerList {
            guard let type = t["type"]?.stringValue, let tid = t["id"]?.stringValue, let config = t["config"]?.arrayValue else { return nil }
            var pairs: [(key: String, value: String)] = []
            for pair in config {
                guard let p = pair.arrayValue, p.count == 2, let key = p[0].stringValue, let value = p[1].stringValue else { return nil }
                pairs.append((key, value))
            }
            triggers.append(JSTriggerSpec(id: tid, type: type, configuration: pairs, line: t["line"]?.int64Value.flatMap { Int(exactly: $0) }))
        }
        let tags = r["tags"]?.arrayValue.flatMap { list in list.compactMap(\.stringValue).count == list.count ? list.compactMap(\.stringValue) : nil }
        return JSRuleSpec(id: id, name: name, description: r["description"]?.stringValue, tags: tags ?? [],
                          triggers: triggers, switchItem: r["switchItem"]?.stringValue, line: r["line"]?.int64Value.flatMap { Int(exactly: $0) })
    }
}
