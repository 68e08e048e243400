import Testing
@testable import Rules

/// What ``DSLSuspension`` marks as able to pause a run (the interpreter runs everything else synchronously):
/// the library's suspending entries, lambdas that may pause, and what contains them — never less.
@Suite("Rules DSL: what may pause")
struct DSLSuspensionTests {
    /// The file's rules' bodies, marked.
    static func marked(_ text: String) throws -> (globals: [DSLStmt], bodies: [[DSLStmt]]) {
        var parser = try DSLParser(text, file: "rules/test.rules")
        let syntax = parser.parseFile()
        #expect(parser.problems.isEmpty, "\(parser.problems)")
        let marked = DSLSuspension.mark(globals: syntax.globals, bodies: syntax.rules.map(\.body))
        return (marked.globals.statements, marked.bodies.map(\.statements))
    }

    /// What the marker made of a statement or an expression ``DSLCode`` then compiled (the rest is as marked).
    static func syntax(_ s: DSLStmt) -> DSLStmt { if case .compiled(let c) = s { c.syntax } else { s } }
    static func syntax(_ e: DSLExpr) -> DSLExpr { if case .compiled(let c) = e { c.syntax } else { e } }

    /// The lines of the statements of `body` marked as able to pause.
    static func pausingLines(_ body: [DSLStmt]) -> [Int] {
        body.compactMap { if case .awaiting(let s) = $0 { line(s) } else { nil } }
    }

    static func line(_ s: DSLStmt) -> Int? {
        switch s {
        case .expression(let e): return e.location.line
        case .declare(_, _, _, _, let at), .ifElse(_, _, _, let at), .forEach(_, _, _, let at): return at.line
        default: return nil
        }
    }

    /// Every lambda in `body`, by line, with whether it may pause.
    static func lambdas(_ body: [DSLStmt]) -> [Int: Bool] {
        var out: [Int: Bool] = [:]
        func walk(_ e: DSLExpr) {
            switch e {
            case .lambda(let syntax, let at):
                out[at.line] = syntax.suspends
                syntax.body.forEach(walk)
            case .awaiting(let inner): walk(inner)
            case .compiled(let c): walk(c.syntax)
            case .call(let callee, let arguments, _): walk(callee); arguments.forEach(walk)
            case .member(let r, _, _, _): walk(r)
            case .binary(_, let l, let r, _): walk(l); walk(r)
            default: break
            }
        }
        func walk(_ s: DSLStmt) {
            switch s {
            case .expression(let e): walk(e)
            case .declare(_, _, _, let value?, _): walk(value)
            case .awaiting(let inner): walk(inner)
            case .compiled(let c): walk(c.syntax)
            default: break
            }
        }
        body.forEach(walk)
        return out
    }

    @Test func aBodyThatCannotPauseIsNotMarked() throws {
        let (_, bodies) = try Self.marked("""
            rule "pure"
            when
                Item Go changed
            then
                val avg = gS.members.filter[ state instanceof DecimalType ].map[ (state as Number).doubleValue ]
                logInfo("x", "{}", avg)
                if (avg.size > 2) { logInfo("x", "many") }
            end
            """)
        #expect(Self.pausingLines(bodies[0]).isEmpty)
        #expect(Self.lambdas(bodies[0]) == [5: false])
        // Nothing marked: every statement runs as its compiled code (``DSLCode``).
        #expect(bodies[0].allSatisfy { if case .compiled = $0 { true } else { false } })
    }

    /// A command waits for the Thing handlers of linked channels and a sleep for the clock: they pause. An
    /// update (`postUpdate`, `Item.state = …`) applies at once and never waits, so it runs without a suspension.
    @Test func commandsAndSleepsPauseWhereTheyAreUpdatesDoNot() throws {
        let (_, bodies) = try Self.marked("""
            rule "acts"
            when
                Item Go changed
            then
                logInfo("x", "start")
                gL.members.filter[ l | l.state != ON ].forEach[ l | l.sendCommand(ON) ]
                postUpdate("Go", "OFF")
                Thread::sleep(100)
                Go.state = ON
                val n = gL.members.size
            end
            """)
        #expect(Self.pausingLines(bodies[0]) == [6, 8])
        // The filter's lambda cannot pause; forEach's can (the same line: one of each).
        guard case .awaiting(.expression(.awaiting(.call(.member(let receiver, let member, _, _), let arguments, _)))) = bodies[0][1],
              member.name == "forEach" else {
            Issue.record("the forEach call is not marked: \(bodies[0][1])")
            return
        }
        // What forEach is called on (the filter) runs synchronously.
        if case .awaiting = receiver { Issue.record("the filter was marked as able to pause") }
        // The marked call keeps its form for the suspending walk; its unmarked parts are compiled, one way each.
        if case .compiled = receiver {} else { Issue.record("the filter is not compiled: \(receiver)") }
        #expect(arguments.allSatisfy { if case .compiled = $0 { true } else { false } })
        #expect(bodies[0].allSatisfy { s in
            switch s { case .compiled, .awaiting: true
                       default: false }
        })
        guard case .lambda(let pausing, _)? = arguments.first.map(Self.syntax) else { Issue.record("no lambda"); return }
        #expect(pausing.suspends)
    }

    @Test func lambdaValuesAreFollowedWhereTheyCanBe() throws {
        let file = """
            val f = [ | Go.sendCommand(ON) ]
            val g = [ int x | x + 1 ]
            rule "values"
            when
                Item Go changed
            then
                g.apply(1)
                f.apply()
                val l = newArrayList(g)
                l.get(0).apply(1)
            end
            """
        let (globals, bodies) = try Self.marked(file)
        #expect(Self.lambdas(globals) == [1: true, 2: false])
        // `l.get(0)` may be any lambda of the file, and one of them may pause.
        #expect(Self.pausingLines(bodies[0]) == [8, 10])
        // Without a lambda that may pause, no lambda value can.
        let calm = try Self.marked(file.replacingOccurrences(of: "Go.sendCommand(ON)", with: "logInfo(\"x\", \"f\")"))
        #expect(Self.pausingLines(calm.bodies[0]).isEmpty)
    }

    @Test func namesNoVariableHasAreNotLookedUpInScopes() throws {
        let (_, bodies) = try Self.marked("""
            rule "names"
            when
                Item Go changed
            then
                val n = 1
                logInfo("x", "{} {} {}", n, Go, ON)
            end
            """)
        guard case .expression(.call(_, let arguments, _)) = Self.syntax(bodies[0][1]) else { Issue.record("\(bodies[0][1])"); return }
        let kinds = arguments.map { e -> String in
            switch Self.syntax(e) {
            case .variable(let v, _): "variable \(v.name)"
            case .feature(let f, _): "feature \(f.name)"
            default: "other"
            }
        }
        #expect(kinds == ["other", "other", "variable n", "feature Go", "feature ON"])
    }

    /// A marked assignment that reads its target (`+=`, `++`) holds the target's read compiled, with the target's form as
    /// its syntax (what the store looks at): the suspending walk compiles nothing when it runs. A plain `=` keeps the form.
    @Test func aMarkedAssignmentReadsItsTargetByCompiledCode() throws {
        let (_, bodies) = try Self.marked("""
            rule "reads"
            when
                Item Go changed
            then
                var s = "a"
                s += sendHttpGetRequest("http://example.com/x")
                s = sendHttpGetRequest("http://example.com/y")
            end
            """)
        guard case .awaiting(.expression(.awaiting(.assign(let compound, "+=", _, _)))) = bodies[0][1],
              case .awaiting(.expression(.awaiting(.assign(let plain, "=", _, _)))) = bodies[0][2] else {
            Issue.record("the assignments are not marked: \(bodies[0][1]) \(bodies[0][2])")
            return
        }
        guard case .compiled(let read) = compound, case .variable(let v, _) = read.syntax, v.name == "s" else {
            Issue.record("the += target's read is not compiled: \(compound)")
            return
        }
        guard case .variable(let w, _) = plain, w.name == "s" else {
            Issue.record("the = target is not the variable: \(plain)")
            return
        }
    }
}
