import Simulation
import SmartHome
import Synchronization

/// Turns Rules DSL text into the engine's ``Rule``s: triggers map onto the module types a UI rule uses,
/// the body becomes a ``RuleScript``. Everything outside the subset is refused here, located, before a run.
public enum DSLCompiler {
    /// Functions a body may call.
    static let functions: Set<String> = ["sendCommand", "postUpdate", "createTimer", "logInfo", "logWarn", "logError", "logDebug"]
    /// Names every body may use without declaring them.
    static let implicitNames = ["receivedCommand", "newState", "previousState", "triggeringItem", "triggeringItemName",
                                "triggeringGroup", "triggeringGroupName", "triggeringThing", "newStatus", "previousStatus"]
    static let constants: Set<String> = ["now", "ON", "OFF", "OPEN", "CLOSED", "NULL", "UNDEF"]

    /// The rules of a `.rules` file. UIDs are `<file name without .rules>-<n>`, as openHAB names DSL rules.
    /// - Throws: ``RulesError`` `rules.dslSyntax` / `rules.dslUnsupported` / `rules.cron…`, located.
    public static func compile(_ text: String, file: String) throws(RulesError) -> [Rule] {
        var parser = try DSLParser(text, file: file)
        let syntax = try parser.parseFile()
        let globals = DSLFileGlobals(declarations: syntax.globals)
        var globalNames = Set<String>()
        for statement in syntax.globals {
            if case .declare(_, let name, let value, _) = statement {
                if let value { try check([.expression(value)], declared: globalNames) }
                globalNames.insert(name)
            }
        }
        let stem = NSStringLike(file).lastComponent.replacingSuffix(".rules")
        var rules: [Rule] = []
        for (index, rule) in syntax.rules.enumerated() {
            var triggers: [RuleTrigger] = []
            for (offset, (trigger, at)) in rule.triggers.enumerated() {
                triggers.append(RuleTrigger(id: String(offset + 1), try map(trigger, at)))
            }
            let referenced = try check(rule.body, declared: globalNames.union(implicitNames))
            let script = DSLRuleScript(source: rule.bodyText, body: rule.body, globals: globals, referencedItems: referenced)
            var compiled = Rule(uid: "\(stem)-\(index + 1)", name: rule.name, triggers: triggers,
                                actions: [RuleAction(id: "script", .script(script))], source: "\(file):\(rule.location.line)")
            compiled.isEditable = false
            rules.append(compiled)
        }
        return rules
    }

    /// A `script.ScriptAction` / `script.ScriptCondition` body of a UI rule (`location` names its JSON place).
    public static func compileScript(_ text: String, location: String) throws(RulesError) -> any RuleScript {
        var parser = try DSLParser(text, file: location)
        let body = try parser.parseScript()
        let referenced = try check(body, declared: Set(implicitNames))
        return DSLRuleScript(source: text, body: body, globals: DSLFileGlobals(declarations: []), referencedItems: referenced)
    }

    private static func map(_ trigger: DSLTriggerSyntax, _ at: DSLLocation) throws(RulesError) -> RuleTrigger.Kind {
        switch trigger {
        case .itemCommand(let item, let command, let member):
            return member ? .groupCommand(group: item, command: command) : .itemCommand(ItemNamePattern(item), command: command)
        case .itemUpdate(let item, let state, let member):
            return member ? .groupStateUpdate(group: item, state: state) : .itemStateUpdate(ItemNamePattern(item), state: state)
        case .itemChanged(let item, let from, let to, let member):
            return member ? .groupStateChange(group: item, previousState: from, state: to)
                : .itemStateChange(ItemNamePattern(item), previousState: from, state: to)
        case .cron(let text):
            do { return .cron(try CronExpression(text)) } catch {
                throw RulesError(error.code, "\(at): \(error.message)", hint: error.hint)
            }
        case .timeOfDay(let hour, let minute):
            do { return .cron(try CronExpression("0 \(minute) \(hour) * * ? *")) } catch {
                throw RulesError(error.code, "\(at): \(error.message)", hint: error.hint)
            }
        case .dateTime(let item, let timeOnly, let offset):
            return .dateTime(item: item, timeOnly: timeOnly, offsetSeconds: offset)
        case .systemStarted:
            return .systemStartlevel(40)
        case .thingChanged(let thing, let from, let to):
            let known = ThingStatus.allCases.map(\.rawValue)
            for status in [from, to].compactMap({ $0 }) where !known.contains(status) {
                throw RulesError(.dslSyntax, "\(at): \(status) is not a Thing status; use one of \(known.joined(separator: ", ")).")
            }
            return .thingStatusChange(thing: thing, previousStatus: from, status: to)
        }
    }

    // MARK: Checks before any run

    /// Checks names and calls; returns the names that must be Items (free names of the body).
    @discardableResult
    static func check(_ statements: [DSLStmt], declared: Set<String>) throws(RulesError) -> [String] {
        var scope = declared
        var items: [String] = []
        for statement in statements { try check(statement, &scope, &items) }
        return items
    }

    private static func check(_ statement: DSLStmt, _ scope: inout Set<String>, _ items: inout [String]) throws(RulesError) {
        switch statement {
        case .declare(_, let name, let value, _):
            if let value { try check(value, scope, &items) }
            scope.insert(name)
        case .assign(let name, _, let value, let at):
            guard scope.contains(name) else {
                throw RulesError(.dslSyntax, "\(at): \(name) is assigned but never declared; declare it with var.")
            }
            try check(value, scope, &items)
        case .ifElse(let condition, let then, let otherwise, _):
            try check(condition, scope, &items)
            var inner = scope
            for s in then { try check(s, &inner, &items) }
            inner = scope
            for s in otherwise ?? [] { try check(s, &inner, &items) }
        case .whileLoop(let condition, let body, _):
            try check(condition, scope, &items)
            var inner = scope
            for s in body { try check(s, &inner, &items) }
        case .expression(let e):
            try check(e, scope, &items)
        case .returnValue(let e, _):
            if let e { try check(e, scope, &items) }
        case .block(let body):
            var inner = scope
            for s in body { try check(s, &inner, &items) }
        }
    }

    private static func check(_ expr: DSLExpr, _ scope: Set<String>, _ items: inout [String]) throws(RulesError) {
        switch expr {
        case .number, .quantity, .string, .bool, .null:
            break
        case .name(let name, _):
            if !scope.contains(name), !constants.contains(name), !items.contains(name) { items.append(name) }
        case .member(let receiver, _, _):
            try check(receiver, scope, &items)
        case .call(let callee, let arguments, let at):
            switch callee {
            case .name(let name, _):
                guard functions.contains(name) else {
                    throw RulesError(.dslUnsupported, "\(at): \(name)(…) is not in the DSL subset the twin runs.",
                                     hint: "a body may call sendCommand, postUpdate, createTimer and logInfo/logWarn/logError/logDebug, and Item, number, time and timer methods.")
                }
                // sendCommand("Item", …) names an Item by text.
                if name == "sendCommand" || name == "postUpdate", case .string(let item, _)? = arguments.first, !items.contains(item) {
                    items.append(item)
                }
            default:
                try check(callee, scope, &items)
            }
            for a in arguments { try check(a, scope, &items) }
        case .unary(_, let e, _), .cast(let e, _, _):
            try check(e, scope, &items)
        case .binary(_, let l, let r, _):
            try check(l, scope, &items)
            try check(r, scope, &items)
        case .lambda(let body, _):
            var inner = scope
            for s in body { try check(s, &inner, &items) }
        case .conditional(let c, let t, let o, _):
            try check(c, scope, &items)
            try check(t, scope, &items)
            if let o { try check(o, scope, &items) }
        }
    }
}

/// A file's globals: declared once, evaluated at the first run of any rule of the file, shared by all.
final class DSLFileGlobals: Sendable {
    let declarations: [DSLStmt]
    let scope = DSLScope(parent: nil)
    private let initialized = Mutex(false)

    init(declarations: [DSLStmt]) { self.declarations = declarations }

    func prepare(_ interpreter: DSLInterpreter) async {
        guard initialized.withLock({ let first = !$0; $0 = true; return first }) else { return }
        do {
            _ = try await interpreter.run(declarations, in: scope)
        } catch let flow as DSLFlow {
            interpreter.report(flow)
        } catch {}
    }
}

/// A DSL rule body (or a UI rule's DSL script) as the engine runs it.
struct DSLRuleScript: RuleScript {
    let source: String
    let body: [DSLStmt]
    let globals: DSLFileGlobals
    let referencedItems: [String]

    func run(_ execution: RuleExecution) async {
        _ = await evaluate(execution)
    }

    func holds(_ execution: RuleExecution) async -> Bool {
        if case .bool(let b)? = await evaluate(execution) { return b }
        return false
    }

    /// Runs the body; its value is that of a `return` or of the last statement.
    private func evaluate(_ execution: RuleExecution) async -> DSLValue? {
        let interpreter = DSLInterpreter(execution: execution, rule: execution.rule, globals: globals.scope)
        await globals.prepare(interpreter)
        let locals = DSLScope(parent: nil)
        let event = execution.event
        for name in DSLCompiler.implicitNames { locals.declare(name, .null) }
        if let command = event.command { locals.declare("receivedCommand", command.impliedState.map(DSLValue.state) ?? .string(command.description)) }
        if let state = event.newState { locals.declare("newState", .state(state)) }
        if let state = event.previousState { locals.declare("previousState", .state(state)) }
        if let item = event.itemName {
            locals.declare("triggeringItemName", .string(item))
            locals.declare("triggeringItem", .item(item))
        }
        if let group = event.groupName {
            locals.declare("triggeringGroupName", .string(group))
            locals.declare("triggeringGroup", .item(group))
        }
        if let thing = event.thingUID { locals.declare("triggeringThing", .string(thing)) }
        if let status = event.thingStatus { locals.declare("newStatus", .string(status)) }
        if let status = event.previousThingStatus { locals.declare("previousStatus", .string(status)) }
        do {
            return try await interpreter.run(body, in: locals)
        } catch let flow as DSLFlow {
            if case .returned(let value) = flow { return value }
            interpreter.report(flow)
            return nil
        } catch {
            return nil
        }
    }
}

/// The last path component of a file path, without Foundation.
private struct NSStringLike {
    let path: String
    var lastComponent: String { path.split(separator: "/").last.map(String.init) ?? path }
}

private extension String {
    func replacingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}

private extension NSStringLike {
    init(_ path: String) { self.path = path }
}
