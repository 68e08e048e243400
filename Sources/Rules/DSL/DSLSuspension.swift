import Simulation

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
///
/// It also resolves every variable once, to a slot of a frame (``DSLFrame``, ``DSLVariable``): a rule run's frame
/// holds openHAB's implicit variables and then the body's locals, a lambda call's its parameters and then its
/// locals, the file's globals frame its globals; a block that declares variables a lambda in it may capture gets a
/// frame of its own (``DSLStmt/framed(_:_:)``, a loop's or catch's variable ``DSLBinding/frame``), so that each
/// pass of a loop keeps its own as it kept its own scope. Names resolve in the order the interpreter looked them up
/// by name before: the innermost local first, then the implicit variables, then the file's globals; any other name
/// becomes a ``DSLExpr/feature(_:_:)`` (with the `it` in scope there).
struct DSLSuspension {
    /// What a name in scope holds, as far as the marker knows.
    private enum Known {
        /// A `val` holding a lambda literal, and whether its body may pause.
        case lambda(suspends: Bool)
        /// Any other variable.
        case other
    }

    /// A variable in scope: its frame (its place in ``frames``), its slot, whether it is a `var`.
    private struct Variable {
        let frame: Int
        let index: Int
        let mutable: Bool
    }

    private struct Scope {
        var known: [String: Known] = [:]
        var variables: [String: Variable] = [:]
        /// The frame declarations go to (its place in ``frames``).
        var frame = -1
        /// Inside a rule body (a global called `it` is no implicit receiver there, as it was not before).
        var inBody = false

        subscript(name: String) -> Known? {
            get { known[name] }
            set { known[name] = newValue }
        }
    }

    /// Whether a value the marker cannot follow may be a lambda that pauses.
    private let unknownLambdaSuspends: Bool
    /// Whether some lambda literal was found that may pause.
    private var sawSuspendingLambda = false
    /// The slots each open frame has so far, outermost first.
    private var frames: [Int] = []
    /// The slots of a body's frame that its names resolve to, while ``markFile`` probes which implicit variables
    /// it reads (a reference: the probe is a copy of the marker).
    private let implicitReads = SlotReads()

    private final class SlotReads {
        private var frame = -1
        private var indices = Set<Int>()

        func start(frame: Int) { self.frame = frame; indices = [] }
        func note(frame: Int, index: Int) { if frame == self.frame { indices.insert(index) } }
        func finish() -> Set<Int> { frame = -1; return indices }
    }

    private init(unknownLambdaSuspends: Bool) {
        self.unknownLambdaSuspends = unknownLambdaSuspends
    }

    /// Marks a file: its globals (declared in order, seen by every body) and its bodies.
    static func mark(globals: [DSLStmt], bodies: [[DSLStmt]]) -> (globals: DSLBody, bodies: [DSLBody]) {
        var first = DSLSuspension(unknownLambdaSuspends: false)
        let marked = first.markFile(globals, bodies)
        guard first.sawSuspendingLambda else { return marked }
        // Some lambda may pause: a lambda value not followed may be it.
        var second = DSLSuspension(unknownLambdaSuspends: true)
        return second.markFile(globals, bodies)
    }

    /// Marks a body on its own (a script file, a UI rule's script).
    static func mark(_ body: [DSLStmt]) -> DSLBody {
        mark(globals: [], bodies: [body]).bodies[0]
    }

    private mutating func markFile(_ globals: [DSLStmt], _ bodies: [[DSLStmt]]) -> (globals: DSLBody, bodies: [DSLBody]) {
        var scope = Scope()
        openFrame(&scope)
        // The globals' frame has the implicit variables' slots too, always null: a global's initializer or a
        // lambda written among the globals reads them as null, as before.
        for implicit in DSLImplicit.allCases { _ = declare(implicit.name, mutable: false, &scope) }
        let markedGlobals = globals.map { mark($0, &scope).0 }
        // 100,000 rules take about a second to mark: a cancelled task leaves the bodies after the check empty, and
        // `DSLCompiler.compileAll` ends with `rules.cancelled` (a single body is never cut: the check is every 256th).
        var cancellation = CancellationCheck(every: 256)
        var cancelled = false
        let marked = bodies.map { body in
            cancelled = cancelled || cancellation.isDue()
            if cancelled { return DSLBody(statements: [], frameSize: 0, capturable: false) }
            // A first pass on a copy finds which of openHAB's implicit variables the body reads; the run's frame
            // has slots for those only (a body that reads none makes, sets and frees no implicit slot per run).
            var probe = self
            var probeScope = scope
            probeScope.inBody = true
            probe.openFrame(&probeScope)
            for implicit in DSLImplicit.allCases { _ = probe.declare(implicit.name, mutable: false, &probeScope) }
            implicitReads.start(frame: probeScope.frame)
            for statement in body { _ = probe.mark(statement, &probeScope) }
            let read = DSLImplicit.allCases.filter { implicitReads.finish().contains($0.rawValue) }
            var inner = scope
            inner.inBody = true
            openFrame(&inner)
            let slots = read.map { DSLImplicitSlot(variable: $0, index: declare($0.name, mutable: false, &inner)) }
            let statements = body.map { mark($0, &inner).0 }
            return DSLBody(statements: DSLCode.tree(statements), frameSize: closeFrame(), capturable: Self.containsLambda(body), implicits: slots)
        }
        return (DSLBody(statements: DSLCode.tree(markedGlobals), frameSize: closeFrame(), capturable: true), marked)
    }

    // MARK: Frames

    private mutating func openFrame(_ scope: inout Scope) {
        frames.append(0)
        scope.frame = frames.count - 1
    }

    /// Closes the innermost frame. - Returns: its size.
    private mutating func closeFrame() -> Int { frames.removeLast() }

    /// Gives `name` the next slot of the scope's frame.
    private mutating func declare(_ name: String, mutable: Bool, _ scope: inout Scope) -> Int {
        let index = frames[scope.frame]
        frames[scope.frame] += 1
        scope.variables[name] = Variable(frame: scope.frame, index: index, mutable: mutable)
        return index
    }

    /// The variable `name` is where it is written, if it is one.
    private func resolve(_ name: String, _ scope: Scope) -> DSLVariable? {
        guard let v = scope.variables[name] else { return nil }
        implicitReads.note(frame: v.frame, index: v.index)
        return DSLVariable(name: name, depth: scope.frame - v.frame, index: v.index, mutable: v.mutable)
    }

    /// Xtend's implicit receiver where a name is written: the variable `it` (not a global in a rule body).
    private func it(_ scope: Scope) -> DSLVariable? {
        guard let v = scope.variables["it"], !(scope.inBody && v.frame == 0) else { return nil }
        return resolve("it", scope)
    }

    /// A block's statements: in a frame of their own when they declare a variable and make a lambda (which may
    /// capture it: a lambda made in one pass of a loop keeps that pass's variables), else in the enclosing frame.
    private mutating func markBlock(_ statements: [DSLStmt], _ scope: Scope) -> ([DSLStmt], Bool) {
        guard Self.declares(statements), Self.containsLambda(statements) else { return mark(statements, scope) }
        var inner = scope
        openFrame(&inner)
        let (marked, suspends) = mark(statements, inner)
        let framed = DSLStmt.framed(closeFrame(), marked)
        return ([suspends ? .awaiting(framed) : framed], suspends)
    }

    private static func declares(_ statements: [DSLStmt]) -> Bool {
        statements.contains { statement in
            switch statement {
            case .declare, .awaiting(.declare): return true
            default: return false
            }
        }
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
            scope[name.name] = known
            var binding = name
            binding.slot = declare(name.name, mutable: mutable, &scope)
            return (.declare(mutable: mutable, name: binding, type: type, value: marked, at), suspends)
        case .ifElse(let condition, let then, let otherwise, let at):
            let (c, p1) = mark(condition, scope), (t, p2) = markBlock(then, scope)
            let (o, p3) = otherwise.map { markBlock($0, scope) } ?? (nil, false)
            return (.ifElse(c, t, o, at), p1 || p2 || p3)
        case .whileLoop(let condition, let body, let at):
            let (c, p1) = mark(condition, scope), (b, p2) = markBlock(body, scope)
            return (.whileLoop(c, b, at), p1 || p2)
        case .doWhile(let body, let condition, let at):
            let (b, p1) = markBlock(body, scope), (c, p2) = mark(condition, scope)
            return (.doWhile(b, c, at), p1 || p2)
        case .forEach(let name, let iterable, let body, let at):
            let (i, p1) = mark(iterable, scope)
            var inner = scope
            inner[name.name] = .other
            // Each pass has a frame of its own (the variable and the body's locals) when a lambda may capture them.
            let framed = Self.containsLambda(body)
            if framed { openFrame(&inner) }
            var binding = name
            binding.slot = declare(name.name, mutable: false, &inner)
            let (b, p2) = mark(body, inner)
            if framed { binding.frame = closeFrame() }
            return (.forEach(binding, i, b, at), p1 || p2)
        case .forLoop(let initial, let condition, let updates, let body, let at):
            var inner = scope
            // Its own frame for the variables it declares when a lambda in it may capture them.
            let framed = Self.declares(initial) && Self.containsLambda([statement])
            if framed { openFrame(&inner) }
            var suspends = false
            let i = initial.map { s in let (m, p) = mark(s, &inner); suspends = suspends || p; return m }
            let c = condition.map { e in let (m, p) = mark(e, inner); suspends = suspends || p; return m }
            let u = updates.map { e in let (m, p) = mark(e, inner); suspends = suspends || p; return m }
            let (b, p) = markBlock(body, inner)
            let loop = DSLStmt.forLoop(i, c, u, b, at)
            guard framed else { return (loop, suspends || p) }
            return (.framed(closeFrame(), [suspends || p ? .awaiting(loop) : loop]), suspends || p)
        case .tryCatch(let body, let catches, let finally, let at):
            var (b, suspends) = markBlock(body, scope)
            let c = catches.map { c in
                var inner = scope
                inner[c.name.name] = .other
                let framed = Self.containsLambda(c.body)
                if framed { openFrame(&inner) }
                var binding = c.name
                binding.slot = declare(c.name.name, mutable: false, &inner)
                let (m, p) = mark(c.body, inner)
                if framed { binding.frame = closeFrame() }
                suspends = suspends || p
                return DSLCatch(type: c.type, name: binding, body: m)
            }
            let (f, p) = finally.map { markBlock($0, scope) } ?? (nil, false)
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
            let (b, p) = markBlock(body, scope)
            return (.block(b), p)
        case .awaiting(let inner):
            return markUnwrapped(inner, &scope)
        case .framed(let size, let body):
            return (.framed(size, body), Self.mayPause(body))  // marked already
        case .compiled:  // compiled after marking: never marked again
            return (statement, false)
        }
    }

    private static func mayPause(_ statements: [DSLStmt]) -> Bool {
        statements.contains { if case .awaiting = $0 { true } else { false } }
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
            let resolved: DSLExpr = resolve(name, scope).map { .variable($0, at) } ?? .feature(DSLFeature(name, it: it(scope)), at)
            return (resolved, scope[name] == nil && namePauses(name, arguments: []))
        case .variable:
            return (expr, false)
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
            case .name(let name, let nameAt):
                // A call with arguments is the function even where a variable has its name (Xbase links it so).
                return (.call(.feature(DSLFeature(name, it: it(scope)), nameAt), a, at),
                        p1 || ((scope[name] == nil || !a.isEmpty) && namePauses(name, arguments: a, scope)))
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
            // A call's frame: its parameters (or `it`) in the first slots, then its body's locals.
            let outerIt = syntax.implicitIt ? resolve("it", scope) : nil
            var inner = scope
            openFrame(&inner)
            if syntax.implicitIt {
                inner["it"] = .other
                _ = declare("it", mutable: false, &inner)
            }
            for parameter in syntax.parameters {
                inner[parameter] = .other
                _ = declare(parameter, mutable: false, &inner)
            }
            let (body, suspends) = mark(syntax.body, inner)
            let frameSize = closeFrame()
            if suspends { sawSuspendingLambda = true }
            // Making a lambda does not pause; calling it may.
            return (.lambda(DSLLambdaSyntax(parameters: syntax.parameters, implicitIt: syntax.implicitIt, body: body, suspends: suspends,
                                            frameSize: frameSize, capturable: Self.containsLambda(syntax.body), outerIt: outerIt), at), false)
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
            let (b, p) = markBlock(body, scope)
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
        case .compiled:  // compiled after marking: never marked again
            return (expr, false)
        }
    }

    /// An assignment's target: a variable, or a property whose setter (and getter, when `reads`) is called.
    private mutating func markTarget(_ target: DSLExpr, reads: Bool, _ scope: Scope) -> (DSLExpr, Bool) {
        if case .name(let name, let at) = target {  // a variable (one not declared stays a name: assigning it fails, as before)
            return (resolve(name, scope).map { .variable($0, at) } ?? target, false)
        }
        guard case .member(let receiver, let member, let nullSafe, let at) = target else { return mark(target, scope) }
        let (r, p) = mark(receiver, scope)
        let suspends = p || DSLLibrary.suspendingMemberNames.contains(DSLInterpreter.setter(member.name))
            || (reads && memberPauses(member.name, receiver: r, arguments: [], scope))
        let marked = DSLExpr.member(r, member, nullSafe: nullSafe, at)
        return (suspends ? .awaiting(marked) : marked, suspends)
    }

    // MARK: Lambdas

    /// Whether `statements` make a lambda anywhere (nested ones included).
    private static func containsLambda(_ statements: [DSLStmt]) -> Bool {
        statements.contains(where: containsLambda)
    }

    private static func containsLambda(_ statement: DSLStmt) -> Bool {
        switch statement {
        case .declare(_, _, _, let value, _):
            return value.map(containsLambda) ?? false
        case .ifElse(let c, let t, let o, _):
            return containsLambda(c) || containsLambda(t) || containsLambda(o ?? [])
        case .whileLoop(let c, let body, _), .doWhile(let body, let c, _):
            return containsLambda(c) || containsLambda(body)
        case .forEach(_, let iterable, let body, _):
            return containsLambda(iterable) || containsLambda(body)
        case .forLoop(let initial, let c, let updates, let body, _):
            return containsLambda(initial) || containsLambda(body) || updates.contains(where: containsLambda) || (c.map(containsLambda) ?? false)
        case .tryCatch(let body, let catches, let finally, _):
            return containsLambda(body) || containsLambda(finally ?? []) || catches.contains { containsLambda($0.body) }
        case .throwValue(let e, _), .expression(let e):
            return containsLambda(e)
        case .returnValue(let e, _):
            return e.map(containsLambda) ?? false
        case .block(let body), .framed(_, let body):
            return containsLambda(body)
        case .awaiting(let inner):
            return containsLambda(inner)
        case .compiled(let c):
            return containsLambda(c.syntax)
        }
    }

    private static func containsLambda(_ expr: DSLExpr) -> Bool {
        switch expr {
        case .number, .literal, .quantity, .string, .bool, .null, .name, .variable, .feature, .staticMember:
            return false
        case .lambda:
            return true
        case .member(let e, _, _, _), .unary(_, let e, _), .cast(let e, _, _), .instanceOf(let e, _, _), .step(let e, _, _), .awaiting(let e):
            return containsLambda(e)
        case .compiled(let c):
            return containsLambda(c.syntax)
        case .call(let callee, let arguments, _):
            return containsLambda(callee) || arguments.contains(where: containsLambda)
        case .new(_, let arguments, _), .collection(_, let arguments, _):
            return arguments.contains(where: containsLambda)
        case .binary(_, let l, let r, _), .assign(let l, _, let r, _):
            return containsLambda(l) || containsLambda(r)
        case .conditional(let c, let t, let o, _):
            return containsLambda(c) || containsLambda(t) || (o.map(containsLambda) ?? false)
        case .switchOf(let subject, let cases, let otherwise, _):
            return containsLambda(subject) || (otherwise.map(containsLambda) ?? false)
                || cases.contains { c in [c.value, c.then].contains { $0.map(containsLambda) ?? false } }
        case .block(let body, _):
            return containsLambda(body)
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
    private func namePauses(_ name: String, arguments: [DSLExpr], _ scope: Scope = Scope()) -> Bool {
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
        case .variable(let variable, _):
            if case .lambda(let suspends)? = scope[variable.name] { return suspends }
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
