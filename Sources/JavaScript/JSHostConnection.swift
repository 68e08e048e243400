import Foundation

/// A started JavaScript host: the `node` child and the request/answer protocol over it (`host.js`).
///
/// One per world with JavaScript (and one, briefly, while a scenario is validated).
final class JSHostConnection: Sendable {
    let child: NodeChild
    let budgetSeconds: Double

    /// Starts `node` on the runtime and sends `init`.
    init(node: NodeExecutable, setup: JSSetup, items: [[String: Any]]) throws(JavaScriptError) {
        child = try NodeChild(node: node, script: try JavaScriptRuntime.hostScript(), zone: setup.zone)
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

/// What a JavaScript host is started with: the scenario's folder, conf directory, zone, seed and budget.
public struct JSSetup: Sendable, Equatable {
    /// The scenario's folder: nothing outside it is read. Absolute.
    public var root: String
    /// The openHAB conf directory (`$OPENHAB_CONF`): where `automation/js/node_modules` is. Absolute.
    public var conf: String
    /// The scenario's IANA zone (`time` computes in it with Node's ICU).
    public var zone: String
    /// The scenario's seed (`Math.random`).
    public var seed: UInt64
    /// The scenario's start, epoch milliseconds.
    public var startMilliseconds: Int64
    /// The wall-clock budget of one run, load or timer callback.
    public var budgetMilliseconds: Int

    /// The default run budget: 1 s of wall time.
    public static let defaultBudgetMilliseconds = 1_000

    public init(root: String, conf: String, zone: String, seed: UInt64, startMilliseconds: Int64,
                budgetMilliseconds: Int = JSSetup.defaultBudgetMilliseconds) {
        self.root = root
        self.conf = conf
        self.zone = zone
        self.seed = seed
        self.startMilliseconds = startMilliseconds
        self.budgetMilliseconds = budgetMilliseconds
    }
}
