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

    init(execution: RuleExecution, rule: Rule, fiber: DSLFiber? = nil, budget: DSLBudget = DSLBudget(),
         scripts: DSLScripts = .none, scriptDepth: Int = 0, knownItems: DSLKnownItems = .none) {
        self.knownItems = knownItems
        self.coverage = execution.engine.coverage
        self.execution = execution
        self.rule = rule
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

    /// Runs statements none of which may pause: their compiled code (``DSLCode``).
    func run(_ statements: [DSLStmt], in frame: DSLFrame) throws(DSLFlow) -> DSLValue? {
        var last: DSLValue?
        for statement in statements { last = try DSLCode.statement(statement)(frame, self) }
        return last
    }

    /// Counts a statement run (`--coverage`).
    @inline(__always)
    func covered(_ at: DSLLocation) {
        if let coverage { coverage.ran(at) }
    }

    /// Runs statements some of which may pause (the suspending walk: it runs what ``DSLSuspension`` marked
    /// and runs every statement and expression it did not mark compiled, ``DSLCode``).
    func runSuspending(_ statements: [DSLStmt], in frame: DSLFrame) async throws(DSLFlow) -> DSLValue? {
        var last: DSLValue?
        for statement in statements { last = try await runSuspending(statement, in: frame) }
        return last
    }

    private func runSuspending(_ statement: DSLStmt, in frame: DSLFrame) async throws(DSLFlow) -> DSLValue? {
        guard case .awaiting(let marked) = statement else { return try DSLCode.statement(statement)(frame, self) }
        if let coverage, !marked.isBlock { coverage.ran(Self.location(of: marked)) }
        switch marked {
        case .declare(_, let name, let type, let value, let at):
            try tick(at)
            frame[name.slot] = Self.declared(type, value == nil ? .null : try await evalSuspending(value!, frame))
            return nil
        case .ifElse(let condition, let then, let otherwise, let at):
            let holds = try truth(try await evalSuspending(condition, frame), at)
            coverage?.took(holds ? 0 : 1, at: at)
            if holds {
                return try await runSuspending(then, in: frame)
            } else if let otherwise {
                return try await runSuspending(otherwise, in: frame)
            }
            return nil
        case .whileLoop(let condition, let body, let at):
            while try truth(try await evalSuspending(condition, frame), at) {
                try tick(at)
                _ = try await runSuspending(body, in: frame)
            }
            return nil
        case .doWhile(let body, let condition, let at):
            repeat {
                try tick(at)
                _ = try await runSuspending(body, in: frame)
            } while try truth(try await evalSuspending(condition, frame), at)
            return nil
        case .forEach(let name, let iterableExpr, let body, let at):
            for element in try elements(of: try await evalSuspending(iterableExpr, frame), at) {
                try tick(at)
                _ = try await runSuspending(body, in: Self.pass(name, element, frame))
            }
            return nil
        case .forLoop(let initial, let condition, let updates, let body, let at):
            _ = try await runSuspending(initial, in: frame)
            while try condition == nil ? true : truth(try await evalSuspending(condition!, frame), at) {
                try tick(at)
                _ = try await runSuspending(body, in: frame)
                for update in updates { _ = try await evalSuspending(update, frame) }
            }
            return nil
        case .tryCatch(let body, let catches, let finally, _):
            var result: DSLValue?
            do {
                result = try await runSuspending(body, in: frame)
            } catch {
                guard let (index, inner) = Self.handler(for: error, in: catches, frame) else {
                    if let finally { _ = try await runSuspending(finally, in: frame) }
                    throw error
                }
                do {
                    result = try await runSuspending(catches[index].body, in: inner)
                } catch {
                    if let finally { _ = try await runSuspending(finally, in: frame) }
                    throw error
                }
            }
            if let finally { _ = try await runSuspending(finally, in: frame) }
            return result
        case .throwValue(let e, let at):
            throw Self.thrown(try await evalSuspending(e, frame), at)
        case .expression(let e):
            return try await evalSuspending(e, frame)
        case .returnValue(let e, _):
            throw DSLFlow.returned(e == nil ? nil : try await evalSuspending(e!, frame))
        case .block(let statements):
            return try await runSuspending(statements, in: frame)
        case .framed(let size, let statements):
            return try await runSuspending(statements, in: DSLFrame.make(size: size, parent: frame, shared: true))
        case .awaiting(let inner):
            return try await runSuspending(inner, in: frame)
        case .compiled(let c):
            return try c.code(frame, self)
        }
    }

    /// `val`/`var name: type = initial`: a number literal typed by the declaration (XbaseInterpreter: the
    /// expected type picks the literal's class).
    static func declared(_ type: String?, _ value: DSLValue) -> DSLValue {
        var initial = value
        if let type {
            if case .int(let n) = initial, ["Double", "double", "Float", "float"].contains(type) { initial = .number(Double(n)) }
            if type == "BigDecimal", let d = initial.javaDecimal { initial = .decimal(d) }
            if case .number(let n) = initial, ["Integer", "int", "Long", "long"].contains(type) { initial = .int(Int64(saturating: n)) }
        }
        return initial
    }

    /// The frame a pass of a `for` loop (or a `catch`) runs in, with its variable set: a frame of its own when a
    /// lambda in the body may capture it (``DSLBinding/frame``), else the enclosing one.
    @inline(__always)
    static func pass(_ variable: DSLBinding, _ value: DSLValue, _ frame: DSLFrame) -> DSLFrame {
        let inner = variable.frame > 0 ? DSLFrame.make(size: variable.frame, parent: frame, shared: true) : frame
        inner[variable.slot] = value
        return inner
    }

    /// The `catch` that catches what a `try` body threw (its index), with the frame its body runs in.
    static func handler(for error: DSLFlow, in catches: [DSLCatch], _ frame: DSLFrame) -> (Int, DSLFrame)? {
        let caught: DSLValue
        switch error {
        case .failure(let message, _, let type): caught = .exception(type: type, message: message)
        case .thrown(let value, _): caught = value
        case .returned, .fatal: return nil
        }
        guard let index = catches.firstIndex(where: { Self.catches($0.type, caught) }) else { return nil }
        return (index, pass(catches[index].name, caught, frame))
    }

    /// `throw value`.
    static func thrown(_ value: DSLValue, _ at: DSLLocation) -> DSLFlow {
        if case .null = value { return DSLFlow.failure("throw null", at, type: "NullPointerException") }
        return DSLFlow.thrown(value, at)
    }

    static func location(of statement: DSLStmt) -> DSLLocation {
        switch statement {
        case .declare(_, _, _, _, let at), .ifElse(_, _, _, let at), .whileLoop(_, _, let at), .doWhile(_, _, let at), .forEach(_, _, _, let at),
             .forLoop(_, _, _, _, let at), .tryCatch(_, _, _, let at), .throwValue(_, let at), .returnValue(_, let at):
            return at
        case .expression(let e): return e.location
        case .block(let statements), .framed(_, let statements): return statements.first.map(location(of:)) ?? DSLLocation(file: "", line: 0, column: 0)
        case .awaiting(let inner): return location(of: inner)
        case .compiled(let c): return location(of: c.syntax)
        }
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

    /// Evaluates an expression that may pause (the suspending walk): one ``DSLSuspension`` marked; any other
    /// runs compiled (``DSLCode``). Each construct's semantics are helpers the compiled code shares.
    func evalSuspending(_ expr: DSLExpr, _ frame: DSLFrame) async throws(DSLFlow) -> DSLValue {
        guard case .awaiting(let marked) = expr else { return try DSLCode.expr(expr)(frame, self) }
        switch marked {
        case .number, .literal, .quantity, .string, .bool, .null, .lambda, .variable, .name:  // never marked (they cannot pause)
            return try DSLCode.expr(marked)(frame, self)
        case .compiled(let c):
            return try c.code(frame, self)
        case .feature(let f, let at):
            switch try feature(f, frame, at) {
            case .value(let value): return value
            case .itMember(let it): return try await DSLLibrary.invokeSuspending(it, f.name, methods: f.methods, [], at, self)
            case .function: return try await DSLLibrary.callFunctionSuspending(f.name, [], at, self)
            }
        case .unary(let op, let operand, let at):
            try tick(at)
            return try unary(op, try await evalSuspending(operand, frame), at)
        case .binary(let op, let l, let r, let at):
            try tick(at)
            if Self.shortCircuit(op) {
                let left = try await evalSuspending(l, frame)
                switch op {
                case "&&":
                    guard try truth(left, at) else { return .bool(false) }
                    return .bool(try truth(try await evalSuspending(r, frame), at))
                case "||":
                    if try truth(left, at) { return .bool(true) }
                    return .bool(try truth(try await evalSuspending(r, frame), at))
                default:  // ?:
                    if case .null = left { return try await evalSuspending(r, frame) }
                    return left
                }
            }
            let left = try await evalSuspending(l, frame), right = try await evalSuspending(r, frame)
            return try DSLOperators.apply(op, left, right, at, self)
        case .cast(let inner, let type, let at):
            return try DSLOperators.cast(try await evalSuspending(inner, frame), to: type, at, self)
        case .instanceOf(let inner, let type, _):
            return .bool(DSLOperators.isInstance(try await evalSuspending(inner, frame), of: type))
        case .conditional(let condition, let then, let otherwise, let at):
            let holds = try truth(try await evalSuspending(condition, frame), at)
            coverage?.took(holds ? 0 : 1, at: at)
            if holds { return try await evalSuspending(then, frame) }
            guard let otherwise else { return .null }
            return try await evalSuspending(otherwise, frame)
        case .switchOf(let subjectExpr, let cases, let otherwise, let switchAt):
            let subject = try await evalSuspending(subjectExpr, frame)
            var matched = false
            for (index, c) in cases.enumerated() {
                try tick(c.location)
                if !matched {
                    if let type = c.type, !DSLOperators.isInstance(subject, of: type) { continue }
                    if let valueExpr = c.value, !Self.matches(subject, try await evalSuspending(valueExpr, frame)) { continue }
                    matched = true
                    coverage?.took(index, at: switchAt)
                }
                if let then = c.then { return try await evalSuspending(then, frame) }
            }
            if !matched { coverage?.took(cases.count, at: switchAt) }
            if let otherwise { return try await evalSuspending(otherwise, frame) }
            return .null
        case .block(let statements, _):
            return try await runSuspending(statements, in: frame) ?? .null
        case .collection(let kind, let elementExprs, let at):
            var values: [DSLValue] = []
            var pairs: [(DSLValue, DSLValue)] = []
            for e in elementExprs {
                if kind == .set, case .binary("->", let k, let v, _) = e.unmarked {
                    pairs.append((try await evalSuspending(k, frame), try await evalSuspending(v, frame)))
                } else {
                    values.append(try await evalSuspending(e, frame))
                }
            }
            return try Self.collection(kind, values, pairs, at)
        case .new(let type, let argumentExprs, let at):
            try tick(at)
            return try DSLLibrary.construct(type, try await evaluateSuspending(argumentExprs, frame), at, self)
        case .assign(let target, let op, let valueExpr, let at):
            try tick(at)
            var value = try await evalSuspending(valueExpr, frame)
            if op != "=" { value = try DSLOperators.apply(String(op.dropLast()), try await evalSuspending(target, frame), value, at, self) }
            try await storeSuspending(value, into: target, frame, at)
            return value
        case .step(let target, let op, let at):
            try tick(at)
            let old = try await evalSuspending(target, frame)
            try await storeSuspending(try DSLOperators.apply(op == "++" ? "+" : "-", old, .int(1), at, self), into: target, frame, at)
            return old
        case .staticMember(let type, let member, let at):
            try tick(at)
            return try await DSLLibrary.staticAccessSuspending(type, member, nil, at, self)
        case .member(let receiverExpr, let member, let nullSafe, let at):
            try tick(at)
            let receiver = try await evalSuspending(receiverExpr, frame)
            if nullSafe, case .null = receiver { return Self.nullSafeDefault(member.name) }
            if case .type(let type) = receiver { return try await DSLLibrary.staticAccessSuspending(type, member.name, nil, at, self) }
            return try await DSLLibrary.invokeSuspending(receiver, member.name, methods: member.methods, [], at, self)
        case .call(let callee, let argumentExprs, let at):
            try tick(at)
            switch callee {
            case .member(let receiverExpr, let member, let nullSafe, let memberAt):
                let receiver = try await evalSuspending(receiverExpr, frame)
                if nullSafe, case .null = receiver { return Self.nullSafeDefault(member.name) }
                let arguments = try await evaluateSuspending(argumentExprs, frame)
                if case .type(let type) = receiver { return try await DSLLibrary.staticAccessSuspending(type, member.name, arguments, memberAt, self) }
                return try await DSLLibrary.invokeSuspending(receiver, member.name, methods: member.methods, arguments, memberAt, self)
            case .staticMember(let type, let member, let memberAt):
                return try await DSLLibrary.staticAccessSuspending(type, member, try await evaluateSuspending(argumentExprs, frame), memberAt, self)
            case .feature(let f, let nameAt):
                switch Self.call(f, argumentExprs.count) {
                case .feature: return try await evalSuspending(.awaiting(.feature(f, nameAt)), frame)
                case .itMember(let it): return try await DSLLibrary.invokeSuspending(frame.value(of: it), f.name, try await evaluateSuspending(argumentExprs, frame), at, self)
                case .function: return try await DSLLibrary.callFunctionSuspending(f.name, try await evaluateSuspending(argumentExprs, frame), at, self)
                }
            default:
                throw DSLFlow.failure("only functions and methods can be called", at)
            }
        case .awaiting(let inner):
            return try await evalSuspending(.awaiting(inner), frame)
        }
    }

    /// Whether `op` evaluates its right side only when needed (`&&`, `||`, `?:`).
    @inline(__always)
    private static func shortCircuit(_ op: String) -> Bool {
        op.utf8.count == 2 && (op == "&&" || op == "||" || op == "?:")
    }

    /// `-x`, `+x`, `!x`.
    func unary(_ op: String, _ value: DSLValue, _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        if op == "!" { return .bool(!(try truth(value, at))) }
        if op == "+" { return value }
        if case .int(let n) = value { return .int(0 &- n) }
        return try DSLOperators.negate(value, at)
    }

    /// Whether a `case` value matches the switch's subject: a boolean for a non-boolean subject is a guard
    /// (`case x > 5`), anything else is compared with `==`.
    static func matches(_ subject: DSLValue, _ value: DSLValue) -> Bool {
        if case .bool(let b) = value, !isBool(subject) { return b }
        return DSLOperators.equal(subject, value)
    }

    /// `#[…]`, `#{…}` (a set), `#{k -> v}` (a map).
    static func collection(_ kind: DSLCollectionKind, _ values: [DSLValue], _ pairs: [(DSLValue, DSLValue)], _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
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

    /// What `name(arguments)` calls (known from the name, its `it` and the number of arguments).
    enum NameCall {
        /// `now()`: the feature `now` with its empty parentheses (Xbase allows both forms).
        case feature
        /// Xtend's implicit receiver: inside `[ … ]`, `sendCommand(ON)` is `it.sendCommand(ON)` (the variable `it`).
        case itMember(DSLVariable)
        case function
    }

    static func call(_ f: DSLFeature, _ arity: Int) -> NameCall {
        if arity == 0, DSLLibrary.isZeroArgumentFeature(f.name), f.it == nil || !DSLLibrary.knowsMethod(f.name) { return .feature }
        if let it = f.it, DSLLibrary.isImplicitReceiverCall(f.name, arity) { return .itMember(it) }
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

    static func isBool(_ v: DSLValue) -> Bool { if case .bool = v { true } else { false } }

    private func evaluateSuspending(_ exprs: [DSLExpr], _ frame: DSLFrame) async throws(DSLFlow) -> [DSLValue] {
        var values: [DSLValue] = []
        values.reserveCapacity(exprs.count)
        for e in exprs { values.append(try await evalSuspending(e, frame)) }
        return values
    }

    /// `target = value` (``DSLCode/store(_:_:)``), a property's setter called the suspending way.
    private func storeSuspending(_ value: DSLValue, into target: DSLExpr, _ frame: DSLFrame, _ at: DSLLocation) async throws(DSLFlow) {
        // A target the assignment reads is compiled for the read (``DSLCode``): the store looks at its form.
        let form: DSLExpr
        if case .compiled(let c) = target { form = c.syntax } else { form = target.unmarked }
        guard case .member(let receiverExpr, let member, _, _) = form else { return try DSLCode.store(form, at)(value, frame, self) }
        _ = try await DSLLibrary.invokeSuspending(try await evalSuspending(receiverExpr, frame), Self.setter(member.name), [value], at, self)
    }

    /// The setter Xtend's property assignment `x.name = v` calls.
    static func setter(_ name: String) -> String { "set" + name.prefix(1).uppercased() + name.dropFirst() }

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
    enum Named {
        case value(DSLValue)
        case itMember(DSLValue)
        case function
    }

    /// A name that is no variable: a member of the implicit `it`, a state constant, `now`, a type, or an Item.
    func feature(_ f: DSLFeature, _ frame: DSLFrame, _ at: DSLLocation) throws(DSLFlow) -> Named {
        // Xtend's implicit receiver: inside `[ … ]` a bare `name` is `it.name` when `it` has it.
        if f.isMethod, let it = f.it { return .itMember(frame.value(of: it)) }
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

    /// Calls a lambda whose body cannot pause, with arguments (its parameters, or `it` for one implicit parameter);
    /// `reusing`: a frame for the call a loop made once (the lambda cannot capture it, ``DSLLambdaSyntax/capturable``).
    func call(_ closure: DSLClosure, _ args: [DSLValue], _ at: DSLLocation, reusing: DSLFrame? = nil) throws(DSLFlow) -> DSLValue {
        let frame = try lambdaFrame(closure, args, at, reusing: reusing)
        guard let code = closure.syntax.code else { throw DSLLibrary.unmarked("this lambda", at) }
        do {
            return try code.run(frame, self) ?? .null
        } catch {
            if case .returned(let value) = error { return value ?? .null }
            throw error
        }
    }

    /// Calls a lambda (one whose body may pause, or any other).
    func callSuspending(_ closure: DSLClosure, _ args: [DSLValue], _ at: DSLLocation) async throws(DSLFlow) -> DSLValue {
        guard closure.syntax.suspends else { return try call(closure, args, at) }
        let frame = try lambdaFrame(closure, args, at, reusing: nil)
        do {
            return try await runSuspending(closure.syntax.body, in: frame) ?? .null
        } catch {
            if case .returned(let value) = error { return value ?? .null }
            throw error
        }
    }

    /// A call's frame (its parent the frame the lambda was made in) with the arguments in the parameters' slots.
    @inline(__always)
    private func lambdaFrame(_ closure: DSLClosure, _ args: [DSLValue], _ at: DSLLocation, reusing: DSLFrame?) throws(DSLFlow) -> DSLFrame {
        try tick(at)
        let syntax = closure.syntax
        if syntax.implicitIt {
            let frame = reusing ?? Self.frame(of: closure)
            // No argument (a `Procedure0`, a timer's body): the `it` of where the lambda was made.
            frame[0] = args.first ?? syntax.outerIt.map { closure.frame.value(of: $0) } ?? .null
            return frame
        }
        guard syntax.parameters.count == args.count else {
            throw DSLFlow.failure("this lambda takes \(syntax.parameters.count) argument(s), not \(args.count)", at, type: "IllegalArgumentException")
        }
        let frame = reusing ?? Self.frame(of: closure)
        for k in args.indices { frame[k] = args[k] }
        return frame
    }

    /// A new frame for a call of `closure`.
    @inline(__always)
    private static func frame(of closure: DSLClosure) -> DSLFrame {
        DSLFrame.make(size: closure.syntax.frameSize, parent: closure.frame, shared: closure.syntax.capturable)
    }

    /// Runs a method's calls of a lambda (``DSLLambdaLoop``) whose body cannot pause.
    /// A lambda that cannot capture its call's frame is called in one frame, made once for the loop.
    func run(_ loop: consuming DSLLambdaLoop, _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        guard let lambda = loop.lambda else { return try loop.result() }
        let frame = lambda.syntax.capturable ? nil : Self.frame(of: lambda)
        var last: DSLValue?
        while try loop.step(last) { last = try call(lambda, loop.arguments, at, reusing: frame) }
        return try loop.result()
    }

    /// Runs a method's calls of a lambda (one whose body may pause, or any other).
    func runSuspending(_ loop: consuming DSLLambdaLoop, _ at: DSLLocation) async throws(DSLFlow) -> DSLValue {
        guard let lambda = loop.lambda, lambda.syntax.suspends else { return try run(loop, at) }
        var last: DSLValue?
        while try loop.step(last) { last = try await callSuspending(lambda, loop.arguments, at) }
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
