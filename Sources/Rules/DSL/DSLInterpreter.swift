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
///
/// A class of constants, not a struct: the library's methods take it as an argument and closures capture it
/// many times per run, and a copy of a struct of eight references was eight retains and releases each time.
final class DSLInterpreter: Sendable {
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
    let knownItems: DSLKnownItems
    /// Where statements and branches are counted (`--coverage`), else `nil`.
    let coverage: RuleCoverage?

    init(execution: RuleExecution, rule: Rule, globals: DSLScope, fiber: DSLFiber? = nil, budget: DSLBudget = DSLBudget(),
         scripts: DSLScripts = .none, scriptDepth: Int = 0, knownItems: DSLKnownItems = .none) {
        self.knownItems = knownItems
        self.coverage = execution.engine.coverage
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
        if n & 0xFFFF == 0, Task.isCancelled {  // Ctrl-C: a long run ends within milliseconds (Docs/RULES.md, "Budgets")
            throw DSLFlow.fatal("the run was cancelled (Ctrl-C) (rules.cancelled)", at)
        }
        if n > DSLLimits.maxStepsPerRun {
            throw DSLFlow.fatal("the run did more than \(DSLLimits.maxStepsPerRun) steps of work without ending (a loop that never ends?); it was ended (rules.dslBudget)", at)
        }
    }

    // MARK: Statements

    /// Runs statements none of which may pause (the synchronous walk: everything ``DSLSuspension`` did not mark).
    func run(_ statements: [DSLStmt], in scope: DSLScope) throws(DSLFlow) -> DSLValue? {
        var last: DSLValue?
        for statement in statements { last = try run(statement, in: scope) }
        return last
    }

    private func run(_ statement: DSLStmt, in scope: DSLScope) throws(DSLFlow) -> DSLValue? {
        if let coverage, !statement.isBlock { coverage.ran(Self.location(of: statement)) }
        switch statement {
        case .declare(let mutable, let name, let type, let value, let at):
            try tick(at)
            declare(name, type, mutable, value == nil ? .null : try eval(value!, scope), scope)
            return nil
        case .ifElse(let condition, let then, let otherwise, let at):
            let holds = try truth(try eval(condition, scope), at)
            coverage?.took(holds ? 0 : 1, at: at)
            if holds {
                return try run(then, in: blockScope(then, scope))
            } else if let otherwise {
                return try run(otherwise, in: blockScope(otherwise, scope))
            }
            return nil
        case .whileLoop(let condition, let body, let at):
            while try truth(try eval(condition, scope), at) {
                try tick(at)
                _ = try run(body, in: blockScope(body, scope))
            }
            return nil
        case .doWhile(let body, let condition, let at):
            repeat {
                try tick(at)
                _ = try run(body, in: blockScope(body, scope))
            } while try truth(try eval(condition, scope), at)
            return nil
        case .forEach(let name, let iterableExpr, let body, let at):
            for element in try elements(of: try eval(iterableExpr, scope), at) {
                try tick(at)
                _ = try run(body, in: DSLScope(parent: scope, name: name, value: element))
            }
            return nil
        case .forLoop(let initial, let condition, let updates, let body, let at):
            let loopScope = DSLScope(parent: scope)
            _ = try run(initial, in: loopScope)
            while try condition == nil ? true : truth(try eval(condition!, loopScope), at) {
                try tick(at)
                _ = try run(body, in: blockScope(body, loopScope))
                for update in updates { _ = try eval(update, loopScope) }
            }
            return nil
        case .tryCatch(let body, let catches, let finally, _):
            var result: DSLValue?
            do {
                result = try run(body, in: blockScope(body, scope))
            } catch {
                guard let (handler, inner) = Self.handler(for: error, in: catches, scope) else {
                    if let finally { _ = try run(finally, in: DSLScope(parent: scope)) }
                    throw error
                }
                do {
                    result = try run(handler.body, in: inner)
                } catch {
                    if let finally { _ = try run(finally, in: DSLScope(parent: scope)) }
                    throw error
                }
            }
            if let finally { _ = try run(finally, in: DSLScope(parent: scope)) }
            return result
        case .throwValue(let e, let at):
            throw Self.thrown(try eval(e, scope), at)
        case .expression(let e):
            return try eval(e, scope)
        case .returnValue(let e, _):
            throw DSLFlow.returned(e == nil ? nil : try eval(e!, scope))
        case .block(let statements):
            return try run(statements, in: blockScope(statements, scope))
        case .awaiting(let inner):
            throw DSLLibrary.unmarked("this statement", Self.location(of: inner))
        }
    }

    /// Runs statements some of which may pause (the suspending walk: it runs what ``DSLSuspension`` marked
    /// and hands every statement and expression it did not mark to the synchronous walk).
    func runSuspending(_ statements: [DSLStmt], in scope: DSLScope) async throws(DSLFlow) -> DSLValue? {
        var last: DSLValue?
        for statement in statements { last = try await runSuspending(statement, in: scope) }
        return last
    }

    private func runSuspending(_ statement: DSLStmt, in scope: DSLScope) async throws(DSLFlow) -> DSLValue? {
        guard case .awaiting(let marked) = statement else { return try run(statement, in: scope) }
        if let coverage, !marked.isBlock { coverage.ran(Self.location(of: marked)) }
        switch marked {
        case .declare(let mutable, let name, let type, let value, let at):
            try tick(at)
            declare(name, type, mutable, value == nil ? .null : try await evalSuspending(value!, scope), scope)
            return nil
        case .ifElse(let condition, let then, let otherwise, let at):
            let holds = try truth(try await evalSuspending(condition, scope), at)
            coverage?.took(holds ? 0 : 1, at: at)
            if holds {
                return try await runSuspending(then, in: blockScope(then, scope))
            } else if let otherwise {
                return try await runSuspending(otherwise, in: blockScope(otherwise, scope))
            }
            return nil
        case .whileLoop(let condition, let body, let at):
            while try truth(try await evalSuspending(condition, scope), at) {
                try tick(at)
                _ = try await runSuspending(body, in: blockScope(body, scope))
            }
            return nil
        case .doWhile(let body, let condition, let at):
            repeat {
                try tick(at)
                _ = try await runSuspending(body, in: blockScope(body, scope))
            } while try truth(try await evalSuspending(condition, scope), at)
            return nil
        case .forEach(let name, let iterableExpr, let body, let at):
            for element in try elements(of: try await evalSuspending(iterableExpr, scope), at) {
                try tick(at)
                _ = try await runSuspending(body, in: DSLScope(parent: scope, name: name, value: element))
            }
            return nil
        case .forLoop(let initial, let condition, let updates, let body, let at):
            let loopScope = DSLScope(parent: scope)
            _ = try await runSuspending(initial, in: loopScope)
            while try condition == nil ? true : truth(try await evalSuspending(condition!, loopScope), at) {
                try tick(at)
                _ = try await runSuspending(body, in: blockScope(body, loopScope))
                for update in updates { _ = try await evalSuspending(update, loopScope) }
            }
            return nil
        case .tryCatch(let body, let catches, let finally, _):
            var result: DSLValue?
            do {
                result = try await runSuspending(body, in: blockScope(body, scope))
            } catch {
                guard let (handler, inner) = Self.handler(for: error, in: catches, scope) else {
                    if let finally { _ = try await runSuspending(finally, in: DSLScope(parent: scope)) }
                    throw error
                }
                do {
                    result = try await runSuspending(handler.body, in: inner)
                } catch {
                    if let finally { _ = try await runSuspending(finally, in: DSLScope(parent: scope)) }
                    throw error
                }
            }
            if let finally { _ = try await runSuspending(finally, in: DSLScope(parent: scope)) }
            return result
        case .throwValue(let e, let at):
            throw Self.thrown(try await evalSuspending(e, scope), at)
        case .expression(let e):
            return try await evalSuspending(e, scope)
        case .returnValue(let e, _):
            throw DSLFlow.returned(e == nil ? nil : try await evalSuspending(e!, scope))
        case .block(let statements):
            return try await runSuspending(statements, in: blockScope(statements, scope))
        case .awaiting(let inner):
            return try await runSuspending(inner, in: scope)
        }
    }

    /// `val`/`var name: type = initial`: a number literal typed by the declaration (XbaseInterpreter: the
    /// expected type picks the literal's class).
    private func declare(_ name: String, _ type: String?, _ mutable: Bool, _ value: DSLValue, _ scope: DSLScope) {
        var initial = value
        if let type {
            if case .int(let n) = initial, ["Double", "double", "Float", "float"].contains(type) { initial = .number(Double(n)) }
            if type == "BigDecimal", let d = initial.javaDecimal { initial = .decimal(d) }
            if case .number(let n) = initial, ["Integer", "int", "Long", "long"].contains(type) { initial = .int(Int64(saturating: n)) }
        }
        scope.declare(name, initial, mutable: mutable)
    }

    /// The `catch` that catches what a `try` body threw, with the scope its body runs in.
    private static func handler(for error: DSLFlow, in catches: [DSLCatch], _ scope: DSLScope) -> (DSLCatch, DSLScope)? {
        let caught: DSLValue
        switch error {
        case .failure(let message, _, let type): caught = .exception(type: type, message: message)
        case .thrown(let value, _): caught = value
        case .returned, .fatal: return nil
        }
        guard let handler = catches.first(where: { Self.catches($0.type, caught) }) else { return nil }
        return (handler, DSLScope(parent: scope, constants: [(handler.name, caught)]))
    }

    /// `throw value`.
    private static func thrown(_ value: DSLValue, _ at: DSLLocation) -> DSLFlow {
        if case .null = value { return DSLFlow.failure("throw null", at, type: "NullPointerException") }
        return DSLFlow.thrown(value, at)
    }

    private static func location(of statement: DSLStmt) -> DSLLocation {
        switch statement {
        case .declare(_, _, _, _, let at), .ifElse(_, _, _, let at), .whileLoop(_, _, let at), .doWhile(_, _, let at), .forEach(_, _, _, let at),
             .forLoop(_, _, _, _, let at), .tryCatch(_, _, _, let at), .throwValue(_, let at), .returnValue(_, let at):
            return at
        case .expression(let e): return e.location
        case .block(let statements): return statements.first.map(location(of:)) ?? DSLLocation(file: "", line: 0, column: 0)
        case .awaiting(let inner): return location(of: inner)
        }
    }

    /// The scope a block runs in: a new one when it declares a variable (`val`/`var` among its statements),
    /// else its parent's — a block without declarations adds no names, so nothing can tell them apart (a
    /// lambda written in it captures the same variables either way).
    @inline(__always)
    private func blockScope(_ statements: [DSLStmt], _ parent: DSLScope) -> DSLScope {
        for statement in statements {
            if case .declare = statement { return DSLScope(parent: parent) }
            if case .awaiting(.declare) = statement { return DSLScope(parent: parent) }
        }
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

    /// Evaluates an expression that cannot pause (the synchronous walk).
    func eval(_ expr: DSLExpr, _ scope: DSLScope) throws(DSLFlow) -> DSLValue {
        switch expr {
        case .number(let n, let at):
            guard let value = Self.literal(n) else { throw DSLFlow.failure("\(n) is not a number", at, type: "NumberFormatException") }
            return value
        case .literal(let value, _): return value
        case .quantity(let n, let unit, let at):
            guard let q = Quantity(parsing: "\(n) \(unit)") else { throw DSLFlow.failure("\(n)|\(unit) is not a quantity the twin knows", at) }
            return .quantity(q)
        case .string(let s, _): return .string(s)
        case .bool(let b, _): return .bool(b)
        case .null: return .null
        case .name(let name, let at):
            switch try named(name, scope, at) {
            case .value(let value): return value
            case .itMember(let it): return try DSLLibrary.invoke(it, name, [], at, self)
            case .function: return try DSLLibrary.callFunction(name, [], at, self)
            }
        case .feature(let f, let at):
            switch try feature(f, scope, at) {
            case .value(let value): return value
            case .itMember(let it): return try DSLLibrary.invoke(it, f.name, methods: f.methods, [], at, self)
            case .function: return try DSLLibrary.callFunction(f.name, [], at, self)
            }
        case .lambda(let syntax, _): return .lambda(DSLClosure(syntax: syntax, scope: scope))
        case .unary(let op, let operand, let at):
            try tick(at)
            return try unary(op, try eval(operand, scope), at)
        case .binary(let op, let l, let r, let at):
            try tick(at)
            if Self.shortCircuit(op) {
                let left = try eval(l, scope)
                switch op {
                case "&&":
                    guard try truth(left, at) else { return .bool(false) }
                    return .bool(try truth(try eval(r, scope), at))
                case "||":
                    if try truth(left, at) { return .bool(true) }
                    return .bool(try truth(try eval(r, scope), at))
                default:  // ?:
                    if case .null = left { return try eval(r, scope) }
                    return left
                }
            }
            let left = try eval(l, scope), right = try eval(r, scope)
            return try DSLOperators.apply(op, left, right, at, self)
        case .cast(let inner, let type, let at):
            return try DSLOperators.cast(try eval(inner, scope), to: type, at, self)
        case .instanceOf(let inner, let type, _):
            return .bool(DSLOperators.isInstance(try eval(inner, scope), of: type))
        case .conditional(let condition, let then, let otherwise, let at):
            let holds = try truth(try eval(condition, scope), at)
            coverage?.took(holds ? 0 : 1, at: at)
            if holds { return try eval(then, scope) }
            guard let otherwise else { return .null }
            return try eval(otherwise, scope)
        case .switchOf(let subjectExpr, let cases, let otherwise, let switchAt):
            let subject = try eval(subjectExpr, scope)
            var matched = false
            for (index, c) in cases.enumerated() {
                try tick(c.location)
                if !matched {
                    if let type = c.type, !DSLOperators.isInstance(subject, of: type) { continue }
                    if let valueExpr = c.value, !Self.matches(subject, try eval(valueExpr, scope)) { continue }
                    matched = true
                    coverage?.took(index, at: switchAt)
                }
                if let then = c.then { return try eval(then, scope) }
            }
            if !matched { coverage?.took(cases.count, at: switchAt) }
            if let otherwise { return try eval(otherwise, scope) }
            return .null
        case .block(let statements, _):
            return try run(statements, in: blockScope(statements, scope)) ?? .null
        case .collection(let kind, let elementExprs, let at):
            var values: [DSLValue] = []
            var pairs: [(DSLValue, DSLValue)] = []
            for e in elementExprs {
                if kind == .set, case .binary("->", let k, let v, _) = e.unmarked {
                    pairs.append((try eval(k, scope), try eval(v, scope)))
                } else {
                    values.append(try eval(e, scope))
                }
            }
            return try Self.collection(kind, values, pairs, at)
        case .new(let type, let argumentExprs, let at):
            try tick(at)
            return try DSLLibrary.construct(type, try evaluate(argumentExprs, scope), at, self)
        case .assign(let target, let op, let valueExpr, let at):
            try tick(at)
            var value = try eval(valueExpr, scope)
            if op != "=" { value = try DSLOperators.apply(String(op.dropLast()), try eval(target, scope), value, at, self) }
            try store(value, into: target, scope, at)
            return value
        case .step(let target, let op, let at):
            try tick(at)
            let old = try eval(target, scope)
            try store(try DSLOperators.apply(op == "++" ? "+" : "-", old, .int(1), at, self), into: target, scope, at)
            return old
        case .staticMember(let type, let member, let at):
            try tick(at)
            return try DSLLibrary.staticAccess(type, member, nil, at, self)
        case .member(let receiverExpr, let member, let nullSafe, let at):
            try tick(at)
            let receiver = try eval(receiverExpr, scope)
            if nullSafe, case .null = receiver { return Self.nullSafeDefault(member.name) }
            if case .type(let type) = receiver { return try DSLLibrary.staticAccess(type, member.name, nil, at, self) }
            return try DSLLibrary.invoke(receiver, member.name, methods: member.methods, [], at, self)
        case .call(let callee, let argumentExprs, let at):
            try tick(at)
            switch callee {
            case .member(let receiverExpr, let member, let nullSafe, let memberAt):
                let receiver = try eval(receiverExpr, scope)
                if nullSafe, case .null = receiver { return Self.nullSafeDefault(member.name) }
                let arguments = try evaluate(argumentExprs, scope)
                if case .type(let type) = receiver { return try DSLLibrary.staticAccess(type, member.name, arguments, memberAt, self) }
                return try DSLLibrary.invoke(receiver, member.name, methods: member.methods, arguments, memberAt, self)
            case .staticMember(let type, let member, let memberAt):
                return try DSLLibrary.staticAccess(type, member, try evaluate(argumentExprs, scope), memberAt, self)
            case .name(let name, let nameAt):
                switch Self.call(name, argumentExprs.count, scope) {
                case .feature: return try eval(.name(name, nameAt), scope)
                case .itMember(let it): return try DSLLibrary.invoke(it, name, try evaluate(argumentExprs, scope), at, self)
                case .function: return try DSLLibrary.callFunction(name, try evaluate(argumentExprs, scope), at, self)
                }
            default:
                throw DSLFlow.failure("only functions and methods can be called", at)
            }
        case .awaiting(let inner):
            throw DSLLibrary.unmarked("this expression", inner.location)
        }
    }

    /// Evaluates an expression that may pause (the suspending walk): one ``DSLSuspension`` marked; any other
    /// goes to the synchronous walk. Each construct's semantics are the synchronous walk's shared helpers.
    func evalSuspending(_ expr: DSLExpr, _ scope: DSLScope) async throws(DSLFlow) -> DSLValue {
        guard case .awaiting(let marked) = expr else { return try eval(expr, scope) }
        switch marked {
        case .number, .literal, .quantity, .string, .bool, .null, .lambda:
            return try eval(marked, scope)
        case .name(let name, let at):
            switch try named(name, scope, at) {
            case .value(let value): return value
            case .itMember(let it): return try await DSLLibrary.invokeSuspending(it, name, [], at, self)
            case .function: return try await DSLLibrary.callFunctionSuspending(name, [], at, self)
            }
        case .feature(let f, let at):
            switch try feature(f, scope, at) {
            case .value(let value): return value
            case .itMember(let it): return try await DSLLibrary.invokeSuspending(it, f.name, methods: f.methods, [], at, self)
            case .function: return try await DSLLibrary.callFunctionSuspending(f.name, [], at, self)
            }
        case .unary(let op, let operand, let at):
            try tick(at)
            return try unary(op, try await evalSuspending(operand, scope), at)
        case .binary(let op, let l, let r, let at):
            try tick(at)
            if Self.shortCircuit(op) {
                let left = try await evalSuspending(l, scope)
                switch op {
                case "&&":
                    guard try truth(left, at) else { return .bool(false) }
                    return .bool(try truth(try await evalSuspending(r, scope), at))
                case "||":
                    if try truth(left, at) { return .bool(true) }
                    return .bool(try truth(try await evalSuspending(r, scope), at))
                default:  // ?:
                    if case .null = left { return try await evalSuspending(r, scope) }
                    return left
                }
            }
            let left = try await evalSuspending(l, scope), right = try await evalSuspending(r, scope)
            return try DSLOperators.apply(op, left, right, at, self)
        case .cast(let inner, let type, let at):
            return try DSLOperators.cast(try await evalSuspending(inner, scope), to: type, at, self)
        case .instanceOf(let inner, let type, _):
            return .bool(DSLOperators.isInstance(try await evalSuspending(inner, scope), of: type))
        case .conditional(let condition, let then, let otherwise, let at):
            let holds = try truth(try await evalSuspending(condition, scope), at)
            coverage?.took(holds ? 0 : 1, at: at)
            if holds { return try await evalSuspending(then, scope) }
            guard let otherwise else { return .null }
            return try await evalSuspending(otherwise, scope)
        case .switchOf(let subjectExpr, let cases, let otherwise, let switchAt):
            let subject = try await evalSuspending(subjectExpr, scope)
            var matched = false
            for (index, c) in cases.enumerated() {
                try tick(c.location)
                if !matched {
                    if let type = c.type, !DSLOperators.isInstance(subject, of: type) { continue }
                    if let valueExpr = c.value, !Self.matches(subject, try await evalSuspending(valueExpr, scope)) { continue }
                    matched = true
                    coverage?.took(index, at: switchAt)
                }
                if let then = c.then { return try await evalSuspending(then, scope) }
            }
            if !matched { coverage?.took(cases.count, at: switchAt) }
            if let otherwise { return try await evalSuspending(otherwise, scope) }
            return .null
        case .block(let statements, _):
            return try await runSuspending(statements, in: blockScope(statements, scope)) ?? .null
        case .collection(let kind, let elementExprs, let at):
            var values: [DSLValue] = []
            var pairs: [(DSLValue, DSLValue)] = []
            for e in elementExprs {
                if kind == .set, case .binary("->", let k, let v, _) = e.unmarked {
                    pairs.append((try await evalSuspending(k, scope), try await evalSuspending(v, scope)))
                } else {
                    values.append(try await evalSuspending(e, scope))
                }
            }
            return try Self.collection(kind, values, pairs, at)
        case .new(let type, let argumentExprs, let at):
            try tick(at)
            return try DSLLibrary.construct(type, try await evaluateSuspending(argumentExprs, scope), at, self)
        case .assign(let target, let op, let valueExpr, let at):
            try tick(at)
            var value = try await evalSuspending(valueExpr, scope)
            if op != "=" { value = try DSLOperators.apply(String(op.dropLast()), try await evalSuspending(target, scope), value, at, self) }
            try await storeSuspending(value, into: target, scope, at)
            return value
        case .step(let target, let op, let at):
            try tick(at)
            let old = try await evalSuspending(target, scope)
            try await storeSuspending(try DSLOperators.apply(op == "++" ? "+" : "-", old, .int(1), at, self), into: target, scope, at)
            return old
        case .staticMember(let type, let member, let at):
            try tick(at)
            return try await DSLLibrary.staticAccessSuspending(type, member, nil, at, self)
        case .member(let receiverExpr, let member, let nullSafe, let at):
            try tick(at)
            let receiver = try await evalSuspending(receiverExpr, scope)
            if nullSafe, case .null = receiver { return Self.nullSafeDefault(member.name) }
            if case .type(let type) = receiver { return try await DSLLibrary.staticAccessSuspending(type, member.name, nil, at, self) }
            return try await DSLLibrary.invokeSuspending(receiver, member.name, methods: member.methods, [], at, self)
        case .call(let callee, let argumentExprs, let at):
            try tick(at)
            switch callee {
            case .member(let receiverExpr, let member, let nullSafe, let memberAt):
                let receiver = try await evalSuspending(receiverExpr, scope)
                if nullSafe, case .null = receiver { return Self.nullSafeDefault(member.name) }
                let arguments = try await evaluateSuspending(argumentExprs, scope)
                if case .type(let type) = receiver { return try await DSLLibrary.staticAccessSuspending(type, member.name, arguments, memberAt, self) }
                return try await DSLLibrary.invokeSuspending(receiver, member.name, methods: member.methods, arguments, memberAt, self)
            case .staticMember(let type, let member, let memberAt):
                return try await DSLLibrary.staticAccessSuspending(type, member, try await evaluateSuspending(argumentExprs, scope), memberAt, self)
            case .name(let name, let nameAt):
                switch Self.call(name, argumentExprs.count, scope) {
                case .feature: return try await evalSuspending(.awaiting(.name(name, nameAt)), scope)
                case .itMember(let it): return try await DSLLibrary.invokeSuspending(it, name, try await evaluateSuspending(argumentExprs, scope), at, self)
                case .function: return try await DSLLibrary.callFunctionSuspending(name, try await evaluateSuspending(argumentExprs, scope), at, self)
                }
            default:
                throw DSLFlow.failure("only functions and methods can be called", at)
            }
        case .awaiting(let inner):
            return try await evalSuspending(.awaiting(inner), scope)
        }
    }

    /// Whether `op` evaluates its right side only when needed (`&&`, `||`, `?:`).
    @inline(__always)
    private static func shortCircuit(_ op: String) -> Bool {
        op.utf8.count == 2 && (op == "&&" || op == "||" || op == "?:")
    }

    /// `-x`, `+x`, `!x`.
    private func unary(_ op: String, _ value: DSLValue, _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        if op == "!" { return .bool(!(try truth(value, at))) }
        if op == "+" { return value }
        if case .int(let n) = value { return .int(0 &- n) }
        return try DSLOperators.negate(value, at)
    }

    /// Whether a `case` value matches the switch's subject: a boolean for a non-boolean subject is a guard
    /// (`case x > 5`), anything else is compared with `==`.
    private static func matches(_ subject: DSLValue, _ value: DSLValue) -> Bool {
        if case .bool(let b) = value, !isBool(subject) { return b }
        return DSLOperators.equal(subject, value)
    }

    /// `#[…]`, `#{…}` (a set), `#{k -> v}` (a map).
    private static func collection(_ kind: DSLCollectionKind, _ values: [DSLValue], _ pairs: [(DSLValue, DSLValue)], _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
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
    }

    /// What `name(arguments)` calls.
    private enum NameCall {
        /// `now()`: the feature `now` with its empty parentheses (Xbase allows both forms).
        case feature
        /// Xtend's implicit receiver: inside `[ … ]`, `sendCommand(ON)` is `it.sendCommand(ON)`.
        case itMember(DSLValue)
        case function
    }

    private static func call(_ name: String, _ arity: Int, _ scope: DSLScope) -> NameCall {
        if arity == 0, DSLLibrary.isZeroArgumentFeature(name), scope.lookup("it") == nil || !DSLLibrary.knowsMethod(name) { return .feature }
        if let it = scope.lookup("it"), DSLLibrary.isImplicitReceiverCall(name, arity) { return .itMember(it) }
        return .function
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

    private func evaluate(_ exprs: [DSLExpr], _ scope: DSLScope) throws(DSLFlow) -> [DSLValue] {
        var values: [DSLValue] = []
        values.reserveCapacity(exprs.count)
        for e in exprs { values.append(try eval(e, scope)) }
        return values
    }

    private func evaluateSuspending(_ exprs: [DSLExpr], _ scope: DSLScope) async throws(DSLFlow) -> [DSLValue] {
        var values: [DSLValue] = []
        values.reserveCapacity(exprs.count)
        for e in exprs { values.append(try await evalSuspending(e, scope)) }
        return values
    }

    /// `target = value` for a variable or a property (`Item.state = v` is not a property openHAB writes).
    private func store(_ value: DSLValue, into target: DSLExpr, _ scope: DSLScope, _ at: DSLLocation) throws(DSLFlow) {
        switch target.unmarked {
        case .name(let name, _):
            try assign(name, value, scope, at)
        case .member(let receiverExpr, let member, _, _):
            _ = try DSLLibrary.invoke(try eval(receiverExpr, scope), Self.setter(member.name), [value], at, self)
        default:
            throw DSLFlow.failure("only a variable or a property can be assigned", at)
        }
    }

    private func storeSuspending(_ value: DSLValue, into target: DSLExpr, _ scope: DSLScope, _ at: DSLLocation) async throws(DSLFlow) {
        guard case .member(let receiverExpr, let member, _, _) = target.unmarked else { return try store(value, into: target, scope, at) }
        _ = try await DSLLibrary.invokeSuspending(try await evalSuspending(receiverExpr, scope), Self.setter(member.name), [value], at, self)
    }

    /// The setter Xtend's property assignment `x.name = v` calls.
    static func setter(_ name: String) -> String { "set" + name.prefix(1).uppercased() + name.dropFirst() }

    private func assign(_ name: String, _ value: DSLValue, _ scope: DSLScope, _ at: DSLLocation) throws(DSLFlow) {
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

    /// What a name is: a value, a member of Xtend's implicit `it`, or a function called without parentheses.
    private enum Named {
        case value(DSLValue)
        case itMember(DSLValue)
        case function
    }

    /// A name: a variable, an implicit variable, a state constant, `now`, a type, or an Item.
    private func named(_ name: String, _ scope: DSLScope, _ at: DSLLocation) throws(DSLFlow) -> Named {
        if let value = scope.lookup(name) { return .value(value) }
        // An implicit variable the trigger did not set (the run's scope holds only those it set).
        if DSLCompiler.implicitNames.contains(name) { return .value(.null) }
        if let value = globals.lookup(name) { return .value(value) }
        return try feature(DSLFeature(name), scope, at)
    }

    /// A name that is no variable: a member of the implicit `it`, a state constant, `now`, a type, or an Item.
    private func feature(_ f: DSLFeature, _ scope: DSLScope, _ at: DSLLocation) throws(DSLFlow) -> Named {
        // Xtend's implicit receiver: inside `[ … ]` a bare `name` is `it.name` when `it` has it.
        if f.isMethod, let it = scope.lookup("it") { return .itMember(it) }
        if !f.isMethod, let item = f.item, knownItems.contains(item) { return .value(.item(item)) }
        if let constant = f.constant { return .value(constant) }
        // A function without parentheses (`newArrayList`, `newHashMap`): Xbase calls it.
        if f.isFunction { return .function }
        if f.name == "now" { return .value(.instant(execution.now)) }
        if let item = f.item, execution.itemType(checked: item) != nil { return .value(.item(item)) }
        if f.isType { return .value(.type(f.name)) }
        throw DSLFlow.failure("there is no variable or Item called \(f.name)", at)
    }

    // MARK: Lambdas

    /// Calls a lambda whose body cannot pause, with arguments (its parameters, or `it` for one implicit parameter).
    func call(_ closure: DSLClosure, _ args: [DSLValue], _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        let scope = try lambdaScope(closure, args, at)
        if closure.syntax.suspends { throw DSLLibrary.unmarked("this lambda", at) }
        do {
            return try run(closure.syntax.body, in: scope) ?? .null
        } catch {
            if case .returned(let value) = error { return value ?? .null }
            throw error
        }
    }

    /// Calls a lambda (one whose body may pause, or any other).
    func callSuspending(_ closure: DSLClosure, _ args: [DSLValue], _ at: DSLLocation) async throws(DSLFlow) -> DSLValue {
        guard closure.syntax.suspends else { return try call(closure, args, at) }
        let scope = try lambdaScope(closure, args, at)
        do {
            return try await runSuspending(closure.syntax.body, in: scope) ?? .null
        } catch {
            if case .returned(let value) = error { return value ?? .null }
            throw error
        }
    }

    private func lambdaScope(_ closure: DSLClosure, _ args: [DSLValue], _ at: DSLLocation) throws(DSLFlow) -> DSLScope {
        try tick(at)
        if closure.syntax.implicitIt {
            guard let first = args.first else { return DSLScope(parent: closure.scope) }
            return DSLScope(parent: closure.scope, name: "it", value: first)
        }
        guard closure.syntax.parameters.count == args.count else {
            throw DSLFlow.failure("this lambda takes \(closure.syntax.parameters.count) argument(s), not \(args.count)", at, type: "IllegalArgumentException")
        }
        return DSLScope(parent: closure.scope, names: closure.syntax.parameters, values: args)
    }

    /// Runs a method's calls of a lambda (``DSLLambdaLoop``) whose body cannot pause.
    func run(_ loop: DSLLambdaLoop, _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        var last: DSLValue?
        while let arguments = try loop.step(last) {
            guard let lambda = loop.lambda else { break }
            last = try call(lambda, arguments, at)
        }
        return try loop.result()
    }

    /// Runs a method's calls of a lambda (one whose body may pause, or any other).
    func runSuspending(_ loop: DSLLambdaLoop, _ at: DSLLocation) async throws(DSLFlow) -> DSLValue {
        guard let lambda = loop.lambda, lambda.syntax.suspends else { return try run(loop, at) }
        var last: DSLValue?
        while let arguments = try loop.step(last) { last = try await callSuspending(lambda, arguments, at) }
        return try loop.result()
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
