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

    /// Sends one request and parses its answer.
    func request(_ message: [String: Any], childEnforces: Bool = true) throws(JavaScriptError) -> JSReply {
        let bytes: Data
        do { bytes = try JSONSerialization.data(withJSONObject: message) } catch {
            throw JavaScriptError(.protocolError, "a request to the JavaScript host could not be written as JSON: \(error.localizedDescription).")
        }
        return try JSReply.parse(try child.exchange([UInt8](bytes), budgetSeconds: budgetSeconds, childEnforces: childEnforces))
    }

    /// Loads a script file (its text given, so a mutated copy can stand in for the file).
    func load(path: String, source: String, nowMilliseconds: Int64) throws(JavaScriptError) -> JSReply {
        try request(["op": "load", "path": path, "source": source, "now": nowMilliseconds])
    }

    /// Stops the child.
    func close() { child.terminate() }
}
