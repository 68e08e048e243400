/// Where something is written in a rules file.
public struct DSLLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file.
    public let file: String
    /// 1-based line.
    public let line: Int
    /// 1-based column.
    public let column: Int

    public var description: String { "\(file):\(line):\(column)" }
}

/// An expression of a rule body.
indirect enum DSLExpr: Sendable {
    case number(String, DSLLocation)
    case quantity(String, String, DSLLocation)
    case string(String, DSLLocation)
    case bool(Bool, DSLLocation)
    case null(DSLLocation)
    /// A name: a variable, an implicit variable, a state constant (`ON`) or an Item.
    case name(String, DSLLocation)
    /// `receiver.member` (a property, or a method when called).
    case member(DSLExpr, String, DSLLocation)
    /// `callee(arguments)`; a trailing lambda is the last argument.
    case call(DSLExpr, [DSLExpr], DSLLocation)
    case unary(String, DSLExpr, DSLLocation)
    case binary(String, DSLExpr, DSLExpr, DSLLocation)
    /// `value as Type`.
    case cast(DSLExpr, String, DSLLocation)
    /// `[| statements ]`.
    case lambda([DSLStmt], DSLLocation)
    /// `condition ? a : b` (Xtend has no ternary, but `if` is an expression: `if (c) a else b`).
    case conditional(DSLExpr, DSLExpr, DSLExpr?, DSLLocation)

    var location: DSLLocation {
        switch self {
        case .number(_, let l), .quantity(_, _, let l), .string(_, let l), .bool(_, let l), .null(let l), .name(_, let l),
             .member(_, _, let l), .call(_, _, let l), .unary(_, _, let l), .binary(_, _, _, let l), .cast(_, _, let l),
             .lambda(_, let l), .conditional(_, _, _, let l):
            return l
        }
    }
}

/// A statement of a rule body.
indirect enum DSLStmt: Sendable {
    /// `val`/`var` (`mutable`), an optional type, a name and an optional value.
    case declare(mutable: Bool, name: String, value: DSLExpr?, DSLLocation)
    /// `name = value`, `name += value`, `name -= value`.
    case assign(String, String, DSLExpr, DSLLocation)
    case ifElse(DSLExpr, [DSLStmt], [DSLStmt]?, DSLLocation)
    case whileLoop(DSLExpr, [DSLStmt], DSLLocation)
    case expression(DSLExpr)
    case returnValue(DSLExpr?, DSLLocation)
    case block([DSLStmt])
}

/// A trigger of a DSL rule as written; the compiler turns it into the engine's ``RuleTrigger``.
enum DSLTriggerSyntax: Sendable {
    case itemCommand(item: String, command: String?, member: Bool)
    case itemUpdate(item: String, state: String?, member: Bool)
    case itemChanged(item: String, from: String?, to: String?, member: Bool)
    case cron(String)
    case timeOfDay(hour: Int, minute: Int)
    case dateTime(item: String, timeOnly: Bool, offset: Int)
    case systemStarted
    case thingChanged(thing: String, from: String?, to: String?)
}

/// One `rule "name" when … then … end`.
struct DSLRuleSyntax: Sendable {
    let name: String
    let triggers: [(DSLTriggerSyntax, DSLLocation)]
    let body: [DSLStmt]
    let bodyText: String
    let location: DSLLocation
}

/// A parsed `.rules` file: its globals (in order) and rules.
struct DSLFileSyntax: Sendable {
    let file: String
    let globals: [DSLStmt]
    let rules: [DSLRuleSyntax]
}
