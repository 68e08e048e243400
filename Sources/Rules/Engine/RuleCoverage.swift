import Synchronization

/// What the users' rules did in one run, for `--coverage`: how often each rule was started by a trigger
/// (or by hand), how often each Rules DSL statement line ran and which way each `if` and `switch` went.
///
/// A world makes one when asked (``RuleEngine/init(runtime:scheduler:calendar:coverage:)``); without one
/// the interpreter's only cost is a `nil` check per statement. Counting happens on the simulation task;
/// the `Mutex` only makes the class `Sendable`. ``files(rules:ruleFiles:)`` turns the counts and the
/// rules' syntax into one ``RuleFileCoverage`` per rule file, which merge across runs.
public final class RuleCoverage: Sendable {
    /// A branch point: the file and line of the `if`/`switch` and its column (two on one line stay apart).
    struct Point: Hashable {
        let file: String
        let line: Int
        let column: Int
    }

    private struct Counts {
        var lines: [String: [Int: Int]] = [:]
        var branches: [Point: [Int: Int]] = [:]
        var started: [String: Int] = [:]
    }

    private let counts = Mutex(Counts())

    public init() {}

    /// A statement starting at `at` ran.
    func ran(_ at: DSLLocation) {
        counts.withLock { $0.lines[at.file, default: [:]][at.line, default: 0] += 1 }
    }

    /// Branch `branch` of the `if` (0 then, 1 else) or `switch` (its case, or the case count for none
    /// matched) at `at` was taken.
    func took(_ branch: Int, at: DSLLocation) {
        counts.withLock { $0.branches[Point(file: at.file, line: at.line, column: at.column), default: [:]][branch, default: 0] += 1 }
    }

    /// Rule `uid` was started (its conditions are checked after; a run they stop counts too).
    func started(_ uid: String) {
        counts.withLock { $0.started[uid, default: 0] += 1 }
    }

    /// One ``RuleFileCoverage`` per file of `ruleFiles` (in that order) holding the rules of `rules`
    /// whose ``Rule/source`` names it: a function per rule at its line with its start count; per DSL body
    /// (and the file's globals) every statement line and every `if`/`switch` branch with the counts of
    /// this run; a file of `scriptLines` (JavaScript, counted by its engine) has those lines instead. Rules no
    /// file names (the built-in automations) are left out.
    public func files(rules: [Rule], ruleFiles: [String], scriptLines: [String: [Int: Int]] = [:]) -> [RuleFileCoverage] {
        let counts = self.counts.withLock { $0 }
        return ruleFiles.map { file in
            var coverage = RuleFileCoverage(file: Self.normalized(file))
            var globalsSeen: [ObjectIdentifier] = []
            for rule in rules {
                guard let line = Self.line(of: rule.source, in: file) else { continue }
                coverage.functions.append(.init(line: line, name: rule.name, count: counts.started[rule.uid] ?? 0))
                var statements: [DSLStmt] = []
                let scripts = rule.actions.compactMap { action -> DSLRuleScript? in
                    if case .script(let s) = action.kind { return s as? DSLRuleScript } else { return nil }
                } + rule.conditions.compactMap { condition -> DSLRuleScript? in
                    if case .script(let s) = condition.kind { return s as? DSLRuleScript } else { return nil }
                }
                for script in scripts {
                    statements += script.body
                    let id = ObjectIdentifier(script.globals)
                    if !globalsSeen.contains(id) {
                        globalsSeen.append(id)
                        statements += script.globals.declarations
                    }
                }
                var walker = Walker(file: file)
                walker.walk(statements)
                for line in walker.lines { coverage.lines[line] = counts.lines[file]?[line] ?? 0 }
                for (point, branches) in walker.branches {
                    let taken = counts.branches[point] ?? [:]
                    for branch in 0..<branches {
                        coverage.branches.append(.init(line: point.line, block: point.column, branch: branch,
                                                       count: taken[branch] ?? 0))
                    }
                }
                // A UI rule has no statement lines of its own: its line counts as run when the rule was started.
                if walker.lines.isEmpty, coverage.lines[line] == nil { coverage.lines[line] = counts.started[rule.uid] ?? 0 }
            }
            if let lines = scriptLines[file] { coverage.lines = lines }
            coverage.normalize()
            return coverage
        }
    }

    /// `path` with `.` segments and `dir/..` pairs taken out (`Docs/examples/../../Scenarios/rules/a.rules` →
    /// `Scenarios/rules/a.rules`), so one file loaded from two scenario directories merges into one record.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        let absolute = path.hasPrefix("/")
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            if part == "..", absolute, parts.isEmpty { continue }
            parts.append(part)
        }
        return (absolute ? "/" : "") + parts.joined(separator: "/")
    }

    /// The line of a rule's source (`file:line`) when it names `file`.
    static func line(of source: String, in file: String) -> Int? {
        guard source.hasPrefix(file + ":") else { return nil }
        return Int(source.dropFirst(file.count + 1))
    }

    /// Finds the statement lines and branch points of bodies (lambdas and nested blocks included) that lie in one file.
    private struct Walker {
        let file: String
        var lines = Set<Int>()
        var branches: [Point: Int] = [:]

        mutating func walk(_ statements: [DSLStmt]) { for s in statements { walk(s) } }

        private mutating func mark(_ at: DSLLocation) {
            if at.file == file, at.line > 0 { lines.insert(at.line) }
        }

        private mutating func branch(_ at: DSLLocation, _ count: Int) {
            guard at.file == file, at.line > 0 else { return }
            branches[Point(file: at.file, line: at.line, column: at.column)] = count
        }

        mutating func walk(_ statement: DSLStmt) {
            switch statement {
            case .declare(_, _, _, let value, let at):
                mark(at)
                if let value { walk(value) }
            case .ifElse(let c, let t, let o, let at):
                mark(at)
                branch(at, 2)
                walk(c)
                walk(t)
                walk(o ?? [])
            case .whileLoop(let c, let body, let at), .doWhile(let body, let c, let at):
                mark(at)
                walk(c)
                walk(body)
            case .forEach(_, let iterable, let body, let at):
                mark(at)
                walk(iterable)
                walk(body)
            case .forLoop(let initial, let c, let updates, let body, let at):
                mark(at)
                walk(initial)
                if let c { walk(c) }
                for u in updates { walk(u) }
                walk(body)
            case .tryCatch(let body, let catches, let finally, let at):
                mark(at)
                walk(body)
                for c in catches { walk(c.body) }
                walk(finally ?? [])
            case .throwValue(let e, let at):
                mark(at)
                walk(e)
            case .returnValue(let e, let at):
                mark(at)
                if let e { walk(e) }
            case .expression(let e):
                mark(e.location)
                walk(e)
            case .block(let body), .framed(_, let body):
                walk(body)
            case .awaiting(let inner):
                walk(inner)
            case .compiled(let c):
                walk(c.syntax)
            }
        }

        mutating func walk(_ expr: DSLExpr) {
            switch expr {
            case .number, .literal, .quantity, .string, .bool, .null, .name, .variable, .feature, .staticMember:
                break
            case .member(let e, _, _, _), .unary(_, let e, _), .cast(let e, _, _), .instanceOf(let e, _, _), .step(let e, _, _), .awaiting(let e):
                walk(e)
            case .compiled(let c):
                walk(c.syntax)
            case .call(let callee, let arguments, _):
                walk(callee)
                for a in arguments { walk(a) }
            case .new(_, let arguments, _):
                for a in arguments { walk(a) }
            case .binary(_, let l, let r, _), .assign(let l, _, let r, _):
                walk(l)
                walk(r)
            case .lambda(let syntax, _):
                walk(syntax.body)
            case .conditional(let c, let t, let o, let at):
                branch(at, 2)
                walk(c)
                walk(t)
                if let o { walk(o) }
            case .switchOf(let subject, let cases, let otherwise, let at):
                branch(at, cases.count + 1)
                walk(subject)
                for c in cases { for e in [c.value, c.then].compactMap({ $0 }) { walk(e) } }
                if let otherwise { walk(otherwise) }
            case .block(let body, _):
                walk(body)
            case .collection(_, let elements, _):
                for e in elements { walk(e) }
            }
        }
    }
}

extension DSLStmt {
    /// Whether it is a bare block (its statements are counted, not it).
    var isBlock: Bool {
        switch self {
        case .block, .framed: true
        default: false
        }
    }
}
