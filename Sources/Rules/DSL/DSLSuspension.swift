/// Marks, once after checking, what in a file's bodies may pause a run (``DSLExpr/awaiting(_:)``,
/// ``DSLStmt/awaiting(_:)``, ``DSLLambdaSyntax/suspends``), so that the interpreter runs everything else
/// synchronously.
///
/// What may pause: a call of an entry of ``DSLLibrary``'s suspending tables (`sendCommand`, not `postUpdate`,
/// `Thread::sleep`, `callScript`, the HTTP actions, a lock's `lock`/`unlock`, …) — by its written name,
/// whatever the receiver, since the receiver is known only when it runs; a method that calls a lambda
/// (`forEach`, `filter`, `apply`, …) given a lambda that may pause; and anything containing either. A lambda
/// is followed where it is written: as the argument itself, or as a `val` holding a lambda literal. A value
/// the marker cannot follow (a parameter, a `var`, an element of a list) may be any lambda of the file, so it
/// may pause when some lambda of the file may.
struct DSLSuspension {
    /// What a name in scope holds, as far as the marker knows.
    private enum Known {
        /// A `val` holding a lambda literal, and whether its body may pause.
        case lambda(suspends: Bool)
        /// Any other variable.
        case other
    }

    private typealias Scope = [String: Known]

    /// Whether a value the marker cannot follow may be a lambda that pauses.
    private let unknownLambdaSuspends: Bool
    /// Every name a variable of the file has anywhere (declared, a parameter, `it`, implicit): any other
    /// name becomes a ``DSLExpr/feature(_:_:)``, which the interpreter does not look up in scopes.
    private let variables: Set<String>
    /// Whether some lambda literal was found that may pause.
    private var sawSuspendingLambda = false

    private init(unknownLambdaSuspends: Bool, variables: Set<String>) {
        self.unknownLambdaSuspends = unknownLambdaSuspends
        self.variables = variables
    }

    /// Marks a file: its globals (declared in order, seen by every body) and its bodies.
    static func mark(globals: [DSLStmt], bodies: [[DSLStmt]]) -> (globals: [DSLStmt], bodies: [[DSLStmt]]) {
        var variables = DSLCompiler.implicitNames.union(["it"])
        for statement in globals + bodies.joined() { collect(statement, into: &variables) }
        var first = DSLSuspension(unknownLambdaSuspends: false, variables: variables)
        let marked = first.markFile(globals, bodies)
        guard first.sawSuspendingLambda else { return marked }
        // Some lambda may pause: a lambda value not followed may be it.
        var second = DSLSuspension(unknownLambdaSuspends: true, variables: variables)
        return second.markFile(globals, bodies)
    }

    /// Marks a body on its own (a script file, a UI rule's script).
    static func mark(_ body: [DSLStmt]) -> [DSLStmt] {
        mark(globals: [], bodies: [body]).bodies[0]
    }

    private mutating func markFile(_ globals: [DSLStmt], _ bodies: [[DSLStmt]]) -> (globals: [DSLStmt], bodies: [[DSLStmt]]) {
        var scope: Scope = [:]
        let markedGlobals = globals.map { mark($0, &scope).0 }
        return (markedGlobals, bodies.map { body in
            var inner = scope
            return body.map { mark($0, &inner).0 }
        })
    }

    // MARK: Statements

    private mutating func mark(_ statements: [DSLStmt], _ scope: Scope) -> ([DSLStmt], Bool) {
        var inner = scope
        var suspends = false
        let marked = statements.map { s in
            let (m, p) = mark(s, &inner)
            suspends = suspends || p
            return m
        }
        return (marked, suspends)
    }

    private mutating func mark(_ statement: DSLStmt, _ scope: inout Scope) -> (DSLStmt, Bool) {
        let (marked, suspends) = markUnwrapped(statement, &scope)
        return (suspends ? .awaiting(marked) : marked, suspends)
    }

    private mutating func markUnwrapped(_ statement: DSLStmt, _ scope: inout Scope) -> (DSLStmt, Bool) {
        switch statement {
        case .declare(let mutable, let name, let type, let value, let at):
            var known = Known.other
            var marked: DSLExpr?, suspends = false
            if let value {
                (marked, suspends) = mark(value, scope)
                if !mutable, case .lambda(let syntax, _) = marked! { known = .lambda(suspends: syntax.suspends) }
            }
            scope[name] = known
            return (.declare(mutable: mutable, name: name, type: type, value: marked, at), suspends)
        case .ifElse(let condition, let then, let otherwise, let at):
            let (c, p1) = mark(condition, scope), (t, p2) = mark(then, scope)
            let (o, p3) = otherwise.map { mark($0, scope) } ?? (nil, false)
            return (.ifElse(c, t, o, at), p1 || p2 || p3)
        case .whileLoop(let condition, let body, let at):
            let (c, p1) = mark(condition, scope), (b, p2) = mark(body, scope)
            return (.whileLoop(c, b, at), p1 || p2)
        case .doWhile(let body, let condition, let at):
            let (b, p1) = mark(body, scope), (c, p2) = mark(condition, scope)
            return (.doWhile(b, c, at), p1 || p2)
        case .forEach(let name, let iterable, let body, let at):
            let (i, p1) = mark(iterable, scope)
            var inner = scope
            inner[name] = .other
            let (b, p2) = mark(body, inner)
            return (.forEach(name, i, b, at), p1 || p2)
        case .forLoop(let initial, let condition, let updates, let body, let at):
            var inner = scope
            var suspends = false
            let i = initial.map { s in let (m, p) = mark(s, &inner); suspends = suspends || p; return m }
            let c = condition.map { e in let (m, p) = mark(e, inner); suspends = suspends || p; return m }
            let u = updates.map { e in let (m, p) = mark(e, inner); suspends = suspends || p; return m }
            let (b, p) = mark(body, inner)
            return (.forLoop(i, c, u, b, at), suspends || p)
        case .tryCatch(let body, let catches, let finally, let at):
            var (b, suspends) = mark(body, scope)
            let c = catches.map { c in
                var inner = scope
                inner[c.name] = .other
                let (m, p) = mark(c.body, inner)
                suspends = suspends || p
                return DSLCatch(type: c.type, name: c.name, body: m)
            }
            let (f, p) = finally.map { mark($0, scope) } ?? (nil, false)
            return (.tryCatch(b, c, f, at), suspends || p)
        case .throwValue(let e, let at):
            let (m, p) = mark(e, scope)
            return (.throwValue(m, at), p)
        case .expression(let e):
            let (m, p) = mark(e, scope)
            return (.expression(m), p)
        case .returnValue(let e, let at):
            let (m, p) = e.map { mark($0, scope) } ?? (nil, false)
            return (.returnValue(m, at), p)
        case .block(let body):
            let (b, p) = mark(body, scope)
            return (.block(b), p)
        case .awaiting(let inner):
            return markUnwrapped(inner, &scope)
        }
    }

    // MARK: Expressions

    private mutating func mark(_ expr: DSLExpr, _ scope: Scope) -> (DSLExpr, Bool) {
        let (marked, suspends) = markUnwrapped(expr, scope)
        return (suspends ? .awaiting(marked) : marked, suspends)
    }

    private mutating func mark(_ exprs: [DSLExpr], _ scope: Scope) -> ([DSLExpr], Bool) {
        var suspends = false
        let marked = exprs.map { e in let (m, p) = mark(e, scope); suspends = suspends || p; return m }
        return (marked, suspends)
    }

    private mutating func markUnwrapped(_ expr: DSLExpr, _ scope: Scope) -> (DSLExpr, Bool) {
        switch expr {
        case .number(let text, let at):
            return (DSLInterpreter.literal(text).map { .literal($0, at) } ?? expr, false)
        case .literal, .quantity, .string, .bool, .null:
            return (expr, false)
        case .staticMember:
            return (expr, pauses(expr))
        case .name(let name, let at):
            return (variables.contains(name) ? expr : .feature(DSLFeature(name), at), scope[name] == nil && namePauses(name, arguments: []))
        case .feature(let feature, _):
            return (expr, namePauses(feature.name, arguments: []))
        case .member(let receiver, let member, let nullSafe, let at):
            let (r, p) = mark(receiver, scope)
            return (.member(r, member, nullSafe: nullSafe, at), p || memberPauses(member.name, receiver: r, arguments: [], scope))
        case .call(let callee, let arguments, let at):
            let (a, p1) = mark(arguments, scope)
            switch callee {
            case .member(let receiver, let member, let nullSafe, let memberAt):
                let (r, p2) = mark(receiver, scope)
                return (.call(.member(r, member, nullSafe: nullSafe, memberAt), a, at),
                        p1 || p2 || memberPauses(member.name, receiver: r, arguments: a, scope))
            case .staticMember:
                return (.call(callee, a, at), p1 || pauses(callee))
            case .name(let name, _):
                // A call with arguments is the function even where a variable has its name (Xbase links it so).
                return (.call(callee, a, at), p1 || ((scope[name] == nil || !a.isEmpty) && namePauses(name, arguments: a, scope)))
            default:
                let (c, p2) = mark(callee, scope)
                return (.call(c, a, at), p1 || p2)
            }
        case .unary(let op, let e, let at):
            let (m, p) = mark(e, scope)
            return (.unary(op, m, at), p)
        case .binary(let op, let l, let r, let at):
            let (ml, p1) = mark(l, scope), (mr, p2) = mark(r, scope)
            return (.binary(op, ml, mr, at), p1 || p2)
        case .cast(let e, let type, let at):
            let (m, p) = mark(e, scope)
            return (.cast(m, type, at), p)
        case .instanceOf(let e, let type, let at):
            let (m, p) = mark(e, scope)
            return (.instanceOf(m, type, at), p)
        case .lambda(let syntax, let at):
            var inner = scope
            if syntax.implicitIt { inner["it"] = .other }
            for parameter in syntax.parameters { inner[parameter] = .other }
            let (body, suspends) = mark(syntax.body, inner)
            if suspends { sawSuspendingLambda = true }
            // Making a lambda does not pause; calling it may.
            return (.lambda(DSLLambdaSyntax(parameters: syntax.parameters, implicitIt: syntax.implicitIt, body: body, suspends: suspends), at), false)
        case .conditional(let c, let t, let o, let at):
            let (mc, p1) = mark(c, scope), (mt, p2) = mark(t, scope)
            let (mo, p3) = o.map { mark($0, scope) } ?? (nil, false)
            return (.conditional(mc, mt, mo, at), p1 || p2 || p3)
        case .switchOf(let subject, let cases, let otherwise, let at):
            var (s, suspends) = mark(subject, scope)
            let c = cases.map { c in
                let (v, p1) = c.value.map { mark($0, scope) } ?? (nil, false)
                let (t, p2) = c.then.map { mark($0, scope) } ?? (nil, false)
                suspends = suspends || p1 || p2
                return DSLCase(type: c.type, value: v, then: t, location: c.location)
            }
            let (o, p) = otherwise.map { mark($0, scope) } ?? (nil, false)
            return (.switchOf(s, c, o, at), suspends || p)
        case .block(let body, let at):
            let (b, p) = mark(body, scope)
            return (.block(b, at), p)
        case .collection(let kind, let elements, let at):
            let (e, p) = mark(elements, scope)
            return (.collection(kind, e, at), p)
        case .new(let type, let arguments, let at):
            let (a, p) = mark(arguments, scope)
            return (.new(type, a, at), p)
        case .assign(let target, let op, let value, let at):
            let (v, p1) = mark(value, scope)
            let (t, p2) = markTarget(target, reads: op != "=", scope)
            return (.assign(t, op, v, at), p1 || p2)
        case .step(let target, let op, let at):
            let (t, p) = markTarget(target, reads: true, scope)
            return (.step(t, op, at), p)
        case .awaiting(let inner):
            return markUnwrapped(inner, scope)
        }
    }

    /// An assignment's target: a variable, or a property whose setter (and getter, when `reads`) is called.
    private mutating func markTarget(_ target: DSLExpr, reads: Bool, _ scope: Scope) -> (DSLExpr, Bool) {
        if case .name = target { return (target, false) }  // a variable
        guard case .member(let receiver, let member, let nullSafe, let at) = target else { return mark(target, scope) }
        let (r, p) = mark(receiver, scope)
        let suspends = p || DSLLibrary.suspendingMemberNames.contains(DSLInterpreter.setter(member.name))
            || (reads && memberPauses(member.name, receiver: r, arguments: [], scope))
        let marked = DSLExpr.member(r, member, nullSafe: nullSafe, at)
        return (suspends ? .awaiting(marked) : marked, suspends)
    }

    // MARK: Variables

    /// Adds the names `statement` gives variables (anywhere in it, lambdas included).
    private static func collect(_ statement: DSLStmt, into names: inout Set<String>) {
        switch statement {
        case .declare(_, let name, _, let value, _):
            names.insert(name)
            if let value { collect(value, into: &names) }
        case .ifElse(let c, let t, let o, _):
            collect(c, into: &names)
            for s in t + (o ?? []) { collect(s, into: &names) }
        case .whileLoop(let c, let body, _), .doWhile(let body, let c, _):
            collect(c, into: &names)
            for s in body { collect(s, into: &names) }
        case .forEach(let name, let iterable, let body, _):
            names.insert(name)
            collect(iterable, into: &names)
            for s in body { collect(s, into: &names) }
        case .forLoop(let initial, let c, let updates, let body, _):
            for s in initial + body { collect(s, into: &names) }
            for e in updates + (c.map { [$0] } ?? []) { collect(e, into: &names) }
        case .tryCatch(let body, let catches, let finally, _):
            for s in body + (finally ?? []) { collect(s, into: &names) }
            for c in catches {
                names.insert(c.name)
                for s in c.body { collect(s, into: &names) }
            }
        case .throwValue(let e, _), .expression(let e):
            collect(e, into: &names)
        case .returnValue(let e, _):
            if let e { collect(e, into: &names) }
        case .block(let body):
            for s in body { collect(s, into: &names) }
        case .awaiting(let inner):
            collect(inner, into: &names)
        }
    }

    private static func collect(_ expr: DSLExpr, into names: inout Set<String>) {
        switch expr {
        case .number, .literal, .quantity, .string, .bool, .null, .name, .feature, .staticMember:
            break
        case .member(let e, _, _, _), .unary(_, let e, _), .cast(let e, _, _), .instanceOf(let e, _, _), .step(let e, _, _), .awaiting(let e):
            collect(e, into: &names)
        case .call(let callee, let arguments, _):
            collect(callee, into: &names)
            for a in arguments { collect(a, into: &names) }
        case .new(_, let arguments, _):
            for a in arguments { collect(a, into: &names) }
        case .binary(_, let l, let r, _), .assign(let l, _, let r, _):
            collect(l, into: &names)
            collect(r, into: &names)
        case .lambda(let syntax, _):
            names.formUnion(syntax.parameters)
            for s in syntax.body { collect(s, into: &names) }
        case .conditional(let c, let t, let o, _):
            for e in [c, t] + (o.map { [$0] } ?? []) { collect(e, into: &names) }
        case .switchOf(let subject, let cases, let otherwise, _):
            collect(subject, into: &names)
            for c in cases { for e in [c.value, c.then].compactMap({ $0 }) { collect(e, into: &names) } }
            if let otherwise { collect(otherwise, into: &names) }
        case .block(let body, _):
            for s in body { collect(s, into: &names) }
        case .collection(_, let elements, _):
            for e in elements { collect(e, into: &names) }
        }
    }

    // MARK: What pauses

    /// Whether a static access (`Thread::sleep`) may pause.
    private func pauses(_ expr: DSLExpr) -> Bool {
        guard case .staticMember(let type, let member, _) = expr else { return false }
        return DSLLibrary.suspendingStatics[type]?[member] != nil
    }

    /// Whether `receiver.name(arguments)` may pause: a method of that name may, or it calls a lambda that may.
    private func memberPauses(_ name: String, receiver: DSLExpr, arguments: [DSLExpr], _ scope: Scope) -> Bool {
        if DSLLibrary.suspendingMemberNames.contains(name) { return true }
        guard let receiverIsLambda = DSLLibrary.loopMethodNames[name] else { return false }
        return arguments.contains { mayBePausingLambda($0, scope) } || (receiverIsLambda && mayBePausingLambda(receiver, scope))
    }

    /// Whether a name that is no variable may pause as a function, or as a method of Xtend's implicit `it`.
    private func namePauses(_ name: String, arguments: [DSLExpr], _ scope: Scope = [:]) -> Bool {
        if DSLLibrary.suspendingFunctions[name] != nil || DSLLibrary.suspendingMemberNames.contains(name) { return true }
        guard let receiverIsLambda = DSLLibrary.loopMethodNames[name] else { return false }
        return arguments.contains { mayBePausingLambda($0, scope) } || (receiverIsLambda && unknownLambdaSuspends)
    }

    /// Whether the value of `expr` (marked) may be a lambda whose body may pause.
    private func mayBePausingLambda(_ expr: DSLExpr, _ scope: Scope) -> Bool {
        switch expr {
        case .lambda(let syntax, _):
            return syntax.suspends
        case .name(let name, _):
            if case .lambda(let suspends)? = scope[name] { return suspends }
            return unknownLambdaSuspends
        case .number, .literal, .quantity, .string, .bool, .null, .collection:
            return false
        case .awaiting(let inner):
            return mayBePausingLambda(inner, scope)
        default:
            return unknownLambdaSuspends
        }
    }
}
