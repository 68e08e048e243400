import Foundation

/// A started JavaScript host: the `node` child and the request/answer protocol over it (`host.js`).
///
/// One per world with JavaScript (and one, briefly, while a scenario is validated).
final class JSHostConnection: Sendable {
    let child: NodeChild
    let budgetSeconds: Double

    /// Starts `node` on the runtime and sends `init`.
    init(node: NodeExecutable, setup: JSSetup, items: [[String: Any]]) throws(JavaScriptError) {
        child = try NodeChild(node: node, script: try JavaScriptRuntime.hostScript(), zone: setup.zone, label: setup.root)
        budgetSeconds = Double(setup.budgetMilliseconds) / 1000
        let reply = try request(["op": "init", "now": setup.startMilliseconds, "zone": setup.zone, "seed": String(setup.seed),
                                 "root": setup.root, "conf": setup.conf, "budgetMs": setup.budgetMilliseconds, "items": items])
        if let error = reply.error { throw error }
    }

    /// Sends one request and parses its answer; questions the child asks on the way (`{"ask": {…}}`, a
    /// persistence query) are answered by `answer`, at most ``maxQuestions`` per request.
    func request(_ message: [String: Any], childEnforces: Bool = true,
                 answer: (([String: Any]) -> [String: Any])? = nil) throws(JavaScriptError) -> JSReply {
        var bytes = try child.exchange(try Self.encode(message), budgetSeconds: budgetSeconds, childEnforces: childEnforces)
        for _ in 0..<Self.maxQuestions {
            guard bytes.first == UInt8(ascii: "{"), bytes.starts(with: Array("{\"ask\":".utf8)) else { break }
            guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
                  let question = object["ask"] as? [String: Any] else {
                throw JavaScriptError(.child, "the Node.js child asked a malformed question.")
            }
            let reply = answer?(question) ?? ["error": "the twin answers no questions here"]
            bytes = try child.reply(try Self.encode(reply), budgetSeconds: budgetSeconds, childEnforces: childEnforces)
        }
        return try JSReply.parse(bytes)
    }

    /// Questions one request may ask (a script asking in a loop ends as malformed past it).
    static let maxQuestions = 100_000

    private static func encode(_ message: [String: Any]) throws(JavaScriptError) -> [UInt8] {
        do { return [UInt8](try JSONSerialization.data(withJSONObject: message)) } catch {
            throw JavaScriptError(.protocolError, "a message to the JavaScript host could not be written as JSON: \(error.localizedDescription).")
        }
    }

    /// Loads a script file (its text given, so a mutated copy can stand in for the file).
    func load(path: String, source: String, nowMilliseconds: Int64) throws(JavaScriptError) -> JSReply {
        try request(["op": "load", "path": path, "source": source, "now": nowMilliseconds])
    }

    /// Stops the child.
    func close() { child.terminate() }
}
