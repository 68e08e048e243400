/// A started JavaScript host: the `node` child and the request/answer protocol over it (`host.js`).
///
/// One per world with JavaScript (and one, briefly, while a scenario is validated). Messages are JSON
/// (``JSWireValue``); a rule run is one request and one answer unless the script asks the twin something it
/// cannot know from the states sent with the run (a persistence query, an Item's metadata).
final class JSHostConnection: Sendable {
    let child: NodeChild
    let budgetSeconds: Double

    /// The setup the child was started with (its zone and folder are fixed for its life).
    let setup: JSSetup

    /// Starts `node` on the runtime and sends `init`.
    init(node: NodeExecutable, setup: JSSetup, items: [JSWireValue]) throws(JavaScriptError) {
        child = try NodeChild(node: node, script: try JavaScriptRuntime.hostScript(), zone: setup.zone, label: setup.root)
        budgetSeconds = Double(setup.budgetMilliseconds) / 1000
        self.setup = setup
        do { try initialize(startMilliseconds: setup.startMilliseconds, items: items) } catch {
            close()
            throw error
        }
    }

    /// Sends `init`: the child forgets every file, module, rule, timer and cache it had (their `vm` contexts with
    /// them) and mirrors `items`, as a child just started does — what a world's start sends to the child that
    /// validated its scenario (``JavaScriptSession/collect(modules:items:)``), so the scenario starts Node once.
    func initialize(startMilliseconds: Int64, items: [JSWireValue]) throws(JavaScriptError) {
        let reply = try request(["op": "init", "now": .integer(startMilliseconds), "zone": .string(setup.zone), "seed": .string(String(setup.seed)),
                                 "root": .string(setup.root), "conf": .stringOrNull(setup.conf), "budgetMs": .integer(Int64(setup.budgetMilliseconds)),
                                 "items": .array(items)])
        if let error = reply.error { throw error }
    }

    /// The description of one Item the child mirrors (sent with `init`).
    static func itemSeed(name: String, type: String, label: String?, groups: [String], tags: [String], members: [String], state: String) -> JSWireValue {
        ["name": .string(name), "type": .string(type), "label": .stringOrNull(label), "groups": .strings(groups), "tags": .strings(tags),
         "members": .strings(members), "state": .string(state)]
    }

    /// Sends one request and parses its answer; a question the child asks on the way is answered "no questions here"
    /// (a load, a compile, `init`: the twin answers questions only in a run).
    func request(_ message: JSWireValue, childEnforces: Bool = true) throws(JavaScriptError) -> JSReply {
        var bytes = try child.exchange(message.encoded, budgetSeconds: budgetSeconds, childEnforces: childEnforces)
        for _ in 0..<Self.maxQuestions {
            guard try Self.question(in: bytes) != nil else { break }
            bytes = try child.exchange(Self.noQuestions, budgetSeconds: budgetSeconds, childEnforces: childEnforces)
        }
        return try JSReply.parse(bytes)
    }

    /// Sends one request (a run) and parses its answer; questions the child asks on the way (`{"ask": {…}}`, a
    /// persistence query, an HTTP request to the twin's own URLs) are answered by `answer`, at most
    /// ``maxQuestions`` per request.
    func request(_ message: JSWireValue, childEnforces: Bool = true,
                 answer: (JSWireValue) async -> JSWireValue) async throws(JavaScriptError) -> JSReply {
        var bytes = try child.exchange(message.encoded, budgetSeconds: budgetSeconds, childEnforces: childEnforces)
        for _ in 0..<Self.maxQuestions {
            guard let asked = try Self.question(in: bytes) else { break }
            bytes = try child.exchange(await answer(asked).encoded, budgetSeconds: budgetSeconds, childEnforces: childEnforces)
        }
        return try JSReply.parse(bytes)
    }

    /// The question a message of the child asks (`{"ask": {…}}`), or `nil` when it is an answer.
    private static func question(in bytes: [UInt8]) throws(JavaScriptError) -> JSWireValue? {
        guard bytes.starts(with: askPrefix) else { return nil }
        let question: JSWireValue
        do { question = try JSWireValue.parse(bytes) } catch { throw JSReply.malformed(bytes, error) }
        guard let asked = question["ask"], case .object = asked else {
            throw JavaScriptError(.child, "the Node.js child asked a malformed question: \"\(JSReply.shown(bytes))\".")
        }
        return asked
    }

    private static let noQuestions = (["error": "the twin answers no questions here"] as JSWireValue).encoded

    private static let askPrefix = Array("{\"ask\":".utf8)

    /// Questions one request may ask (a script asking in a loop ends as malformed past it).
    static let maxQuestions = 100_000

    /// Loads a script file (its text given, so a mutated copy can stand in for the file).
    func load(path: String, source: String, nowMilliseconds: Int64) throws(JavaScriptError) -> JSReply {
        try request(["op": "load", "path": .string(path), "source": .string(source), "now": .integer(nowMilliseconds)])
    }

    /// Stops the child.
    func close() { child.terminate() }
}
