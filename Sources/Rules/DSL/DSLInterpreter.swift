import Foundation
import Simulation
import SmartHome
import Synchronization

/// How a body stops early: `return`, a Java exception (catchable by `catch`), or an end the twin imposes
/// (a budget; not catchable). Exceptions not caught end the run and are logged as openHAB logs them.
enum DSLFlow: Error {
    case returned(DSLValue?)
    /// A run-time error Java would throw (`NullPointerException`, `ArithmeticException`, …): type, message.
    case failure(String, DSLLocation, type: String = "RuntimeException")
    /// `throw value`.
    case thrown(DSLValue, DSLLocation)
    /// A budget ran out: the run ends whatever `catch` says.
    case fatal(String, DSLLocation)
}

/// The work a run may do: one counter per run (``DSLLimits/maxStepsPerRun``).
final class DSLBudget: Sendable {
    let steps = Atomic<Int>(0)
}

/// Runs DSL statements against a rule run (``RuleExecution``): Items, commands, the clock, timers, the log.
/// Functions, static members and methods are looked up in ``DSLLibrary``'s tables.
struct DSLInterpreter: Sendable {
    let execution: RuleExecution
    /// The rule the body belongs to (timers run later as runs of it).
    let rule: Rule
    let globals: DSLScope
    let budget: DSLBudget
    /// The fiber the run is on, when its file calls `Thread::sleep` (else runs cannot pause).
    let fiber: DSLFiber?

    /// The script files `callScript` runs, and how deep in such calls this interpreter is.
    let scripts: DSLScripts
    let scriptDepth: Int

    /// The names the checker resolved to Items in this body (a name that is no variable and no `it` member
    /// is then an Item without asking the registry; one it did not resolve is looked up as before).
    let knownItems: Set<String>

    init(execution: RuleExecution, rule: Rule, globals: DSLScope, fiber: DSLFiber? = nil, budget: DSLBudget = DSLBudget(),
         scripts: DSLScripts = .none, scriptDepth: Int = 0, knownItems: Set<String> = []) {
        self.knownItems = knownItems
        self.execution = execution
        self.rule = rule
        self.globals = globals
        self.fiber = fiber
        self.budget = budget
        self.scripts = scripts
        self.scriptDepth = scriptDepth
    }

    /// Counts one step of work; a run past its budget ends (a loop that never ends would stall the clock).
    @inline(__always)
    func tick(_ at: DSLLocation) throws(DSLFlow) {
        let n = budget.steps.add(1, ordering: .relaxed).newValue
        if n > DSLLimits.maxStepsPerRun {
            throw DSLFlow.fatal("the run did more than \(DSLLimits.maxStepsPerRun) steps of work without ending (a loop that never ends?); it was ended (rules.dslBudget)", at)
        }
    }

    // MARK: Statements

    func run(_ statements: [DSLStmt], in scope: DSLScope) async throws(DSLFlow) -> DSLValue? {
        var last: DSLValue?
        for statement in statements { last = try await run(statement, in: scope) }
        return last
    }

    private func run(_ statement: DSLStmt, in scope: DSLScope) async throws(DSLFlow) -> DSLValue? {
        switch statement {
        case .declare(let mutable, let name, let type, let value, let at):
            try tick(at)
            var initial = DSLValue.null
            if let value { initial = try await eval(value, scope) }
            if let type, case .int(let n) = initial, ["Double", "double", "Float", "float"].contains(type) { initial = .number(Double(n)) }
            // A number literal typed by the declaration (XbaseInterpreter: the expected type picks the literal's class).
            if type == "BigDecimal", let d = initial.javaDecimal { initial = .decimal(d) }
            if let type, case .number(let n) = initial, ["Integer", "int", "Long", "long"].contains(type) { initial = .int(Int64(saturating: n)) }
            scope.declare(name, initial, mutable: mutable)
            return nil
        case .ifElse(let condition, let then, let otherwise, let at):
            if try truth(try await eval(condition, scope), at) {
                return try await run(then, in: blockScope(then, scope))
            } else if let otherwise {
                return try await run(otherwise, in: blockScope(otherwise, scope))
            }
            return nil
        case .whileLoop(let condition, let body, let at):
            while try truth(try await eval(condition, scope), at) {
                try tick(at)
                _ = try await run(body, in: blockScope(body, scope))
            }
            return nil
        case .doWhile(let body, let condition, let at):
            repeat {
                try tick(at)
                _ = try await run(body, in: blockScope(body, scope))
            } while try truth(try await eval(condition, scope), at)
            return nil
        case .forEach(let name, let iterableExpr, let body, let at):
            let iterable = try await eval(iterableExpr, scope)
            for element in try elements(of: iterable, at) {
                try tick(at)
                let inner = DSLScope(parent: scope)
                inner.declare(name, element, mutable: false)
                _ = try await run(body, in: inner)
            }
            return nil
        case .forLoop(let initial, let condition, let updates, let body, let at):
            let loopScope = DSLScope(parent: scope)
            _ = try await run(initial, in: loopScope)
            while try condition == nil ? true : truth(try await eval(condition!, loopScope), at) {
                try tick(at)
                _ = try await run(body, in: blockScope(body, loopScope))
                for update in updates { _ = try await eval(update, loopScope) }
            }
            return nil
        case .tryCatch(let body, let catches, let finally, _):
            var result: DSLValue?
            do {
                result = try await run(body, in: blockScope(body, scope))
            } catch {
                let caught: DSLValue?
                switch error {
                case .failure(let message, _, let type): caught = .exception(type: type, message: message)
                case .thrown(let value, _): caught = value
                case .returned, .fatal: caught = nil
                }
                guard let caught, let handler = catches.first(where: { Self.catches($0.type, caught) }) else {
                    if let finally { _ = try await run(finally, in: DSLScope(parent: scope)) }
                    throw error
                }
                let inner = DSLScope(parent: scope)
                inner.declare(handler.name, caught, mutable: false)
                do {
                    result = try await run(handler.body, in: inner)
                } catch {
                    if let finally { _ = try await run(finally, in: DSLScope(parent: scope)) }
                    throw error
                }
            }
            if let finally { _ = try await run(finally, in: DSLScope(parent: scope)) }
            return result
        case .throwValue(let e, let at):
            let value = try await eval(e, scope)
            if case .null = value { throw DSLFlow.failure("throw null", at, type: "NullPointerException") }
            throw DSLFlow.thrown(value, at)
        case .expression(let e):
            return try await eval(e, scope)
        case .returnValue(let e, _):
            var value: DSLValue?
            if let e { value = try await eval(e, scope) }
            throw DSLFlow.returned(value)
        case .block(let statements):
            return try await run(statements, in: blockScope(statements, scope))
        }
    }

    /// The scope a block runs in: a new one when it declares a variable (`val`/`var` among its statements),
    /// else its parent's — a block without declarations adds no names, so nothing can tell them apart (a
    /// lambda written in it captures the same variables either way).
    @inline(__always)
    private func blockScope(_ statements: [DSLStmt], _ parent: DSLScope) -> DSLScope {
        for statement in statements { if case .declare = statement { return DSLScope(parent: parent) } }
        return parent
    }

    /// Whether `catch (type e)` catches `value` (Exception and Throwable catch everything a run throws).
    static func catches(_ type: String, _ value: DSLValue) -> Bool {
        let thrownType: String
        if case .exception(let t, _) = value { thrownType = t } else { return type == "Throwable" || type == "Exception" || type == "Object" }
        return type.split(separator: "|").contains { t in
            t == "Throwable" || t == "Exception" || t == thrownType || (t == "RuntimeException" && thrownType != "Exception" && thrownType != "InterruptedException")
        }
    }

    /// The elements `for` and the collection extensions walk: a list, a set, a map's entries… or a Group's members.
    func elements(of value: DSLValue, _ at: DSLLocation) throws(DSLFlow) -> [DSLValue] {
        switch value {
        case .list(let l): return l.values
        case .map(let m): return m.entries.map { .list(DSLList([$0.key, $0.value])) }
        case .null: throw DSLFlow.failure("cannot iterate over null", at, type: "NullPointerException")
        default: throw DSLFlow.failure("cannot iterate over \(value.kindName)", at, type: "ClassCastException")
        }
    }

    // MARK: Expressions

    func eval(_ expr: DSLExpr, _ scope: DSLScope) async throws(DSLFlow) -> DSLValue {
        switch expr {
        case .number(let n, let at):
            guard let value = Self.literal(n) else { throw DSLFlow.failure("\(n) is not a number", at, type: "NumberFormatException") }
            return value
        case .quantity(let n, let unit, let at):
            guard let q = Quantity(parsing: "\(n) \(unit)") else { throw DSLFlow.failure("\(n)|\(unit) is not a quantity the twin knows", at) }
            return .quantity(q)
        case .string(let s, _): return .string(s)
        case .bool(let b, _): return .bool(b)
        case .null: return .null
        case .name(let name, let at): return try await resolve(name, scope, at)
        case .lambda(let syntax, _): return .lambda(DSLClosure(syntax: syntax, scope: scope))
        case .unary(let op, let operand, let at):
            try tick(at)
            let value = try await eval(operand, scope)
            if op == "!" { return .bool(!(try truth(value, at))) }
            if op == "+" { return value }
            if case .int(let n) = value { return .int(0 &- n) }
            return try DSLOperators.negate(value, at)
        case .binary(let op, let l, let r, let at):
            try tick(at)
            switch op {
            case "&&":
                guard try truth(try await eval(l, scope), at) else { return .bool(false) }
                return .bool(try truth(try await eval(r, scope), at))
            case "||":
                if try truth(try await eval(l, scope), at) { return .bool(true) }
                return .bool(try truth(try await eval(r, scope), at))
            case "?:":
                let left = try await eval(l, scope)
                if case .null = left { return try await eval(r, scope) }
                return left
            default:
                let left = try await eval(l, scope), right = try await eval(r, scope)
                return try DSLOperators.apply(op, left, right, at, self)
            }
        case .cast(let inner, let type, let at):
            return try DSLOperators.cast(try await eval(inner, scope), to: type, at, self)
        case .instanceOf(let inner, let type, _):
            return .bool(DSLOperators.isInstance(try await eval(inner, scope), of: type))
        case .conditional(let condition, let then, let otherwise, let at):
            if try truth(try await eval(condition, scope), at) { return try await eval(then, scope) }
            guard let otherwise else { return .null }
            return try await eval(otherwise, scope)
        case .switchOf(let subjectExpr, let cases, let otherwise, let at):
            let subject = try await eval(subjectExpr, scope)
            var matched = false
            for c in cases {
                try tick(c.location)
                if !matched {
                    if let type = c.type, !DSLOperators.isInstance(subject, of: type) { continue }
                    if let valueExpr = c.value {
                        let value = try await eval(valueExpr, scope)
                        if case .bool(let b) = value, !Self.isBool(subject) {
                            if !b { continue }  // a guard: `case x > 5`
                        } else if !DSLOperators.equal(subject, value) {
                            continue
                        }
                    }
                    matched = true
                }
                if let then = c.then { return try await eval(then, scope) }
            }
            _ = at
            if let otherwise { return try await eval(otherwise, scope) }
            return .null
        case .block(let statements, _):
            return try await run(statements, in: blockScope(statements, scope)) ?? .null
        case .collection(let kind, let elementExprs, let at):
            var values: [DSLValue] = []
            var pairs: [(DSLValue, DSLValue)] = []
            for e in elementExprs {
                if kind == .set, case .binary("->", let k, let v, _) = e {
                    pairs.append((try await eval(k, scope), try await eval(v, scope)))
                } else {
                    values.append(try await eval(e, scope))
                }
            }
            if !pairs.isEmpty {
                let map = DSLMap()
                for (k, v) in pairs { try DSLLibrary.put(map, k, v, at) }
                return .map(map)
            }
            if kind == .set {
                var unique: [DSLValue] = []
                for v in values where !unique.contains(where: { DSLOperators.equal($0, v) }) { unique.append(v) }
                return .list(DSLList(unique, isSet: true))
            }
            return .list(DSLList(values))
        case .new(let type, let argumentExprs, let at):
            try tick(at)
            var arguments: [DSLValue] = []
            for a in argumentExprs { arguments.append(try await eval(a, scope)) }
            return try await DSLLibrary.construct(type, arguments, at, self)
        case .assign(let target, let op, let valueExpr, let at):
            try tick(at)
            var value = try await eval(valueExpr, scope)
            if op != "=" {
                let old = try await eval(target, scope)
                value = try DSLOperators.apply(String(op.dropLast()), old, value, at, self)
            }
            try await store(value, into: target, scope, at)
            return value
        case .step(let target, let op, let at):
            try tick(at)
            let old = try await eval(target, scope)
            let new = try DSLOperators.apply(op == "++" ? "+" : "-", old, .int(1), at, self)
            try await store(new, into: target, scope, at)
            return old
        case .staticMember(let type, let member, let at):
            try tick(at)
            return try await DSLLibrary.staticAccess(type, member, nil, at, self)
        case .member(let receiverExpr, let name, let nullSafe, let at):
            try tick(at)
            let receiver = try await eval(receiverExpr, scope)
            if nullSafe, case .null = receiver { return Self.nullSafeDefault(name) }
            if case .type(let type) = receiver { return try await DSLLibrary.staticAccess(type, name, nil, at, self) }
            return try await DSLLibrary.invoke(receiver, name, [], at, self)
        case .call(let callee, let argumentExprs, let at):
            try tick(at)
            switch callee {
            case .member(let receiverExpr, let name, let nullSafe, let memberAt):
                let receiver = try await eval(receiverExpr, scope)
                if nullSafe, case .null = receiver { return Self.nullSafeDefault(name) }
                let arguments = try await evaluate(argumentExprs, scope)
                if case .type(let type) = receiver { return try await DSLLibrary.staticAccess(type, name, arguments, memberAt, self) }
                return try await DSLLibrary.invoke(receiver, name, arguments, memberAt, self)
            case .staticMember(let type, let member, let memberAt):
                return try await DSLLibrary.staticAccess(type, member, try await evaluate(argumentExprs, scope), memberAt, self)
            case .name(let name, let nameAt):
                // `now()`: the feature `now` with its empty parentheses (Xbase allows both forms).
                if argumentExprs.isEmpty, DSLLibrary.isZeroArgumentFeature(name), scope.lookup("it") == nil || !DSLLibrary.knowsMethod(name) {
                    return try await resolve(name, scope, nameAt)
                }
                let arguments = try await evaluate(argumentExprs, scope)
                // Xtend's implicit receiver: inside `[ … ]`, `sendCommand(ON)` is `it.sendCommand(ON)`.
                if let it = scope.lookup("it"), DSLLibrary.isImplicitReceiverCall(name, arguments.count) {
                    return try await DSLLibrary.invoke(it, name, arguments, at, self)
                }
                return try await DSLLibrary.callFunction(name, arguments, at, self)
            default:
                throw DSLFlow.failure("only functions and methods can be called", at)
            }
        }
    }

    /// What `x?.member` gives when `x` is null: Xbase gives a primitive's default (`false`, `0`) for a
    /// member of primitive type (`XbaseCompiler`, null-safe feature calls), else null.
    static func nullSafeDefault(_ name: String) -> DSLValue {
        let bare = name.hasPrefix("get") ? String(name.dropFirst(3)) : name
        if name.hasPrefix("is") || name.hasPrefix("has") || ["running", "active", "cancelled", "terminated", "empty", "contains", "equals",
                                                            "startsWith", "endsWith", "exists", "forall", "containsKey", "matches"].contains(name) {
            return .bool(false)
        }
        if ["size", "length", "intValue", "longValue", "compareTo", "indexOf", "Hour", "Minute", "Second", "hour", "minute", "second"].contains(bare) { return .int(0) }
        if ["doubleValue", "floatValue"].contains(name) { return .number(0) }
        return .null
    }

    private static func isBool(_ v: DSLValue) -> Bool { if case .bool = v { true } else { false } }

    private func evaluate(_ exprs: [DSLExpr], _ scope: DSLScope) async throws(DSLFlow) -> [DSLValue] {
        var values: [DSLValue] = []
        values.reserveCapacity(exprs.count)
        for e in exprs { values.append(try await eval(e, scope)) }
        return values
    }

    /// `target = value` for a variable or a property (`Item.state = v` is not a property openHAB writes).
    private func store(_ value: DSLValue, into target: DSLExpr, _ scope: DSLScope, _ at: DSLLocation) async throws(DSLFlow) {
        switch target {
        case .name(let name, _):
            switch scope.assign(name, value) {
            case .assigned: return
            case .constant: throw DSLFlow.failure("\(name) is a val and cannot be assigned", at)
            case .missing:
                switch globals.assign(name, value) {
                case .assigned: return
                case .constant: throw DSLFlow.failure("\(name) is a val and cannot be assigned", at)
                case .missing: throw DSLFlow.failure("there is no variable \(name) to assign; declare it with var", at)
                }
            }
        case .member(let receiverExpr, let name, _, _):
            let receiver = try await eval(receiverExpr, scope)
            let setter = "set" + name.prefix(1).uppercased() + name.dropFirst()
            _ = try await DSLLibrary.invoke(receiver, setter, [value], at, self)
        default:
            throw DSLFlow.failure("only a variable or a property can be assigned", at)
        }
    }

    /// An Xbase number literal: `21` int, `10L` long, `21.5`/`1e3`/`1.5d` double, `0.1bd` BigDecimal.
    static func literal(_ text: String) -> DSLValue? {
        if text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let n = Int64(text) { return .int(n) }  // the common case, fast
        var t = text.contains("_") ? text.replacingOccurrences(of: "_", with: "") : text
        let lower = t.lowercased()
        if lower.hasPrefix("0x") {
            let digits = lower.dropFirst(2).filter { $0 != "l" }
            return Int64(digits, radix: 16).map(DSLValue.int)
        }
        var isDecimal = t.contains(".") || lower.contains("e")
        if lower.hasSuffix("bd") { t.removeLast(2); return JavaDecimal(parsing: t).map(DSLValue.decimal) }
        if lower.hasSuffix("bi") { t.removeLast(2) }
        else if lower.hasSuffix("d") || lower.hasSuffix("f") { t.removeLast(); isDecimal = true }
        else if lower.hasSuffix("l") { t.removeLast() }
        if !isDecimal, let n = Int64(t) { return .int(n) }
        guard let d = Double(t), d.isFinite else { return nil }
        return .number(d)
    }

    /// A name: a variable, an implicit variable, a state constant, `now`, a type, or an Item.
    private func resolve(_ name: String, _ scope: DSLScope, _ at: DSLLocation) async throws(DSLFlow) -> DSLValue {
        if let value = scope.lookup(name) { return value }
        // An implicit variable the trigger did not set (the run's scope holds only those it set).
        if DSLCompiler.implicitNames.contains(name) { return .null }
        if let value = globals.lookup(name) { return value }
        // Xtend's implicit receiver: inside `[ … ]` a bare `name` is `it.name` when `it` has it.
        let isMethod = DSLLibrary.knowsMethod(name)
        if isMethod, let it = scope.lookup("it") { return try await DSLLibrary.invoke(it, name, [], at, self) }
        if !isMethod, knownItems.contains(name) { return .item(name) }
        if let constant = DSLLibrary.constants[name] { return constant }
        // A function without parentheses (`newArrayList`, `newHashMap`): Xbase calls it.
        if let f = DSLLibrary.functions[name] { return try await DSLLibrary.typed(at) { try await f(self, [], at) } }
        if name == "now" { return .instant(execution.now) }
        if execution.itemType(name) != nil { return .item(name) }
        if DSLLibrary.staticTypes[name] != nil || DSLLibrary.knownTypes.contains(name) { return .type(name) }
        throw DSLFlow.failure("there is no variable or Item called \(name)", at)
    }

    // MARK: Lambdas

    /// Calls a lambda with arguments (its parameters, or `it` for one implicit parameter).
    func call(_ closure: DSLClosure, _ args: [DSLValue], _ at: DSLLocation) async throws(DSLFlow) -> DSLValue {
        try tick(at)
        let scope: DSLScope
        if closure.syntax.implicitIt {
            scope = DSLScope(parent: closure.scope, constants: args.first.map { [("it", $0)] } ?? [])
        } else {
            guard closure.syntax.parameters.count == args.count else {
                throw DSLFlow.failure("this lambda takes \(closure.syntax.parameters.count) argument(s), not \(args.count)", at, type: "IllegalArgumentException")
            }
            scope = DSLScope(parent: closure.scope, constants: Array(zip(closure.syntax.parameters, args)))
        }
        do {
            return try await run(closure.syntax.body, in: scope) ?? .null
        } catch {
            if case .returned(let value) = error { return value ?? .null }
            throw error
        }
    }

    // MARK: Helpers

    func truth(_ value: DSLValue, _ at: DSLLocation) throws(DSLFlow) -> Bool {
        switch value {
        case .bool(let b): return b
        case .null: throw DSLFlow.failure("a condition is null", at, type: "NullPointerException")
        default: throw DSLFlow.failure("a condition must be true or false, not \(value.kindName)", at, type: "ClassCastException")
        }
    }

    /// Xtend's `toString` of a value: an instant as `ZonedDateTime.toString` in the scenario's zone.
    func describe(_ value: DSLValue) -> String { describe(value, depth: 0) }

    /// Java's `AbstractCollection`/`AbstractMap.toString`: a collection inside itself prints `(this Collection)` /
    /// `(this Map)`; deeper cycles (a StackOverflowError in Java) stop at ``DSLValue/maxTextDepth`` as `…`.
    private func describe(_ value: DSLValue, depth: Int) -> String {
        guard depth < DSLValue.maxTextDepth else { return "…" }
        switch value {
        case .instant(let t): return zonedText(t)
        case .list(let l):
            return "[" + l.values.map { if case .list(let x) = $0, x === l { "(this Collection)" } else { describe($0, depth: depth + 1) } }.joined(separator: ", ") + "]"
        case .map(let m):
            func part(_ v: DSLValue) -> String { if case .map(let x) = v, x === m { "(this Map)" } else { describe(v, depth: depth + 1) } }
            return "{" + m.entries.map { "\(part($0.key))=\(part($0.value))" }.joined(separator: ", ") + "}"
        default: return value.text(depth: depth)
        }
    }

    /// `ZonedDateTime.toString`: `2026-11-21T08:00+01:00[Europe/Berlin]` (seconds and fraction only when not zero).
    func zonedText(_ t: SimInstant) -> String {
        let calendar = execution.calendar
        let local = calendar.localDateTime(at: t)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var text = "\(local.date)T\(two(local.time.hour)):\(two(local.time.minute))"
        if local.time.second != 0 || local.time.millisecond != 0 { text += ":\(two(local.time.second))" }
        if local.time.millisecond != 0 { text += "." + String(String(local.time.millisecond + 1_000).dropFirst()) }
        let minutes = Int(calendar.offset(at: t).milliseconds / 60_000)
        text += minutes == 0 ? "Z" : "\(minutes < 0 ? "-" : "+")\(two(abs(minutes) / 60)):\(two(abs(minutes) % 60))"
        return text + "[\(calendar.identifier)]"
    }

    /// Records a run-time error for the run log (openHAB logs it and ends the run).
    func report(_ flow: DSLFlow) {
        switch flow {
        case .failure(let message, let at, let type):
            execution.record("error: \(at): \(message) (\(type == "RuntimeException" ? "" : "\(type), ")rules.dslRuntime)")
        case .thrown(let value, let at):
            execution.record("error: \(at): uncaught \(value.text) (rules.dslRuntime)")
        case .fatal(let message, let at):
            execution.record("error: \(at): \(message)")
        case .returned:
            break
        }
    }
}
