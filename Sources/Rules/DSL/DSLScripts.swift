/// Script files a scenario gives `callScript` (openHAB's `$OPENHAB_CONF/scripts/<name>.script`): each is a
/// Script.xtext body (statements, as a rule's `then` part), found by its file name without `.script`.
///
/// openHAB's `ScriptExecution.callScript(name)` looks the model `name.script` up (the `.script` ending is
/// optional), runs it with a fresh context — no implicit variables, none of the caller's variables — and
/// returns its value; a name it cannot find is a `ScriptExecutionException` ("Script 'x' cannot be found.").
/// The twin refuses a literal name the scenario does not have at `validate`, and a computed one when it runs.
public final class DSLScripts: Sendable {
    struct Script: Sendable {
        let file: String
        let body: DSLBody
        /// The Items it names (and the scripts it calls name), for the scenario to check.
        let referencedItems: [String]
        let calledScripts: [String]
        let usesSleep: Bool
    }

    let scripts: [String: Script]

    /// No script files.
    public static let none = DSLScripts(scripts: [:])

    init(scripts: [String: Script]) { self.scripts = scripts }

    /// The names `callScript` finds, sorted.
    public var names: [String] { scripts.keys.sorted() }

    /// How deep scripts may call scripts (a script that calls itself ends there, as a stack overflow would).
    static let maxDepth = 32

    /// The script `callScript(name)` runs: `name` with or without its `.script` ending.
    func script(_ name: String) -> Script? {
        scripts[name.hasSuffix(".script") ? String(name.dropLast(7)) : name]
    }

    /// The name of a script file: its last path component without `.script`.
    public static func name(ofFile file: String) -> String {
        let last = String(file.split(separator: "/").last ?? Substring(file))
        return last.hasSuffix(".script") ? String(last.dropLast(7)) : last
    }

    /// Compiles script files (`file` names each in messages). Every problem is reported, located; a script
    /// with a problem is left out (a `callScript` naming it is then refused too, naming the file).
    public static func compile(_ files: [(file: String, text: String)]) -> (scripts: DSLScripts, problems: [RulesError]) {
        var problems: [RulesError] = []
        let names = Set(files.map { name(ofFile: $0.file) })
        var parsed: [String: Script] = [:]
        for (file, text) in files {
            do {
                var parser = try DSLParser(text, file: file)
                let body = try parser.parseScript()
                var checker = DSLChecker()
                checker.scriptNames = names
                var declared: [String: Bool] = [:]
                for implicit in DSLCompiler.implicitNames { declared[implicit] = false }
                let items = checker.check(body, declared: declared)
                if !checker.problems.isEmpty { problems += checker.problems; continue }
                parsed[name(ofFile: file)] = Script(file: file, body: DSLSuspension.mark(body), referencedItems: items, calledScripts: checker.calledScripts,
                                                     usesSleep: checker.usesSleep)
            } catch {
                problems.append(error)
            }
        }
        return (DSLScripts(scripts: parsed), problems)
    }

    /// The Items a call of `name` may reach (its own and those of the scripts it calls, transitively), and
    /// whether any of them sleeps.
    func reach(_ name: String) -> (items: [String], usesSleep: Bool) {
        var seen = Set<String>(), queue = [name], items: [String] = [], sleeps = false
        while let next = queue.popLast() {
            guard let script = script(next), seen.insert(script.file).inserted else { continue }
            items += script.referencedItems
            sleeps = sleeps || script.usesSleep
            queue += script.calledScripts
        }
        return (items, sleeps)
    }

    /// `callScript(name)`: runs the script with a fresh scope on the caller's run (its clock, budget and fiber).
    static func call(_ i: DSLInterpreter, _ a: [DSLValue], _ at: DSLLocation) async throws(DSLFlow) -> DSLValue {
        guard a.count == 1, case .string(let name) = a[0] else {
            throw DSLFlow.failure("callScript takes a script's name (a text)", at, type: "IllegalArgumentException")
        }
        guard let script = i.scripts.script(name) else {
            throw DSLFlow.failure("Script '\(name)' cannot be found.", at, type: "ScriptExecutionException")
        }
        guard i.scriptDepth < maxDepth else {
            throw DSLFlow.fatal("callScript(\"\(name)\") went \(maxDepth) scripts deep (a script that calls itself?); the run was ended (rules.dslBudget)", at)
        }
        let inner = DSLInterpreter(execution: i.execution, rule: i.rule, fiber: i.fiber, budget: i.budget,
                                   scripts: i.scripts, scriptDepth: i.scriptDepth + 1)
        // No implicit variable is set and there are no globals: the frame's implicit slots stay null.
        let frame = DSLFrame.make(size: script.body.frameSize, parent: .noGlobals, shared: script.body.capturable)
        do {
            return try await inner.runSuspending(script.body.statements, in: frame) ?? .null
        } catch {
            if case .returned(let value) = error { return value ?? .null }
            throw error
        }
    }
}
