import Foundation

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

    /// Parses an answer's JSON.
    /// - Throws: ``JavaScriptError`` `rules.jsChild` when it is not the shape the host writes.
    static func parse(_ bytes: [UInt8]) throws(JavaScriptError) -> JSReply {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)), let root = object as? [String: Any] else {
            let shown = String(decoding: bytes.prefix(60), as: UTF8.self)
            throw JavaScriptError(.child, "the Node.js child answered with a malformed message (not a JSON object): \"\(shown)\".")
        }
        guard let ok = root["ok"] as? Bool, let effectList = root["effects"] as? [Any] else {
            throw JavaScriptError(.child, "the Node.js child answered with a malformed message (no \"ok\" or \"effects\").")
        }
        var reply = JSReply(ok: ok, error: nil, effects: [], rules: [])
        for entry in effectList {
            guard let e = entry as? [String: Any], let effect = effect(e) else {
                throw JavaScriptError(.child, "the Node.js child answered with a malformed effect: \(entry).")
            }
            reply.effects.append(effect)
        }
        if !ok {
            let codeText = root["code"] as? String ?? ""
            let code = JavaScriptError.Code(rawValue: codeText) ?? .runtime
            let location = root["location"] as? String
            reply.error = JavaScriptError(code, root["message"] as? String ?? "the script failed", location: location)
        }
        reply.holds = root["holds"] as? Bool
        reply.notBoolean = root["notBoolean"] as? String
        reply.needsThings = root["needsThings"] as? Bool ?? false
        if let list = root["rules"] as? [Any] {
            for entry in list {
                guard let r = entry as? [String: Any], let rule = rule(r) else {
                    throw JavaScriptError(.child, "the Node.js child answered with a malformed rule: \(entry).")
                }
                reply.rules.append(rule)
            }
        }
        return reply
    }

    private static func effect(_ e: [String: Any]) -> JSEffect? {
        let s = { (key: String) in e[key] as? String }
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
            guard let id = (e["id"] as? NSNumber)?.intValue, let at = (e["at"] as? NSNumber)?.doubleValue, at.isFinite,
                  abs(at) < 1e15 else { return nil }
            return .timer(id: id, atMs: Int64(at), label: s("label") ?? "timer", rule: s("rule"))
        case "cancel": return (e["id"] as? NSNumber).map { .cancel(id: $0.intValue) }
        case "enable":
            guard let rule = s("rule"), let enabled = e["enabled"] as? Bool else { return nil }
            return .enable(rule: rule, enabled: enabled)
        case "runRule": return s("rule").map { .runRule($0, considerConditions: e["conditions"] as? Bool ?? true, arguments: s("args")) }
        case "act":
            guard let scope = s("scope"), let method = s("method"), let thing = s("thing"), let args = e["args"] as? [String] else { return nil }
            return .thingAction(scope: scope, method: method, thing: thing, arguments: args)
        case "note": return s("text").map { .note($0) }
        default: return nil
        }
    }

    private static func rule(_ r: [String: Any]) -> JSRuleSpec? {
        guard let id = r["id"] as? String, let name = r["name"] as? String, let triggerList = r["triggers"] as? [Any] else { return nil }
        var triggers: [JSTriggerSpec] = []
        for entry in triggerList {
            guard let t = entry as? [String: Any], let type = t["type"] as? String, let tid = t["id"] as? String,
                  let config = t["config"] as? [[Any]] else { return nil }
            var pairs: [(key: String, value: String)] = []
            for pair in config {
                guard pair.count == 2, let key = pair[0] as? String, let value = pair[1] as? String else { return nil }
                pairs.append((key, value))
            }
            triggers.append(JSTriggerSpec(id: tid, type: type, configuration: pairs, line: (t["line"] as? NSNumber)?.intValue))
        }
        return JSRuleSpec(id: id, name: name, description: r["description"] as? String, tags: r["tags"] as? [String] ?? [],
                          triggers: triggers, switchItem: r["switchItem"] as? String, line: (r["line"] as? NSNumber)?.intValue)
    }
}
