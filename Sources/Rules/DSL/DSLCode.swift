import SmartHome

/// An expression compiled: runs it in a frame on a run's interpreter.
typealias DSLCodeExpr = @Sendable (DSLFrame, DSLInterpreter) throws(DSLFlow) -> DSLValue
/// Statements compiled: run them; their value is the last one's (`nil`: a statement without a value).
typealias DSLStmtCode = @Sendable (DSLFrame, DSLInterpreter) throws(DSLFlow) -> DSLValue?

/// An expression compiled, with its syntax (its location and form; never walked to run it).
struct DSLCompiledExpr: Sendable {
    let code: DSLCodeExpr
    let syntax: DSLExpr
}

/// A statement compiled, with its syntax.
struct DSLCompiledStmt: Sendable {
    let code: DSLStmtCode
    let syntax: DSLStmt
}

/// Compiled code held in an array or an optional: a struct keeps the function in its own calling convention (a bare
/// function type in a generic container is re-abstracted, and each call of it would go through two thunks).
struct DSLExprBox: Sendable {
    let run: DSLCodeExpr
}

struct DSLStmtBox: Sendable {
    let run: DSLStmtCode
}

/// Compiles bodies, once after ``DSLSuspension`` marked and resolved them, into closures that hold their children and
/// their slots: a run calls them without switching over syntax, copying payloads out of indirect enum boxes or deciding
/// again what is constant (an operator, a literal's value, a variable's slot, which way a name call goes).
///
/// ``tree(_:)-([DSLStmt])`` replaces every statement and expression that may not pause by its code
/// (``DSLStmt/compiled(_:)``, ``DSLExpr/compiled(_:)``); a marked one (``DSLStmt/awaiting(_:)``) keeps its form for the
/// interpreter's suspending walk, with its children replaced the same way. So each subtree runs one way: compiled, or
/// (only what may pause) walked. Steps (``DSLInterpreter/tick(_:)``), coverage hooks and errors are where the walk had them.
enum DSLCode {
    // MARK: The tree the interpreter runs

    static func tree(_ statements: [DSLStmt]) -> [DSLStmt] { statements.map(tree) }

    static func tree(_ statement: DSLStmt) -> DSLStmt {
        switch statement {
        case .awaiting(let marked): return .awaiting(awaiting(marked))
        case .compiled: return statement
        default: return .compiled(DSLCompiledStmt(code: self.statement(statement), syntax: statement))
        }
    }

    static func tree(_ expr: DSLExpr) -> DSLExpr {
        switch expr {
        case .awaiting(let marked): return .awaiting(awaiting(marked))
        case .compiled: return expr
        default: return .compiled(DSLCompiledExpr(code: self.expr(expr), syntax: expr))
        }
    }

    /// A marked statement's children.
    private static func awaiting(_ statement: DSLStmt) -> DSLStmt {
        switch statement {
        case .declare(let mutable, let name, let type, let value, let at):
            return .declare(mutable: mutable, name: name, type: type, value: value.map(tree), at)
        case .ifElse(let c, let t, let o, let at): return .ifElse(tree(c), tree(t), o.map(tree), at)
        case .whileLoop(let c, let body, let at): return .whileLoop(tree(c), tree(body), at)
        case .doWhile(let body, let c, let at): return .doWhile(tree(body), tree(c), at)
        case .forEach(let name, let iterable, let body, let at): return .forEach(name, tree(iterable), tree(body), at)
        case .forLoop(let initial, let c, let updates, let body, let at):
            return .forLoop(tree(initial), c.map(tree), updates.map(tree), tree(body), at)
        case .tryCatch(let body, let catches, let finally, let at):
            return .tryCatch(tree(body), catches.map { DSLCatch(type: $0.type, name: $0.name, body: tree($0.body)) }, finally.map(tree), at)
        case .throwValue(let e, let at): return .throwValue(tree(e), at)
        case .expression(let e): return .expression(tree(e))
        case .returnValue(let e, let at): return .returnValue(e.map(tree), at)
        case .block(let body): return .block(tree(body))
        case .framed(let size, let body): return .framed(size, tree(body))
        case .awaiting(let inner): return .awaiting(awaiting(inner))
        case .compiled: return statement
        }
    }

    /// A marked expression's children; the parts the suspending walk looks at (a call's callee, an assignment's
    /// target, a map literal's `->` pairs) keep their form with their own children replaced.
    private static func awaiting(_ expr: DSLExpr) -> DSLExpr {
        switch expr {
        case .number, .literal, .quantity, .string, .bool, .null, .name, .variable, .feature, .staticMember, .lambda, .compiled:
            return expr
        case .member(let r, let member, let nullSafe, let at): return .member(tree(r), member, nullSafe: nullSafe, at)
        case .call(let callee, let arguments, let at):
            switch callee {
            case .member(let r, let member, let nullSafe, let memberAt):
                return .call(.member(tree(r), member, nullSafe: nullSafe, memberAt), arguments.map(tree), at)
            case .staticMember, .feature: return .call(callee, arguments.map(tree), at)
            default: return .call(tree(callee), arguments.map(tree), at)
            }
        case .unary(let op, let e, let at): return .unary(op, tree(e), at)
        case .binary(let op, let l, let r, let at): return .binary(op, tree(l), tree(r), at)
        case .cast(let e, let type, let at): return .cast(tree(e), type, at)
        case .instanceOf(let e, let type, let at): return .instanceOf(tree(e), type, at)
        case .conditional(let c, let t, let o, let at): return .conditional(tree(c), tree(t), o.map(tree), at)
        case .switchOf(let subject, let cases, let otherwise, let at):
            return .switchOf(tree(subject), cases.map { DSLCase(type: $0.type, value: $0.value.map(tree), then: $0.then.map(tree), location: $0.location) },
                             otherwise.map(tree), at)
        case .block(let body, let at): return .block(tree(body), at)
        case .collection(let kind, let elements, let at):
            return .collection(kind, elements.map { e in
                guard kind == .set, case .binary("->", let k, let v, let pairAt) = e.unmarked else { return tree(e) }
                let pair = DSLExpr.binary("->", tree(k), tree(v), pairAt)
                if case .awaiting = e { return .awaiting(pair) }
                return pair
            }, at)
        case .new(let type, let arguments, let at): return .new(type, arguments.map(tree), at)
        case .assign(let target, let op, let value, let at): return .assign(self.target(target, reads: op != "="), op, tree(value), at)
        case .step(let target, let op, let at): return .step(self.target(target, reads: true), op, at)
        case .awaiting(let inner): return .awaiting(awaiting(inner))
        }
    }

    /// An assignment's target in a marked assignment: the form the store looks at (a variable as it is, a property with
    /// its receiver replaced). When the assignment reads it (`+=`, `++`) and the read cannot pause, it is that form
    /// compiled (its syntax the form), so the walk runs the read's code and compiles nothing at run time.
    private static func target(_ target: DSLExpr, reads: Bool) -> DSLExpr {
        switch target {
        case .member(let r, let member, let nullSafe, let at):
            let form = DSLExpr.member(tree(r), member, nullSafe: nullSafe, at)
            return reads ? .compiled(DSLCompiledExpr(code: expr(form), syntax: form)) : form
        case .awaiting(.member(let r, let member, let nullSafe, let at)): return .awaiting(.member(tree(r), member, nullSafe: nullSafe, at))
        default: return reads ? tree(target) : target
        }
    }

    /// A lambda with its body replaced, and compiled whole when it cannot pause.
    private static func lambda(_ syntax: DSLLambdaSyntax) -> DSLLambdaSyntax {
        var compiled = syntax
        compiled.body = tree(syntax.body)
        compiled.code = syntax.suspends ? nil : DSLStmtBox(run: block(compiled.body))
        return compiled
    }

    private static func exprBox(_ e: DSLExpr?) -> DSLExprBox? {
        guard let e else { return nil }
        return DSLExprBox(run: expr(e))
    }

    private static func blockBox(_ statements: [DSLStmt]?) -> DSLStmtBox? {
        guard let statements else { return nil }
        return DSLStmtBox(run: block(statements))
    }

    // MARK: Statements

    /// Statements run in order; the value is the last one's.
    static func block(_ statements: [DSLStmt]) -> DSLStmtCode {
        let codes = statements.map { DSLStmtBox(run: statement($0)) }
        switch codes.count {
        case 0: return { _, _ in nil }
        case 1: return codes[0].run
        case 2:
            let first = codes[0].run, second = codes[1].run
            return { f, i throws(DSLFlow) in
                _ = try first(f, i)
                return try second(f, i)
            }
        default:
            return { f, i throws(DSLFlow) in
                var last: DSLValue?
                for code in codes { last = try code.run(f, i) }
                return last
            }
        }
    }

    static func statement(_ statement: DSLStmt) -> DSLStmtCode {
        switch statement {
        case .compiled(let c):
            return c.code
        case .declare(_, let name, let type, let value, let at):
            let slot = name.slot
            guard let value else {
                return { f, i throws(DSLFlow) in
                    i.covered(at)
                    try i.tick(at)
                    f[slot] = .null
                    return nil
                }
            }
            let code = expr(value)
            if let type {
                return { f, i throws(DSLFlow) in
                    i.covered(at)
                    try i.tick(at)
                    f[slot] = DSLInterpreter.declared(type, try code(f, i))
                    return nil
                }
            }
            return { f, i throws(DSLFlow) in
                i.covered(at)
                try i.tick(at)
                f[slot] = try code(f, i)
                return nil
            }
        case .ifElse(let condition, let then, let otherwise, let at):
            let c = expr(condition), t = block(then), o = blockBox(otherwise)
            return { f, i throws(DSLFlow) in
                i.covered(at)
                let holds = try i.truth(try c(f, i), at)
                i.coverage?.took(holds ? 0 : 1, at: at)
                if holds { return try t(f, i) }
                if let o { return try o.run(f, i) }
                return nil
            }
        case .whileLoop(let condition, let body, let at):
            let c = expr(condition), b = block(body)
            return { f, i throws(DSLFlow) in
                i.covered(at)
                while try i.truth(try c(f, i), at) {
                    try i.tick(at)
                    _ = try b(f, i)
                }
                return nil
            }
        case .doWhile(let body, let condition, let at):
            let c = expr(condition), b = block(body)
            return { f, i throws(DSLFlow) in
                i.covered(at)
                repeat {
                    try i.tick(at)
                    _ = try b(f, i)
                } while try i.truth(try c(f, i), at)
                return nil
            }
        case .forEach(let name, let iterable, let body, let at):
            let e = expr(iterable), b = block(body)
            return { f, i throws(DSLFlow) in
                i.covered(at)
                for element in try i.elements(of: try e(f, i), at) {
                    try i.tick(at)
                    _ = try b(DSLInterpreter.pass(name, element, f), i)
                }
                return nil
            }
        case .forLoop(let initial, let condition, let updates, let body, let at):
            let start = block(initial), c = exprBox(condition), u = updates.map { DSLExprBox(run: expr($0)) }, b = block(body)
            return { f, i throws(DSLFlow) in
                i.covered(at)
                _ = try start(f, i)
                while try c == nil ? true : i.truth(try c!.run(f, i), at) {
                    try i.tick(at)
                    _ = try b(f, i)
                    for update in u { _ = try update.run(f, i) }
                }
                return nil
            }
        case .tryCatch(let body, let catches, let finally, let at):
            let b = block(body), handlers = catches.map { DSLStmtBox(run: block($0.body)) }, fin = blockBox(finally)
            return { f, i throws(DSLFlow) in
                i.covered(at)
                var result: DSLValue?
                do throws(DSLFlow) {
                    result = try b(f, i)
                } catch {
                    guard let (index, inner) = DSLInterpreter.handler(for: error, in: catches, f) else {
                        if let fin { _ = try fin.run(f, i) }
                        throw error
                    }
                    do throws(DSLFlow) {
                        result = try handlers[index].run(inner, i)
                    } catch {
                        if let fin { _ = try fin.run(f, i) }
                        throw error
                    }
                }
                if let fin { _ = try fin.run(f, i) }
                return result
            }
        case .throwValue(let e, let at):
            let value = expr(e)
            return { f, i throws(DSLFlow) in
                i.covered(at)
                throw DSLInterpreter.thrown(try value(f, i), at)
            }
        case .expression(let e):
            let value = expr(e), at = e.location
            return { f, i throws(DSLFlow) in
                i.covered(at)
                return try value(f, i)
            }
        case .returnValue(let e, let at):
            guard let e else {
                return { _, i throws(DSLFlow) in
                    i.covered(at)
                    throw DSLFlow.returned(nil)
                }
            }
            let value = expr(e)
            return { f, i throws(DSLFlow) in
                i.covered(at)
                throw DSLFlow.returned(try value(f, i))
            }
        case .block(let statements):
            return block(statements)
        case .framed(let size, let statements):
            let b = block(statements)
            return { f, i throws(DSLFlow) in try b(DSLFrame.make(size: size, parent: f, shared: true), i) }
        case .awaiting(let inner):
            let at = DSLInterpreter.location(of: inner)
            return { _, i throws(DSLFlow) in
                i.covered(at)
                throw DSLLibrary.unmarked("this statement", at)
            }
        }
    }

    // MARK: Expressions

    static func expr(_ expr: DSLExpr) -> DSLCodeExpr {
        switch expr {
        case .compiled(let c):
            return c.code
        case .number(let n, let at):
            guard let value = DSLInterpreter.literal(n) else {
                return { _, _ throws(DSLFlow) in throw DSLFlow.failure("\(n) is not a number", at, type: "NumberFormatException") }
            }
            return { _, _ in value }
        case .literal(let value, _):
            return { _, _ in value }
        case .quantity(let n, let unit, let at):
            guard let q = Quantity(parsing: "\(n) \(unit)") else {
                return { _, _ throws(DSLFlow) in throw DSLFlow.failure("\(n)|\(unit) is not a quantity the twin knows", at) }
            }
            let value = DSLValue.quantity(q)
            return { _, _ in value }
        case .string(let s, _):
            let value = DSLValue.string(s)
            return { _, _ in value }
        case .bool(let b, _):
            let value = DSLValue.bool(b)
            return { _, _ in value }
        case .null:
            return { _, _ in .null }
        case .variable(let variable, _):
            let index = variable.index
            switch variable.depth {
            case 0: return { f, _ in f[index] }
            case 1: return { f, _ in f.ancestor(1)[index] }
            default: return { f, _ in f.value(of: variable) }
            }
        case .name(let name, let at):  // not resolved (``DSLSuspension`` resolves every name it reads)
            return feature(DSLFeature(name), at)
        case .feature(let f, let at):
            return feature(f, at)
        case .lambda(let syntax, _):
            let compiled = DSLLambda(lambda(syntax))
            return { f, _ in .lambda(DSLClosure(lambda: compiled, frame: f)) }
        case .unary(let op, let operand, let at):
            let o = self.expr(operand)
            switch op {
            case "!":
                return { f, i throws(DSLFlow) in
                    try i.tick(at)
                    return .bool(!(try i.truth(try o(f, i), at)))
                }
            case "+":
                return { f, i throws(DSLFlow) in
                    try i.tick(at)
                    return try o(f, i)
                }
            default:
                return { f, i throws(DSLFlow) in
                    try i.tick(at)
                    let value = try o(f, i)
                    if case .int(let n) = value { return .int(0 &- n) }
                    return try DSLOperators.negate(value, at)
                }
            }
        case .binary(let op, let l, let r, let at):
            return binary(op, self.expr(l), self.expr(r), at)
        case .cast(let inner, let type, let at):
            let e = self.expr(inner)
            return { f, i throws(DSLFlow) in try DSLOperators.cast(try e(f, i), to: type, at, i) }
        case .instanceOf(let inner, let type, _):
            let e = self.expr(inner)
            return { f, i throws(DSLFlow) in .bool(DSLOperators.isInstance(try e(f, i), of: type)) }
        case .conditional(let condition, let then, let otherwise, let at):
            let c = self.expr(condition), t = self.expr(then), o = exprBox(otherwise)
            return { f, i throws(DSLFlow) in
                let holds = try i.truth(try c(f, i), at)
                i.coverage?.took(holds ? 0 : 1, at: at)
                if holds { return try t(f, i) }
                guard let o else { return .null }
                return try o.run(f, i)
            }
        case .switchOf(let subjectExpr, let cases, let otherwise, let switchAt):
            let subject = self.expr(subjectExpr), o = exprBox(otherwise)
            let compiled = cases.map { c in (type: c.type, value: exprBox(c.value), then: exprBox(c.then), at: c.location) }
            return { f, i throws(DSLFlow) in
                let value = try subject(f, i)
                var matched = false
                for index in compiled.indices {
                    let c = compiled[index]
                    try i.tick(c.at)
                    if !matched {
                        if let type = c.type, !DSLOperators.isInstance(value, of: type) { continue }
                        if let guardValue = c.value, !DSLInterpreter.matches(value, try guardValue.run(f, i)) { continue }
                        matched = true
                        i.coverage?.took(index, at: switchAt)
                    }
                    if let then = c.then { return try then.run(f, i) }
                }
                if !matched { i.coverage?.took(compiled.count, at: switchAt) }
                if let o { return try o.run(f, i) }
                return .null
            }
        case .block(let statements, _):
            let b = block(statements)
            return { f, i throws(DSLFlow) in try b(f, i) ?? .null }
        case .collection(let kind, let elementExprs, let at):
            // `#{k -> v}`: a map's pairs, each key and value evaluated in order.
            let elements = elementExprs.map { e -> (DSLExprBox, DSLExprBox?) in
                if kind == .set, case .binary("->", let k, let v, _) = e.unmarked { return (DSLExprBox(run: self.expr(k)), DSLExprBox(run: self.expr(v))) }
                return (DSLExprBox(run: self.expr(e)), nil)
            }
            return { f, i throws(DSLFlow) in
                var values: [DSLValue] = []
                var pairs: [(DSLValue, DSLValue)] = []
                for (first, second) in elements {
                    if let second {
                        pairs.append((try first.run(f, i), try second.run(f, i)))
                    } else {
                        values.append(try first.run(f, i))
                    }
                }
                return try DSLInterpreter.collection(kind, values, pairs, at)
            }
        case .new(let type, let argumentExprs, let at):
            let arguments = self.arguments(argumentExprs)
            return { f, i throws(DSLFlow) in
                try i.tick(at)
                return try DSLLibrary.construct(type, try arguments(f, i), at, i)
            }
        case .assign(let target, let op, let valueExpr, let at):
            let value = self.expr(valueExpr), store = self.store(target, at)
            guard op != "=" else {
                return { f, i throws(DSLFlow) in
                    try i.tick(at)
                    let v = try value(f, i)
                    try store(v, f, i)
                    return v
                }
            }
            let read = self.expr(target), operation = String(op.dropLast())
            return { f, i throws(DSLFlow) in
                try i.tick(at)
                var v = try value(f, i)
                v = try DSLOperators.apply(operation, try read(f, i), v, at, i)
                try store(v, f, i)
                return v
            }
        case .step(let target, let op, let at):
            let read = self.expr(target), store = self.store(target, at), operation = op == "++" ? "+" : "-"
            return { f, i throws(DSLFlow) in
                try i.tick(at)
                let old = try read(f, i)
                try store(try DSLOperators.apply(operation, old, .int(1), at, i), f, i)
                return old
            }
        case .staticMember(let type, let member, let at):
            return { _, i throws(DSLFlow) in
                try i.tick(at)
                return try DSLLibrary.staticAccess(type, member, nil, at, i)
            }
        case .member(let receiverExpr, let member, let nullSafe, let at):
            let receiver = self.expr(receiverExpr), name = member.name, methods = member.methods
            let nullValue: DSLValue? = nullSafe ? DSLInterpreter.nullSafeDefault(name) : nil
            return { f, i throws(DSLFlow) in
                try i.tick(at)
                let r = try receiver(f, i)
                if let nullValue, case .null = r { return nullValue }
                if case .type(let type) = r { return try DSLLibrary.staticAccess(type, name, nil, at, i) }
                return try DSLLibrary.invoke(r, name, methods: methods, [], at, i)
            }
        case .call(let callee, let argumentExprs, let at):
            return call(callee, argumentExprs, at)
        case .awaiting(let inner):
            let at = inner.location
            return { _, _ throws(DSLFlow) in throw DSLLibrary.unmarked("this expression", at) }
        }
    }

    /// `l op r`: `&&`, `||` and `?:` evaluate `r` only when needed; the others go to ``DSLOperators/apply(_:_:_:_:_:)``.
    private static func binary(_ op: String, _ l: @escaping DSLCodeExpr, _ r: @escaping DSLCodeExpr, _ at: DSLLocation) -> DSLCodeExpr {
        switch op {
        case "&&":
            return { f, i throws(DSLFlow) in
                try i.tick(at)
                guard try i.truth(try l(f, i), at) else { return .bool(false) }
                return .bool(try i.truth(try r(f, i), at))
            }
        case "||":
            return { f, i throws(DSLFlow) in
                try i.tick(at)
                if try i.truth(try l(f, i), at) { return .bool(true) }
                return .bool(try i.truth(try r(f, i), at))
            }
        case "?:":
            return { f, i throws(DSLFlow) in
                try i.tick(at)
                let left = try l(f, i)
                if case .null = left { return try r(f, i) }
                return left
            }
        default:
            return { f, i throws(DSLFlow) in
                try i.tick(at)
                let left = try l(f, i), right = try r(f, i)
                return try DSLOperators.apply(op, left, right, at, i)
            }
        }
    }

    /// A call's arguments, evaluated in order.
    private static func arguments(_ exprs: [DSLExpr]) -> @Sendable (DSLFrame, DSLInterpreter) throws(DSLFlow) -> [DSLValue] {
        let codes = exprs.map { DSLExprBox(run: expr($0)) }
        switch codes.count {
        case 0: return { _, _ in [] }
        case 1:
            let only = codes[0].run
            return { f, i throws(DSLFlow) in [try only(f, i)] }
        default:
            return { f, i throws(DSLFlow) in
                var values: [DSLValue] = []
                values.reserveCapacity(codes.count)
                for code in codes { values.append(try code.run(f, i)) }
                return values
            }
        }
    }

    /// `callee(arguments)`: a method of a receiver, a static member, or a name (``DSLInterpreter/NameCall``, decided here).
    private static func call(_ callee: DSLExpr, _ argumentExprs: [DSLExpr], _ at: DSLLocation) -> DSLCodeExpr {
        let arguments = self.arguments(argumentExprs)
        switch callee {
        case .member(let receiverExpr, let member, let nullSafe, let memberAt):
            let receiver = expr(receiverExpr), name = member.name, methods = member.methods
            guard nullSafe else {  // no default value held by the code of a plain `.` call
                return { f, i throws(DSLFlow) in
                    try i.tick(at)
                    let r = try receiver(f, i)
                    let values = try arguments(f, i)
                    if case .type(let type) = r { return try DSLLibrary.staticAccess(type, name, values, memberAt, i) }
                    return try DSLLibrary.invoke(r, name, methods: methods, values, memberAt, i)
                }
            }
            let nullValue = DSLInterpreter.nullSafeDefault(name)
            return { f, i throws(DSLFlow) in
                try i.tick(at)
                let r = try receiver(f, i)
                if case .null = r { return nullValue }
                let values = try arguments(f, i)
                if case .type(let type) = r { return try DSLLibrary.staticAccess(type, name, values, memberAt, i) }
                return try DSLLibrary.invoke(r, name, methods: methods, values, memberAt, i)
            }
        case .staticMember(let type, let member, let memberAt):
            return { f, i throws(DSLFlow) in
                try i.tick(at)
                return try DSLLibrary.staticAccess(type, member, try arguments(f, i), memberAt, i)
            }
        case .feature(let feature, let nameAt):
            let name = feature.name
            switch DSLInterpreter.call(feature, argumentExprs.count) {
            case .feature:
                let value = self.feature(feature, nameAt)
                return { f, i throws(DSLFlow) in
                    try i.tick(at)
                    return try value(f, i)
                }
            case .itMember(let it):
                return { f, i throws(DSLFlow) in
                    try i.tick(at)
                    let receiver = f.value(of: it)
                    return try DSLLibrary.invoke(receiver, name, try arguments(f, i), at, i)
                }
            case .function:
                return { f, i throws(DSLFlow) in
                    try i.tick(at)
                    return try DSLLibrary.callFunction(name, try arguments(f, i), at, i)
                }
            }
        default:
            return { _, i throws(DSLFlow) in
                try i.tick(at)
                throw DSLFlow.failure("only functions and methods can be called", at)
            }
        }
    }

    /// A name that is no variable (``DSLInterpreter/feature(_:_:_:)``): what is known once (a member of the implicit
    /// `it`, a state constant, a function) decided here, the rest (the run's Items, `now`) when it runs.
    private static func feature(_ feature: DSLFeature, _ at: DSLLocation) -> DSLCodeExpr {
        let name = feature.name, methods = feature.methods
        if feature.isMethod, let it = feature.it {
            return { f, i throws(DSLFlow) in try DSLLibrary.invoke(f.value(of: it), name, methods: methods, [], at, i) }
        }
        if feature.isMethod || feature.item == nil {  // no Item of the body's comes first
            if let constant = feature.constant { return { _, _ in constant } }
            if feature.isFunction { return { _, i throws(DSLFlow) in try DSLLibrary.callFunction(name, [], at, i) } }
        }
        // The feature is held by one reference: a closure holds what it captures inline, and a file of 100,000 rules
        // holds as many of these (`Docs/RULES.md`, memory per rule).
        let held = FeatureRef(feature)
        return { f, i throws(DSLFlow) in
            let feature = held.feature
            switch try i.feature(feature, f, at) {
            case .value(let value): return value
            case .itMember(let it): return try DSLLibrary.invoke(it, feature.name, methods: feature.methods, [], at, i)
            case .function: return try DSLLibrary.callFunction(feature.name, [], at, i)
            }
        }
    }

    /// A feature held by reference in its compiled code.
    private final class FeatureRef: Sendable {
        let feature: DSLFeature
        init(_ feature: DSLFeature) { self.feature = feature }
    }

    /// `target = value` for a variable or a property (`Item.state = v` is not a property openHAB writes).
    static func store(_ target: DSLExpr, _ at: DSLLocation) -> @Sendable (DSLValue, DSLFrame, DSLInterpreter) throws(DSLFlow) -> Void {
        switch target.unmarked {
        case .variable(let variable, _):
            guard variable.mutable else {
                return { _, _, _ throws(DSLFlow) in throw DSLFlow.failure("\(variable.name) is a val and cannot be assigned", at) }
            }
            return { value, f, _ in f.set(variable, value) }
        case .name(let name, _):  // a name no variable in scope has (the checker refuses it before a run)
            return { _, _, _ throws(DSLFlow) in throw DSLFlow.failure("there is no variable \(name) to assign; declare it with var", at) }
        case .member(let receiverExpr, let member, _, _):
            let receiver = expr(receiverExpr), setter = DSLInterpreter.setter(member.name)
            return { value, f, i throws(DSLFlow) in _ = try DSLLibrary.invoke(try receiver(f, i), setter, [value], at, i) }
        default:
            return { _, _, _ throws(DSLFlow) in throw DSLFlow.failure("only a variable or a property can be assigned", at) }
        }
    }
}
