/// Loads script files once, at validation, in a `node` child: the rules each file registers (with their triggers
/// as openHAB module types) or the located error that stopped the file. A scenario's validation goes through
/// ``JavaScriptSession/collect(modules:items:)``, which keeps the child for the world's start.
public enum JavaScriptCollector {
    /// An Item the scripts may read while they load (the scenario's own Items).
    public struct ItemSeed: Sendable {
        public let name: String
        public let type: String
        public let label: String?
        public let state: String
        public let groups: [String]
        public let members: [String]

        public init(name: String, type: String, label: String?, state: String, groups: [String], members: [String]) {
            self.name = name
            self.type = type
            self.label = label
            self.state = state
            self.groups = groups
            self.members = members
        }
    }

    /// What loading one file gave.
    public struct FileResult: Sendable {
        /// The file.
        public let file: JSScriptFile
        /// The rules it registered, in order (empty after an error).
        public let rules: [JSRuleSpec]
        /// Why it did not load.
        public let error: JavaScriptError?
    }

    /// Loads `files` in order in one child.
    /// - Throws: ``JavaScriptError`` `rules.jsNodeMissing` without Node.js, `rules.jsChild` when the child fails.
    public static func collect(_ files: [JSScriptFile], setup: JSSetup, items: [ItemSeed],
                               environment: [String: String] = NodeExecutable.currentEnvironment) throws(JavaScriptError) -> [FileResult] {
        try collect(files, modules: [], setup: setup, items: items, environment: environment).files
    }

    /// Loads `files` in order in one child, then compiles UI rules' script `modules` (without running them):
    /// per file what it registered or why it did not load, per module its syntax error (`nil`: it compiles).
    /// - Throws: ``JavaScriptError`` `rules.jsNodeMissing` without Node.js, `rules.jsChild` when the child fails.
    public static func collect(_ files: [JSScriptFile], modules: [JSUIScript], setup: JSSetup, items: [ItemSeed],
                               environment: [String: String] = NodeExecutable.currentEnvironment)
        throws(JavaScriptError) -> (files: [FileResult], modules: [JavaScriptError?]) {
        let host = try start(setup: setup, items: items, environment: environment)
        defer { host.close() }
        return try collect(files, modules: modules, on: host)
    }

    /// A child started and initialised with `items`.
    static func start(setup: JSSetup, items: [ItemSeed], environment: [String: String]) throws(JavaScriptError) -> JSHostConnection {
        let node = try NodeExecutable.locate(environment: environment)
        return try JSHostConnection(node: node, setup: setup, items: items.map { seed in
            JSHostConnection.itemSeed(name: seed.name, type: seed.type, label: seed.label, groups: seed.groups, tags: [],
                                      members: seed.members, state: seed.state)
        })
    }

    /// Loads `files` and compiles `modules` in `host` (started with ``start(setup:items:environment:)``).
    static func collect(_ files: [JSScriptFile], modules: [JSUIScript], on host: JSHostConnection)
        throws(JavaScriptError) -> (files: [FileResult], modules: [JavaScriptError?]) {
        var results: [FileResult] = []
        for file in files {
            let reply = try host.load(path: file.path, source: file.source, nowMilliseconds: host.setup.startMilliseconds)
            results.append(FileResult(file: file, rules: reply.error == nil ? reply.rules : [], error: reply.error))
        }
        var compiled: [JavaScriptError?] = []
        for module in modules {
            let reply = try host.request(["op": "compile", "key": .string(module.key), "source": .string(module.source), "condition": .bool(module.isCondition)])
            compiled.append(reply.error)
        }
        return (results, compiled)
    }
}
