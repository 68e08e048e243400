import Simulation
import SmartHome

/// How a body stops early: `return`, or a runtime error (located), which ends the run as openHAB logs it.
enum DSLFlow: Error {
    case returned(DSLValue?)
    case failure(String, DSLLocation)
}

/// Runs DSL statements against a rule run (``RuleExecution``): Items, commands, the clock, timers, the log.
struct DSLInterpreter: Sendable {
    let execution: RuleExecution
    /// The rule the body belongs to (timers run later as runs of it).
    let rule: Rule
    let globals: DSLScope

    /// The most iterations a `while` may make in one run (a loop that never ends would stall the clock).
    static let maxIterations = 100_000

    // MARK: Statements

    func run(_ statements: [DSLStmt], in scope: DSLScope) async throws(DSLFlow) -> DSLValue? {
        var last: DSLValue?
        for statement in statements { last = try await run(statement, in: scope) }
        return last
    }

    private func run(_ statement: DSLStmt, in scope: DSLScope) async throws(DSLFlow) -> DSLValue? {
        switch statement {
        case .declare(_, let name, let value, _):
            var initial = DSLValue.null
            if let value { initial = try await eval(value, scope) }
            scope.declare(name, initial)
            return nil
        case .assign(let name, let op, let valueExpr, let at):
            var value = try await eval(valueExpr, scope)
            if op != "=" {
                guard let old = scope.lookup(name) ?? globals.lookup(name) else { throw DSLFlow.failure("there is no variable \(name)", at) }
                value = try arithmetic(op == "+=" ? "+" : "-", old, value, at)
            }
            guard scope.assign(name, value) || globals.assign(name, value) else {
                throw DSLFlow.failure("there is no variable \(name) to assign; declare it with var", at)
            }
            return nil
        case .ifElse(let condition, let then, let otherwise, let at):
            if try truth(try await eval(condition, scope), at) {
                return try await run(then, in: DSLScope(parent: scope))
            } else if let otherwise {
                return try await run(otherwise, in: DSLScope(parent: scope))
            }
            return nil
        case .whileLoop(let condition, let body, let at):
            var count = 0
            while try truth(try await eval(condition, scope), at) {
                count += 1
                guard count <= Self.maxIterations else {
                    throw DSLFlow.failure("the while loop ran \(Self.maxIterations) times without ending (rules.dslLoop)", at)
                }
                _ = try await run(body, in: DSLScope(parent: scope))
            }
            return nil
        case .expression(let e):
            return try await eval(e, scope)
        case .returnValue(let e, _):
            var value: DSLValue?
            if let e { value = try await eval(e, scope) }
            throw DSLFlow.returned(value)
        case .block(let statements):
            return try await run(statements, in: DSLScope(parent: scope))
        }
    }

    // MARK: Expressions

    func eval(_ expr: DSLExpr, _ scope: DSLScope) async throws(DSLFlow) -> DSLValue {
        switch expr {
        case .number(let n, let at):
            guard let value = Double(n) else { throw DSLFlow.failure("\(n) is not a number", at) }
            return .number(value)
        case .quantity(let n, let unit, let at):
            guard let q = Quantity(parsing: "\(n) \(unit)") else { throw DSLFlow.failure("\(n)|\(unit) is not a quantity the twin knows", at) }
            return .quantity(q)
        case .string(let s, _): return .string(s)
        case .bool(let b, _): return .bool(b)
        case .null: return .null
        case .name(let name, let at): return try resolve(name, scope, at)
        case .lambda(let body, _): return .lambda(body, scope)
        case .unary(let op, let operand, let at):
            let value = try await eval(operand, scope)
            if op == "!" { return .bool(!(try truth(value, at))) }
            if case .quantity(let q) = value { return .quantity(Quantity(DecimalNumber(-q.value), q.unit)) }
            guard let n = value.numeric else { throw DSLFlow.failure("cannot negate \(value.kindName)", at) }
            return .number(-n.value)
        case .binary(let op, let l, let r, let at):
            if op == "&&" {
                guard try truth(try await eval(l, scope), at) else { return .bool(false) }
                return .bool(try truth(try await eval(r, scope), at))
            }
            if op == "||" {
                if try truth(try await eval(l, scope), at) { return .bool(true) }
                return .bool(try truth(try await eval(r, scope), at))
            }
            let left = try await eval(l, scope), right = try await eval(r, scope)
            switch op {
            case "==": return .bool(equal(left, right))
            case "!=": return .bool(!equal(left, right))
            case "<", "<=", ">", ">=":
                let order = try compare(left, right, at)
                switch op {
                case "<": return .bool(order < 0)
                case "<=": return .bool(order <= 0)
                case ">": return .bool(order > 0)
                default: return .bool(order >= 0)
                }
            default:
                return try arithmetic(op, left, right, at)
            }
        case .cast(let inner, let type, let at):
            return try cast(try await eval(inner, scope), to: type, at)
        case .conditional(let condition, let then, let otherwise, let at):
            if try truth(try await eval(condition, scope), at) { return try await eval(then, scope) }
            guard let otherwise else { return .null }
            return try await eval(otherwise, scope)
        case .member(let receiver, let name, let at):
            return try await method(try await eval(receiver, scope), name, [], at)
        case .call(let callee, let argumentExprs, let at):
            var arguments: [DSLValue] = []
            for a in argumentExprs { arguments.append(try await eval(a, scope)) }
            switch callee {
            case .member(let receiver, let name, let memberAt):
                return try await method(try await eval(receiver, scope), name, arguments, memberAt)
            case .name(let name, _):
                return try await function(name, arguments, at)
            default:
                throw DSLFlow.failure("only functions and methods can be called", at)
            }
        }
    }

    /// A name: a variable, an implicit variable, a state constant, `now`, or an Item.
    private func resolve(_ name: String, _ scope: DSLScope, _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        if let value = scope.lookup(name) ?? globals.lookup(name) { return value }
        switch name {
        case "now": return .instant(execution.now)
        case "ON": return .state(.onOff(.on))
        case "OFF": return .state(.onOff(.off))
        case "OPEN": return .state(.openClosed(.open))
        case "CLOSED": return .state(.openClosed(.closed))
        case "NULL": return .state(.null)
        case "UNDEF": return .state(.undef)
        default: break
        }
        if execution.item(name) != nil { return .item(name) }
        throw DSLFlow.failure("there is no variable or Item called \(name)", at)
    }

    // MARK: Functions and methods

    private func function(_ name: String, _ args: [DSLValue], _ at: DSLLocation) async throws(DSLFlow) -> DSLValue {
        switch name {
        case "sendCommand", "postUpdate":
            guard args.count == 2 else { throw DSLFlow.failure("\(name) takes an Item (or its name) and a value", at) }
            let item: String
            switch args[0] {
            case .item(let n), .string(let n): item = n
            default: throw DSLFlow.failure("\(name) needs an Item or an Item's name first, not \(args[0].kindName)", at)
            }
            try await send(name, to: item, args[1], at)
            return .null
        case "logInfo", "logWarn", "logError", "logDebug":
            guard args.count >= 2 else { throw DSLFlow.failure("\(name) takes a logger name and a text", at) }
            let level = ["logInfo": "INFO", "logWarn": "WARN", "logError": "ERROR", "logDebug": "DEBUG"][name] ?? "INFO"
            var text = describe(args[1])
            for value in args.dropFirst(2) {  // openHAB formats "{}" placeholders in order
                if let range = text.range(of: "{}") { text.replaceSubrange(range, with: describe(value)) }
            }
            execution.log(level: level, logger: args[0].text, text)
            return .null
        case "createTimer":
            guard args.count == 2, case .instant(let at) = args[0], case .lambda(let body, let captured) = args[1] else {
                throw DSLFlow.failure("createTimer takes an instant (now.plusMinutes(5)) and a lambda [| … ]", at)
            }
            let rule = self.rule, globals = self.globals, engine = execution.engine
            let timer = DSLTimer(scheduler: execution.scheduler) {
                await engine.runDetached(rule, summary: "timer of rule \"\(rule.name)\"") { timerExecution in
                    let interpreter = DSLInterpreter(execution: timerExecution, rule: rule, globals: globals)
                    do {
                        _ = try await interpreter.run(body, in: DSLScope(parent: captured))
                    } catch let flow as DSLFlow {
                        interpreter.report(flow)
                    } catch {}
                }
            }
            timer.schedule(at: at)
            return .timer(timer)
        default:
            throw DSLFlow.failure("\(name)(…) is not a function the twin runs", at)
        }
    }

    private func send(_ function: String, to item: String, _ value: DSLValue, _ at: DSLLocation) async throws(DSLFlow) {
        guard execution.item(item) != nil else { throw DSLFlow.failure("there is no Item called \(item)", at) }
        let text: String
        switch value {
        case .null: throw DSLFlow.failure("\(function) to \(item) with null", at)
        case .number(let n): text = DSLValue.numberText(n)
        default: text = describe(value)
        }
        if function == "sendCommand" { await execution.sendCommand(item, text) } else { await execution.postUpdate(item, text) }
    }

    private func method(_ receiver: DSLValue, _ rawName: String, _ args: [DSLValue], _ at: DSLLocation) async throws(DSLFlow) -> DSLValue {
        // Xtend lets `x.hour` stand for `x.getHour()`.
        let name = rawName.hasPrefix("get") && rawName.count > 3 ? rawName.dropFirst(3).prefix(1).lowercased() + rawName.dropFirst(4) : rawName
        switch (receiver, name) {
        case (.null, _):
            throw DSLFlow.failure("\(rawName) was called on null", at)
        case (.item(let item), "sendCommand"), (.item(let item), "postUpdate"):
            guard args.count == 1 else { throw DSLFlow.failure("\(rawName) takes one value", at) }
            try await send(name, to: item, args[0], at)
            return .null
        case (.item(let item), "state"):
            return .state(execution.item(item)?.state ?? .null)
        case (.item(let item), "name"):
            return .string(item)
        case (.item(let item), "label"):
            return execution.item(item)?.label.map(DSLValue.string) ?? .null
        case (.item(let item), "lastStateUpdate"):
            return execution.item(item)?.lastStateUpdate.map(DSLValue.instant) ?? .null
        case (.item(let item), "lastStateChange"):
            return execution.item(item)?.lastStateChange.map(DSLValue.instant) ?? .null
        case (_, "toString"):
            return .string(describe(receiver))
        case (_, "doubleValue"), (_, "floatValue"), (_, "toBigDecimal"):
            guard let n = receiver.numeric else { throw DSLFlow.failure("\(rawName) needs a number, not \(receiver.kindName)", at) }
            return .number(n.value)
        case (_, "intValue"), (_, "longValue"):
            guard let n = receiver.numeric else { throw DSLFlow.failure("\(rawName) needs a number, not \(receiver.kindName)", at) }
            return .number(n.value.rounded(.towardZero))
        case (_, "toUnit"):
            guard let n = receiver.numeric, let unit = n.unit, args.count == 1, case .string(let target) = args[0],
                  let converted = Quantity(DecimalNumber(n.value), unit).converted(to: Quantity(parsing: "1 \(target)")?.unit ?? unit),
                  converted.unit.symbol == target else {
                throw DSLFlow.failure("toUnit needs a quantity and a unit of its dimension", at)
            }
            return .quantity(converted)
        case (.state(.dateTime(let d)), "zonedDateTime"):
            return .instant(d.instant)
        case (.instant(let t), _):
            return try instantMethod(t, name, args, at)
        case (.dayOfWeek(let d), "value"):
            return .number(Double(d))
        case (.timer(let timer), _):
            switch name {
            case "reschedule":
                guard args.count == 1, case .instant(let when) = args[0] else { throw DSLFlow.failure("reschedule takes an instant", at) }
                timer.schedule(at: when)
                return .bool(true)
            case "cancel": return .bool(timer.cancel())
            case "isActive": return .bool(timer.status.withLock { $0.pending != nil })
            case "isRunning": return .bool(timer.status.withLock { $0.running })
            case "hasTerminated": return .bool(timer.status.withLock { $0.terminated })
            default: break
            }
        case (.string(let s), "length"): return .number(Double(s.count))
        case (.string(let s), "contains"): return .bool(args.first.map { s.contains($0.text) } ?? false)
        case (.string(let s), "startsWith"): return .bool(args.first.map { s.hasPrefix($0.text) } ?? false)
        case (.string(let s), "endsWith"): return .bool(args.first.map { s.hasSuffix($0.text) } ?? false)
        case (_, "equals"): return .bool(args.count == 1 && equal(receiver, args[0]))
        default: break
        }
        throw DSLFlow.failure("\(receiver.kindName) has no method or property \(rawName) the twin runs", at)
    }

    private func instantMethod(_ t: SimInstant, _ name: String, _ args: [DSLValue], _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        let calendar = execution.calendar
        let local = calendar.localDateTime(at: t)
        func amount() throws(DSLFlow) -> Int64 {
            guard args.count == 1, let n = args[0].numeric else { throw DSLFlow.failure("\(name) takes a number", at) }
            return Int64(n.value)
        }
        func shiftedDays(_ days: Int64) -> DSLValue {
            .instant(calendar.resolvedInstant(for: LocalDateTime(date: local.date.adding(days: Int(days)), time: local.time)))
        }
        switch name {
        case "plusSeconds": return .instant(t + .seconds(try amount()))
        case "plusMinutes": return .instant(t + .minutes(try amount()))
        case "plusHours": return .instant(t + .hours(try amount()))
        case "plusDays": return shiftedDays(try amount())
        case "minusSeconds": return .instant(t - .seconds(try amount()))
        case "minusMinutes": return .instant(t - .minutes(try amount()))
        case "minusHours": return .instant(t - .hours(try amount()))
        case "minusDays": return shiftedDays(-(try amount()))
        case "hour": return .number(Double(local.time.hour))
        case "minute": return .number(Double(local.time.minute))
        case "second": return .number(Double(local.time.second))
        case "dayOfMonth": return .number(Double(local.date.day))
        case "monthValue": return .number(Double(local.date.month))
        case "year": return .number(Double(local.date.year))
        case "dayOfWeek": return .dayOfWeek(local.date.isoWeekday)
        case "isBefore", "isAfter":
            guard args.count == 1, case .instant(let other) = args[0] else { throw DSLFlow.failure("\(name) takes an instant", at) }
            return .bool(name == "isBefore" ? t < other : t > other)
        case "toString": return .string(zonedText(t))
        default: throw DSLFlow.failure("a ZonedDateTime has no method \(name) the twin runs", at)
        }
    }

    // MARK: Operators

    func truth(_ value: DSLValue, _ at: DSLLocation) throws(DSLFlow) -> Bool {
        guard case .bool(let b) = value else { throw DSLFlow.failure("a condition must be true or false, not \(value.kindName)", at) }
        return b
    }

    /// `==`: states by state, numbers and quantities by value (converted), the rest by text.
    func equal(_ a: DSLValue, _ b: DSLValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.bool(let x), .bool(let y)): return x == y
        case (.state(let x), .state(let y)): return StateComparison.equal(x, y)
        case (.instant(let x), .instant(let y)): return x == y
        case (.dayOfWeek(let x), .dayOfWeek(let y)): return x == y
        case (.timer(let x), .timer(let y)): return x === y
        default: break
        }
        if let x = a.numeric, let y = b.numeric { return (try? order(x, y)) == 0 }
        if case .state = a, case .string = b { return false }
        return a.text == b.text
    }

    private func order(_ x: (value: Double, unit: QuantityUnit?), _ y: (value: Double, unit: QuantityUnit?)) throws(DSLFlow) -> Int {
        var right = y.value
        if let lu = x.unit, let ru = y.unit, lu != ru {
            guard let converted = Quantity(DecimalNumber(y.value), ru).converted(to: lu) else {
                throw DSLFlow.failure("cannot compare \(lu.symbol) with \(ru.symbol)", DSLLocation(file: "", line: 0, column: 0))
            }
            right = converted.value
        }
        return x.value < right ? -1 : (x.value > right ? 1 : 0)
    }

    private func compare(_ a: DSLValue, _ b: DSLValue, _ at: DSLLocation) throws(DSLFlow) -> Int {
        if case .instant(let x) = a, case .instant(let y) = b { return x < y ? -1 : (x > y ? 1 : 0) }
        guard let x = a.numeric, let y = b.numeric else {
            throw DSLFlow.failure("cannot compare \(a.kindName) with \(b.kindName)", at)
        }
        do { return try order(x, y) } catch {
            if case .failure(let message, _) = error { throw DSLFlow.failure(message, at) }
            throw error
        }
    }

    func arithmetic(_ op: String, _ a: DSLValue, _ b: DSLValue, _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        if op == "+", case .string = a { return .string(describe(a) + describe(b)) }
        if op == "+", case .string = b { return .string(describe(a) + describe(b)) }
        guard let x = a.numeric, let y = b.numeric else {
            throw DSLFlow.failure("cannot apply \(op) to \(a.kindName) and \(b.kindName)", at)
        }
        var right = y.value
        if let lu = x.unit, let ru = y.unit, lu != ru, op == "+" || op == "-" {
            guard let converted = Quantity(DecimalNumber(y.value), ru).converted(to: lu) else {
                throw DSLFlow.failure("cannot \(op == "+" ? "add" : "subtract") \(ru.symbol) and \(lu.symbol)", at)
            }
            right = converted.value
        }
        let result: Double
        switch op {
        case "+": result = x.value + right
        case "-": result = x.value - right
        case "*": result = x.value * right
        case "/":
            guard right != 0 else { throw DSLFlow.failure("division by zero", at) }
            result = x.value / right
        default:
            guard right != 0 else { throw DSLFlow.failure("division by zero", at) }
            result = x.value.truncatingRemainder(dividingBy: right)
        }
        if let unit = x.unit ?? ((op == "*" || op == "+" || op == "-") ? y.unit : nil) {
            return .quantity(Quantity(DecimalNumber(result), unit))
        }
        return .number(result)
    }

    private func cast(_ value: DSLValue, to type: String, _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        switch type {
        case "Number", "QuantityType":
            switch value {
            case .state(.quantity(let q)): return .quantity(q)
            case .state(.decimal(let n)), .state(.percent(let n)): return .number(n.value)
            case .number, .quantity: return value
            case .state(.null), .state(.undef), .null: return .null
            default: throw DSLFlow.failure("\(value.kindName) cannot be cast to \(type)", at)
            }
        case "DecimalType", "PercentType":
            guard let n = value.numeric else {
                if case .state(let s) = value, s.isUndefined { return .null }
                throw DSLFlow.failure("\(value.kindName) cannot be cast to \(type)", at)
            }
            return .number(n.value)
        case "OnOffType", "OpenClosedType", "StringType", "DateTimeType", "State", "Command":
            return value
        case "String":
            return .string(describe(value))
        default:
            throw DSLFlow.failure("casting to \(type) is not in the DSL subset the twin runs", at)
        }
    }

    /// Xtend's `toString` of a value: an instant as `ZonedDateTime.toString` in the scenario's zone.
    func describe(_ value: DSLValue) -> String {
        if case .instant(let t) = value { return zonedText(t) }
        return value.text
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

    /// Records a runtime error for the run log (openHAB logs it and ends the run).
    func report(_ flow: DSLFlow) {
        if case .failure(let message, let at) = flow { execution.record("error: \(at): \(message)") }
    }
}
