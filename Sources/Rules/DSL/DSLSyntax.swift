import SmartHome

/// Where something is written in a rules file. 16 bytes: every syntax node and most compiled closures hold one, so a
/// file of 100,000 rules holds millions (`Docs/RULES.md`, memory per rule); the file's name is one shared reference
/// (``DSLFileName``, made once per parsed file), the line and column 32-bit (a file's lines and columns stay far below
/// 2^31: a rules file is read whole into memory).
public struct DSLLocation: Sendable, Hashable, CustomStringConvertible {
    private let fileName: DSLFileName
    private let storedLine: Int32
    private let storedColumn: Int32

    /// The file.
    public var file: String { fileName.name }
    /// 1-based line.
    public var line: Int { Int(storedLine) }
    /// 1-based column.
    public var column: Int { Int(storedColumn) }

    public init(file: String, line: Int, column: Int) {
        self.init(file: DSLFileName(file), line: line, column: column)
    }

    /// A location in the file `file` names (the parser's one name for all its locations).
    init(file: DSLFileName, line: Int, column: Int) {
        fileName = file
        storedLine = Int32(clamping: line)
        storedColumn = Int32(clamping: column)
    }

    public static func == (a: DSLLocation, b: DSLLocation) -> Bool {
        a.storedLine == b.storedLine && a.storedColumn == b.storedColumn && (a.fileName === b.fileName || a.fileName.name == b.fileName.name)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fileName.name)
        hasher.combine(storedLine)
        hasher.combine(storedColumn)
    }

    public var description: String { "\(file):\(line):\(column)" }
}

/// A rules file's name, shared by every ``DSLLocation`` in it.
final class DSLFileName: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

/// An expression of a rule body (Xbase: everything is an expression; statements are the ones that
/// declare or loop).
indirect enum DSLExpr: Sendable {
    case number(String, DSLLocation)
    /// A number literal's value, read once (``DSLSuspension`` rewrites a checked ``number(_:_:)``: a run no longer
    /// parses the text each time).
    case literal(DSLValue, DSLLocation)
    case quantity(String, String, DSLLocation)
    case string(String, DSLLocation)
    case bool(Bool, DSLLocation)
    case null(DSLLocation)
    /// A name as parsed: a variable, an implicit variable, a state constant (`ON`), a type or an Item
    /// (``DSLSuspension`` resolves each to a ``variable(_:_:)`` or a ``feature(_:_:)``).
    case name(String, DSLLocation)
    /// A variable resolved to its slot (``DSLSuspension``): a local, a parameter, an implicit variable or a global.
    case variable(DSLVariable, DSLLocation)
    /// A name no variable of its file has (``DSLSuspension`` rewrites such a ``name(_:_:)``): a member of
    /// Xtend's implicit `it`, a state constant, a function, `now`, an Item or a type — never looked up in scopes.
    case feature(DSLFeature, DSLLocation)
    /// `receiver.member` / `receiver?.member` (a property, or a method when called).
    case member(DSLExpr, DSLMemberName, nullSafe: Bool, DSLLocation)
    /// `Type::member` (Java static access: `Thread::sleep`, `OnOffType::ON`, `Math::max`).
    case staticMember(String, String, DSLLocation)
    /// `callee(arguments)`; a trailing lambda is the last argument.
    case call(DSLExpr, [DSLExpr], DSLLocation)
    case unary(String, DSLExpr, DSLLocation)
    case binary(String, DSLExpr, DSLExpr, DSLLocation)
    /// `value as Type`.
    case cast(DSLExpr, String, DSLLocation)
    /// `value instanceof Type`.
    case instanceOf(DSLExpr, String, DSLLocation)
    /// `[ a, b | statements ]`; `implicitIt`: written without `|` (one parameter called `it`).
    case lambda(DSLLambdaSyntax, DSLLocation)
    /// `if (c) a else b` as a value.
    case conditional(DSLExpr, DSLExpr, DSLExpr?, DSLLocation)
    /// `switch x { case … }`.
    case switchOf(DSLExpr, [DSLCase], DSLExpr?, DSLLocation)
    /// `{ statements }` as a value (its last statement's).
    case block([DSLStmt], DSLLocation)
    /// `#[a, b]` (list), `#{a, b}` (set), `#{k -> v}` (map: pairs as `->` binaries).
    case collection(DSLCollectionKind, [DSLExpr], DSLLocation)
    /// `new Type(arguments)`.
    case new(String, [DSLExpr], DSLLocation)
    /// `target = value`, `target += value`, … (`target` is a name or a member).
    case assign(DSLExpr, String, DSLExpr, DSLLocation)
    /// `x++`, `x--` (postfix: the value before).
    case step(DSLExpr, String, DSLLocation)
    /// An expression that may pause the run (``DSLSuspension`` marks it after checking): the interpreter's
    /// suspending walk runs it; everything not marked runs synchronously.
    case awaiting(DSLExpr)
    /// An expression compiled (``DSLCode``): what runs is its code; its syntax is kept for its location and form
    /// (never walked to run it).
    case compiled(DSLCompiledExpr)

    var location: DSLLocation {
        switch self {
        case .number(_, let l), .literal(_, let l), .quantity(_, _, let l), .string(_, let l), .bool(_, let l), .null(let l), .name(_, let l), .variable(_, let l), .feature(_, let l),
             .member(_, _, _, let l), .staticMember(_, _, let l), .call(_, _, let l), .unary(_, _, let l), .binary(_, _, _, let l),
             .cast(_, _, let l), .instanceOf(_, _, let l), .lambda(_, let l), .conditional(_, _, _, let l), .switchOf(_, _, _, let l),
             .block(_, let l), .collection(_, _, let l), .new(_, _, let l), .assign(_, _, _, let l), .step(_, _, let l):
            return l
        case .awaiting(let e):
            return e.location
        case .compiled(let c):
            return c.syntax.location
        }
    }

    /// The expression without its ``awaiting(_:)`` mark (for the places that look at a child's form).
    var unmarked: DSLExpr {
        if case .awaiting(let e) = self { return e }
        return self
    }
}

enum DSLCollectionKind: Sendable { case list, set }

/// A member's name as written after `.`, with its method by receiver class (``DSLLibrary/memberMethods``)
/// looked up once when it is parsed: a call reads its method at the receiver's class, without hashing the
/// name or searching the candidates.
struct DSLMemberName: Sendable {
    let name: String
    /// `DSLLibrary.memberMethods[name]` (`nil`: no receiver has it).
    let methods: DSLMemberMethods?

    init(_ name: String) {
        self.name = name
        methods = DSLLibrary.memberMethods[name]
    }
}

/// What a name no variable has may be, looked up once in ``DSLLibrary``'s tables (``DSLExpr/feature(_:_:)``);
/// what depends on the run (Xtend's implicit `it`, the Items) is asked when it runs.
struct DSLFeature: Sendable {
    let name: String
    /// The method by receiver class some receiver has by this name (a member of the implicit `it`, when there
    /// is one), looked up once.
    let methods: DSLMemberMethods?
    /// A method or property some receiver has.
    var isMethod: Bool { methods != nil }
    /// A state constant (`ON`).
    let constant: DSLValue?
    /// A function (called without parentheses).
    let isFunction: Bool
    /// A type a body may name.
    let isType: Bool
    /// The variable `it` where the name is written (Xtend's implicit receiver), resolved by ``DSLSuspension``.
    var it: DSLVariable?
    /// The name as a checked Item name (`nil`: not a valid one), made once: the Item value a run makes of the
    /// feature carries it (``DSLValue/item(_:)``), so no method of the Item hashes or checks the text again.
    let item: ItemName?

    init(_ name: String, it: DSLVariable? = nil) {
        self.name = name
        self.it = it
        item = try? ItemName(name)
        methods = DSLLibrary.memberMethods[name]
        constant = DSLLibrary.constants[name]
        isFunction = DSLLibrary.isFunction(name)
        isType = DSLLibrary.staticMembers[name] != nil || DSLLibrary.knownTypes.contains(name)
    }
}

/// The names the checker resolved to Items in a body (``DSLRuleScript``), as checked Item names: a feature's
/// ``DSLFeature/item`` is looked up by its stored hash, not by hashing its text. (A name that is no valid Item
/// name names no Item; the checker's list may hold one, the text of a `sendCommand("…", …)`.)
struct DSLKnownItems: Sendable {
    private let names: Set<ItemName>

    init(_ names: some Sequence<String>) {
        self.names = Set(names.compactMap { try? ItemName($0) })
    }

    static let none = DSLKnownItems([])

    /// Whether `item` is one of them.
    func contains(_ item: ItemName) -> Bool { names.contains(item) }
}

/// A lambda as written.
struct DSLLambdaSyntax: Sendable {
    let parameters: [String]
    /// Written without `|`: it takes one parameter, `it`.
    let implicitIt: Bool
    /// Its statements (``DSLCode/tree(_:)-([DSLStmt])`` replaces each it need not walk by its compiled code).
    var body: [DSLStmt]
    /// Whether its body may pause the run (set by ``DSLSuspension``; a call of it then goes the suspending way).
    var suspends = false
    /// Its body compiled (``DSLCode``), when it cannot pause (a lambda that may runs its ``body`` in the suspending walk).
    var code: DSLStmtBox?
    /// The slots of a call's frame: its parameters (or `it`) first, then its body's locals (``DSLSuspension``).
    var frameSize = 0
    /// Whether its body makes a lambda, which may capture the call's frame (else a loop may reuse one frame).
    var capturable = true
    /// Written without `|`: the variable `it` where the lambda is made (from the frame it is made in), which a
    /// call with no argument sees. Xtend gives a `[ … ]` lambda its own `it` only where the type it is made for
    /// takes one argument; a `Procedure0` (a timer's body) reads the enclosing `it`.
    var outerIt: DSLVariable?
}

/// Where a variable lives, resolved once by ``DSLSuspension``: `depth` frames up the chain from the frame the
/// reference runs in (``DSLFrame``), at `index`.
struct DSLVariable: Sendable {
    let name: String
    let depth: Int
    let index: Int
    /// A `var` (a `val`, a parameter or an implicit variable cannot be assigned).
    let mutable: Bool
}

/// A name a statement gives a variable (`val x`, `for (x : …)`, `catch (E x)`), with its slot (``DSLSuspension``).
struct DSLBinding: Sendable {
    let name: String
    /// Its index in the frame it is declared in.
    var slot = -1
    /// For a loop's variable and a catch's: the size of the frame made for each pass (its body's locals with it),
    /// when a lambda in the body may capture them; 0: the variable is a slot of the enclosing frame.
    var frame = 0

    init(_ name: String) { self.name = name }
}

/// A body compiled once: its statements, marked and resolved, and the frame a run of it needs.
struct DSLBody: Sendable {
    let statements: [DSLStmt]
    /// The slots of its frame (a rule body's: the implicit variables it reads first, then its locals).
    let frameSize: Int
    /// Whether a lambda it makes may capture its frame.
    let capturable: Bool
    /// openHAB's implicit variables the body reads, each with its slot (``DSLSuspension``): a run sets only these.
    var implicits: [DSLImplicitSlot] = []
}

/// An implicit variable a rule body reads (``DSLImplicit``) and its slot in the run's frame.
struct DSLImplicitSlot: Sendable {
    let variable: DSLImplicit
    let index: Int
}

/// A `case` of a switch: a type guard and/or a value or condition; `then == nil` falls through (`,`).
struct DSLCase: Sendable {
    let type: String?
    let value: DSLExpr?
    let then: DSLExpr?
    let location: DSLLocation
}

/// A `catch (Type name) { … }`.
struct DSLCatch: Sendable {
    let type: String
    let name: DSLBinding
    let body: [DSLStmt]
}

/// A statement of a rule body.
indirect enum DSLStmt: Sendable {
    /// `val`/`var` (`mutable`), an optional type, a name and an optional value.
    case declare(mutable: Bool, name: DSLBinding, type: String?, value: DSLExpr?, DSLLocation)
    case ifElse(DSLExpr, [DSLStmt], [DSLStmt]?, DSLLocation)
    case whileLoop(DSLExpr, [DSLStmt], DSLLocation)
    case doWhile([DSLStmt], DSLExpr, DSLLocation)
    /// `for (x : iterable) body`.
    case forEach(DSLBinding, DSLExpr, [DSLStmt], DSLLocation)
    /// `for (init; condition; updates) body`.
    case forLoop([DSLStmt], DSLExpr?, [DSLExpr], [DSLStmt], DSLLocation)
    case tryCatch([DSLStmt], [DSLCatch], [DSLStmt]?, DSLLocation)
    case throwValue(DSLExpr, DSLLocation)
    case expression(DSLExpr)
    case returnValue(DSLExpr?, DSLLocation)
    case block([DSLStmt])
    /// A statement that may pause the run (see ``DSLExpr/awaiting(_:)``).
    case awaiting(DSLStmt)
    /// Statements run in a frame of their own of `size` slots (``DSLSuspension`` makes it for a block that declares
    /// variables a lambda in it may capture: each pass of a loop then has its own, as each had its own scope).
    case framed(Int, [DSLStmt])
    /// A statement compiled (``DSLCode``), with its syntax (see ``DSLExpr/compiled(_:)``).
    case compiled(DSLCompiledStmt)
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
    /// `System shuts down`: parsed, and dropped as openHAB 3+ drops it ("no longer supported").
    case systemShutsDown
    case thingChanged(thing: String, from: String?, to: String?)
    case thingUpdate(thing: String, status: String?)
    case channel(uid: String, event: String?)
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

/// The budgets that keep a file or a run from exhausting the machine (one place for all of them).
enum DSLLimits {
    /// How deep expressions may go, counting nesting (parentheses, blocks, lambdas) **and** the links of
    /// a flat chain (`1+1+…`, `a && b && …`, `else if …`): the parser, the checker and the interpreter
    /// recurse once per level, so this bounds their stack.
    static let maxExpressionDepth = 256
    /// The longest string a literal or a run may build (characters).
    static let maxStringLength = 1_000_000
    /// The most elements a list, set or map a run builds may hold.
    static let maxCollectionSize = 100_000
    /// Work one run may do (statements and expressions evaluated) before it is ended as a runaway loop.
    static let maxStepsPerRun = 1_000_000
    /// Work all runs of a scenario may do before the scenario is ended as stalled: in total, and in runs that
    /// used up their own budget (a `while (true) {}` in a minute cron ends the scenario at its third run).
    static let maxStepsPerScenario: Int64 = 5_000_000_000
    static let maxRunawayRuns = 3
}
