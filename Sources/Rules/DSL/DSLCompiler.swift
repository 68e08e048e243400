import Simulation
import SmartHome
import Synchronization

/// Turns Rules DSL text into the engine's ``Rule``s: triggers map onto the module types a UI rule uses,
/// the body becomes a ``RuleScript``. Names are resolved here, before any run, against ``DSLLibrary``'s
/// table (the one the interpreter runs): every problem of a file is reported, located, with its code.
public enum DSLCompiler {
    /// Names every body may use without declaring them (openHAB's implicit variables).
    static let implicitNames = Set(DSLImplicit.allCases.map(\.name))

    /// The rules of a `.rules` file and every problem found; a rule with a problem is left out (and named
    /// by its problem), never dropped silently.
    /// `scripts`: the script files `callScript` may name.
    /// Whether openHAB 3+ refuses a file with this problem too (its parser or Xbase's linker reports an error and
    /// openHAB ignores the file): a syntax error, openHAB 2's API (Joda-Time, `receivedEvent.getEvent`, add-on
    /// actions since made Thing actions), or a function no openHAB core or add-on defines.
    public static func openHABRefuses(_ problem: RulesError) -> Bool {
        problem.code == .dslSyntax || problem.message.contains("openHAB 2") || problem.message.contains(undefinedFunction)
    }

    /// The words of the problem a call to a function openHAB does not define gets.
    static let undefinedFunction = "is not a function openHAB's core or the twin knows"

    /// `warnings`: what openHAB accepts with a logged warning and drops (a `System shuts down` trigger).
    public static func compileAll(_ text: String, file: String, scripts: DSLScripts = .none)
        -> (rules: [Rule], problems: [RulesError], warnings: [RulesError]) {
        var parser: DSLParser
        do { parser = try DSLParser(text, file: file) } catch { return ([], [error], []) }
        var warnings: [RulesError] = []
        let syntax = parser.parseFile()
        var problems = parser.problems
        var checker = DSLChecker()
        checker.scripts = scripts
        var globalScope: [String: Bool] = [:]
        for name in implicitNames { globalScope[name] = false }
        for statement in syntax.globals {
            if case .declare(let mutable, let name, _, let value, _) = statement {
                if let value {
                    _ = checker.check([.expression(value)], declared: globalScope)
                    if DSLChecker.isGetActions(value) { checker.actionNames.insert(name.name) }
                }
                globalScope[name.name] = mutable
            }
        }
        problems += checker.problems
        let stem = String(file.split(separator: "/").last ?? Substring(file)).replacingSuffix(".rules")
        var usesSleep = checker.usesSleep
        var checked: [(DSLRuleSyntax, [RuleTrigger], [String], [ScriptPersistenceRead], [ScriptTransformUse])?] = []
        for rule in syntax.rules {
            if Task.isCancelled { return ([], problems + [RulesError.cancelled(at: file)], warnings) }
            var ruleProblems: [RulesError] = []
            var triggers: [RuleTrigger] = []
            for (trigger, at) in rule.triggers {
                if case .systemShutsDown = trigger {
                    // DSLRuleProvider.mapTrigger: "System shutdown rule triggers are no longer supported!" (no trigger made).
                    warnings.append(RulesError(.dslDroppedTrigger, "\(at): \"System shuts down\" is parsed by openHAB 3+, which drops the trigger (\"System shutdown rule triggers are no longer supported!\"); so does the twin, the rule's other triggers load (rules.dslDroppedTrigger).",
                                               hint: "remove the trigger; a world's end runs no rule."))
                    continue
                }
                // Numbered as openHAB numbers the triggers it makes (a dropped one takes no number).
                do { triggers.append(RuleTrigger(id: String(triggers.count + 1), try map(trigger, at))) } catch { ruleProblems.append(error) }
            }
            var ruleChecker = DSLChecker()
            ruleChecker.scripts = scripts
            ruleChecker.actionNames = checker.actionNames
            let referenced = ruleChecker.check(rule.body, declared: globalScope)
            ruleProblems += ruleChecker.problems
            usesSleep = usesSleep || ruleChecker.usesSleep
            problems += ruleProblems
            checked.append(ruleProblems.isEmpty ? (rule, triggers, referenced, ruleChecker.persistenceReads,
                                                   // The globals' transform calls are checked with the file's first rule.
                                                   (checked.isEmpty ? checker.transformUses : []) + ruleChecker.transformUses) : nil)
        }
        if Task.isCancelled { return ([], problems + [RulesError.cancelled(at: file)], warnings) }
        // What may pause a run is marked once; everything else runs synchronously.
        let marked = DSLSuspension.mark(globals: syntax.globals, bodies: syntax.rules.map(\.body))
        if Task.isCancelled { return ([], problems + [RulesError.cancelled(at: file)], warnings) }
        let globals = DSLFileGlobals(marked.globals)
        var rules: [Rule] = []
        for (index, entry) in checked.enumerated() {
            guard let (rule, triggers, referenced, reads, transforms) = entry else { continue }
            let script = DSLRuleScript(source: rule.bodyText, body: marked.bodies[index], globals: globals, referencedItems: referenced, fibered: usesSleep,
                                       persistenceReads: reads, transformUses: transforms, scripts: scripts)
            var compiled = Rule(uid: "\(stem)-\(index + 1)", name: rule.name, triggers: triggers,
                                actions: [RuleAction(id: "script", .script(script))], source: "\(file):\(rule.location.line)")
            compiled.isEditable = false
            rules.append(compiled)
        }
        return (rules, problems, warnings)
    }

    /// The rules of a `.rules` file. UIDs are `<file name without .rules>-<n>`, as openHAB names DSL rules.
    /// - Throws: the first ``RulesError`` (`rules.dslSyntax` / `rules.dslUnsupported` / `rules.cron…`), located.
    public static func compile(_ text: String, file: String, scripts: DSLScripts = .none) throws(RulesError) -> [Rule] {
        let (rules, problems, _) = compileAll(text, file: file, scripts: scripts)
        if let first = problems.first { throw first }
        return rules
    }

    /// A `script.ScriptAction` / `script.ScriptCondition` body of a UI rule (`location` names its JSON place).
    public static func compileScript(_ text: String, location: String) throws(RulesError) -> any RuleScript {
        var parser = try DSLParser(text, file: location)
        let body = try parser.parseScript()
        var checker = DSLChecker()
        var declared: [String: Bool] = [:]
        for name in implicitNames { declared[name] = false }
        let referenced = checker.check(body, declared: declared)
        if let first = checker.problems.first { throw first }
        return DSLRuleScript(source: text, body: DSLSuspension.mark(body), globals: .none(), referencedItems: referenced, fibered: checker.usesSleep,
                             persistenceReads: checker.persistenceReads, transformUses: checker.transformUses, scripts: .none)
    }

    private static func map(_ trigger: DSLTriggerSyntax, _ at: DSLLocation) throws(RulesError) -> RuleTrigger.Kind {
        switch trigger {
        case .itemCommand(let item, let command, let member):
            return member ? .groupCommand(group: item, command: command) : .itemCommand(ItemNamePattern(item), command: command)
        case .itemUpdate(let item, let state, let member):
            return member ? .groupStateUpdate(group: item, state: state) : .itemStateUpdate(ItemNamePattern(item), state: state)
        case .itemChanged(let item, let from, let to, let member):
            return member ? .groupStateChange(group: item, previousState: from, state: to)
                : .itemStateChange(ItemNamePattern(item), previousState: from, state: to)
        case .cron(let text):
            do { return .cron(try CronExpression(text)) } catch {
                throw RulesError(error.code, "\(at): \(error.message)", hint: error.hint)
            }
        case .timeOfDay(let hour, let minute):
            do { return .cron(try CronExpression("0 \(minute) \(hour) * * ? *")) } catch {
                throw RulesError(error.code, "\(at): \(error.message)", hint: error.hint)
            }
        case .dateTime(let item, let timeOnly, let offset):
            return .dateTime(item: item, timeOnly: timeOnly, offsetSeconds: offset)
        case .systemStarted:
            return .systemStartlevel(40)
        case .systemShutsDown:
            throw RulesError(.dslDroppedTrigger, "\(at): \"System shuts down\" makes no trigger (rules.dslDroppedTrigger).")
        case .thingChanged(let thing, let from, let to):
            try checkStatuses([from, to], at)
            return .thingStatusChange(thing: thing, previousStatus: from, status: to)
        case .thingUpdate(let thing, let status):
            try checkStatuses([status], at)
            return .thingStatusUpdate(thing: thing, status: status)
        case .channel(let uid, let event):
            if let problem = ChannelUIDSyntax.problem(uid) {
                throw RulesError(.dslSyntax, "\(at): \"\(uid)\" is not a channel UID: \(problem) (rules.dslSyntax).",
                                 hint: "write binding:thing-type:thing:channel, e.g. \"astro:sun:home:set#event\".")
            }
            return .channelEvent(channel: uid, event: event)
        }
    }

    private static func checkStatuses(_ statuses: [String?], _ at: DSLLocation) throws(RulesError) {
        let known = ThingStatus.allCases.map(\.rawValue)
        for status in statuses.compactMap({ $0 }) where !known.contains(status) {
            throw RulesError(.dslSyntax, "\(at): \(status) is not a Thing status; use one of \(known.joined(separator: ", ")) (rules.dslSyntax).")
        }
    }
}

/// openHAB's implicit variables, in the order of their slots at the start of a rule run's frame (``DSLFrame``);
/// each is null when the trigger does not set it.
enum DSLImplicit: Int, CaseIterable {
    case receivedCommand, newState, previousState, triggeringItem, triggeringItemName, triggeringGroup, triggeringGroupName,
         triggeringThing, newStatus, previousStatus, receivedEvent, triggeringChannel, newThingStatus, previousThingStatus

    /// The variable's name as a rule writes it. Made once: `"\(variable)"` asks the runtime's reflection at each
    /// use, which was over half of marking a file of 100,000 rules (every body declares every name twice).
    var name: String { Self.names[rawValue] }
    private static let names = allCases.map { "\($0)" }
}

/// Resolves every name of a body before any run: variables (and whether they are `val`s), functions,
/// static members, constructors and methods against ``DSLLibrary``; the names left are Items (returned, so
/// the scenario checks they exist). Problems are collected, not thrown: a file reports all of them.
struct DSLChecker {
    private(set) var problems: [RulesError] = []
    /// Whether the body calls `Thread::sleep` or makes a `ReentrantLock` (its runs then go on fibers that can pause).
    private(set) var usesSleep = false
    private var items: [String] = []
    private var itemSet = Set<String>()
    /// The persistence extensions called on a named Item, in order.
    private(set) var persistenceReads: [ScriptPersistenceRead] = []
    /// The `transform`/`transformRaw` calls with a literal type and function, in order.
    private(set) var transformUses: [ScriptTransformUse] = []
    /// The script files `callScript` finds (a compiled set, or only their names while scripts are compiled).
    var scripts: DSLScripts = .none
    var scriptNames: Set<String>?
    /// The scripts the body calls by a literal name.
    private(set) var calledScripts: [String] = []
    /// Variables given a `getActions(…)` value (declared or assigned): any method may be called on them, as on
    /// `getActions(…)` itself — a binding's Thing actions are not known to the twin by name.
    var actionNames: Set<String> = []

    /// Whether `expr` is `getActions(…)` (or one cast: `getActions(…) as ThingActions`).
    static func isGetActions(_ expr: DSLExpr) -> Bool {
        switch expr {
        case .call(.name("getActions", _), _, _): return true
        case .cast(let e, _, _): return isGetActions(e)
        default: return false
        }
    }

    /// `declared`: name → mutable.
    mutating func check(_ statements: [DSLStmt], declared: [String: Bool]) -> [String] {
        var scope = declared
        for statement in statements { check(statement, &scope) }
        return items
    }

    private mutating func problem(_ code: RulesError.Code, _ at: DSLLocation, _ message: String, hint: String? = nil) {
        problems.append(RulesError(code, "\(at): \(message) (\(code.rawValue)).", hint: hint))
    }

    private mutating func check(_ statement: DSLStmt, _ scope: inout [String: Bool]) {
        switch statement {
        case .declare(let mutable, let name, let type, let value, let at):
            if let type { checkType(type, at) }
            if let value {
                check(value, scope)
                if Self.isGetActions(value) { actionNames.insert(name.name) }
            }
            scope[name.name] = mutable
        case .ifElse(let condition, let then, let otherwise, _):
            check(condition, scope)
            checkBlock(then, scope)
            if let otherwise { checkBlock(otherwise, scope) }
        case .whileLoop(let condition, let body, _):
            check(condition, scope)
            checkBlock(body, scope)
        case .doWhile(let body, let condition, _):
            checkBlock(body, scope)
            check(condition, scope)
        case .forEach(let name, let iterable, let body, _):
            check(iterable, scope)
            var inner = scope
            inner[name.name] = false
            checkBlock(body, inner)
        case .forLoop(let initial, let condition, let updates, let body, _):
            var inner = scope
            for s in initial { check(s, &inner) }
            if let condition { check(condition, inner) }
            for u in updates { check(u, inner) }
            checkBlock(body, inner)
        case .tryCatch(let body, let catches, let finally, _):
            checkBlock(body, scope)
            for c in catches {
                var inner = scope
                inner[c.name.name] = false
                checkBlock(c.body, inner)
            }
            if let finally { checkBlock(finally, scope) }
        case .throwValue(let e, _):
            check(e, scope)
        case .expression(let e):
            check(e, scope)
        case .returnValue(let e, _):
            if let e { check(e, scope) }
        case .block(let body):
            checkBlock(body, scope)
        case .awaiting(let inner):
            check(inner, &scope)
        case .framed(_, let body):
            checkBlock(body, scope)
        case .compiled(let c):  // checked before it was compiled; its syntax as written
            check(c.syntax, &scope)
        }
    }

    private mutating func checkBlock(_ body: [DSLStmt], _ scope: [String: Bool]) {
        var inner = scope
        for s in body { check(s, &inner) }
    }

    private mutating func checkType(_ type: String, _ at: DSLLocation) {
        if let hint = DSLLibrary.jodaHints[type] {
            problem(.dslUnsupported, at, "\(type) (Joda-Time of openHAB 2) is not run by the twin", hint: hint)
        }
    }

    /// Whether `name` (not a variable) is a type a body may name.
    private func isType(_ name: String) -> Bool {
        DSLLibrary.staticMembers[name] != nil || DSLLibrary.knownTypes.contains(name)
    }

    private mutating func check(_ expr: DSLExpr, _ scope: [String: Bool]) {
        switch expr {
        case .number(let n, let at):
            if DSLInterpreter.literal(n) == nil {
                problem(.dslSyntax, at, "\(n.count > 40 ? String(n.prefix(40)) + "…" : n) is not a number Java can hold (an int literal must fit a long; a decimal must be finite)",
                        hint: "write a smaller number, or a decimal such as 1e30.")
            }
        case .quantity(let n, let unit, let at):
            if Quantity(parsing: "\(n) \(unit)") == nil {
                problem(.dslUnsupported, at, "\(n)|\(unit) is not a quantity the twin knows (unit \(unit))")
            }
        case .string, .bool, .null:
            break
        case .name(let name, let at):
            if scope[name] != nil || DSLLibrary.constants[name] != nil || name == "now" || DSLLibrary.isFunction(name) { return }
            if let hint = DSLLibrary.jodaHints[name] {
                problem(.dslUnsupported, at, "\(name) (Joda-Time of openHAB 2) is not run by the twin", hint: hint)
                return
            }
            if isType(name) { return }
            if let what = DSLLibrary.unsupportedFunctions[name] {
                // `isWeekend` without parentheses is the action called, not an Item.
                problem(.dslUnsupported, at, "\(name) is \(what), which the twin does not run yet",
                        hint: "remove the call or guard it; the twin runs sendCommand, postUpdate, createTimer, log…, newArrayList/newHashMap….")
                return
            }
            // Xtend's implicit receiver: inside `[ … ]` a bare `name` is `it.name` when `it` has it.
            if scope["it"] != nil, DSLLibrary.knowsMethod(name) { return }
            if itemSet.insert(name).inserted { items.append(name) }
        case .member(let receiver, let member, _, let at):
            checkMember(receiver, member.name, called: false, at, scope)
        case .staticMember(let type, let member, let at):
            checkStatic(type, member, at)
        case .call(let callee, let arguments, let at):
            switch callee {
            case .name(let name, let nameAt):
                // Xbase links a call with arguments to the function even where a variable has its name
                // (`var sendNotification = false` … `sendNotification(to, text)`).
                if scope[name] != nil, arguments.isEmpty || !DSLLibrary.isFunction(name) {
                    problem(.dslSyntax, nameAt, "\(name) is a variable, not a function; call a lambda with \(name).apply(…)")
                } else if arguments.isEmpty, DSLLibrary.isZeroArgumentFeature(name) {
                    // `now()`: Xbase calls a static feature with or without its empty parentheses.
                } else if scope["it"] != nil, DSLLibrary.isImplicitReceiverCall(name, arguments.count) {
                    // it.name(…)
                } else if name == "callScript" {
                    checkCallScript(arguments, at)
                } else if DSLLibrary.isFunction(name) {
                    // sendCommand("Item", …) names an Item by text.
                    if name == "sendCommand" || name == "postUpdate", case .string(let item, _)? = arguments.first, itemSet.insert(item).inserted {
                        items.append(item)
                    }
                    if name == "transform" || name == "transformRaw", arguments.count == 3, case .string(let type, _) = arguments[0],
                       case .string(let function, _) = arguments[1] {
                        transformUses.append(ScriptTransformUse(type: type, function: function, location: at.description))
                    }
                } else if let what = DSLLibrary.unsupportedFunctions[name] {
                    // openHAB 2's actions are refused by openHAB 3+ too: the message says so, and what to write.
                    let openHAB2 = what.hasPrefix("openHAB 2's")
                    problem(.dslUnsupported, at, "\(name)(…) is \(what)" + (openHAB2 ? "" : ", which the twin does not run yet"),
                            hint: openHAB2 ? "openHAB 3+ refuses it as well; write the Thing action the message names."
                                : "remove the call or guard it; the twin runs sendCommand, postUpdate, createTimer, log…, newArrayList/newHashMap….")
                } else {
                    let near = Suggestion.closest(to: name, in: Array(DSLLibrary.functions.keys) + Array(DSLLibrary.suspendingFunctions.keys))
                    problem(.dslUnsupported, at, "\(name)(…) \(DSLCompiler.undefinedFunction)",
                            hint: near.map { "did you mean \($0)?" } ?? "the twin runs sendCommand, postUpdate, createTimer, logInfo/logWarn/logError/logDebug, newArrayList, newHashMap and the methods of Items, states, strings, numbers, time and collections.")
                }
            case .member(let receiver, let member, _, let memberAt):
                checkMember(receiver, member.name, called: true, memberAt, scope)
            default:
                check(callee, scope)
            }
            for a in arguments { check(a, scope) }
        case .unary(_, let e, _):
            check(e, scope)
        case .cast(let e, let type, let at), .instanceOf(let e, let type, let at):
            check(e, scope)
            checkType(type, at)
        case .binary(_, let l, let r, _):
            check(l, scope)
            check(r, scope)
        case .lambda(let syntax, _):
            var inner = scope
            if syntax.implicitIt { inner["it"] = false }
            for p in syntax.parameters { inner[p] = false }
            checkBlock(syntax.body, inner)
        case .conditional(let c, let t, let o, _):
            check(c, scope)
            check(t, scope)
            if let o { check(o, scope) }
        case .switchOf(let subject, let cases, let otherwise, _):
            check(subject, scope)
            for c in cases {
                if let type = c.type { checkType(type, c.location) }
                if let v = c.value { check(v, scope) }
                if let t = c.then { check(t, scope) }
            }
            if let otherwise { check(otherwise, scope) }
        case .block(let body, _):
            checkBlock(body, scope)
        case .collection(_, let elements, _):
            for e in elements { check(e, scope) }
        case .new(let type, let arguments, let at):
            if type == "ReentrantLock" { usesSleep = true }  // a run may wait for the lock: fibers
            if let hint = DSLLibrary.jodaHints[type] {
                problem(.dslUnsupported, at, "new \(type)(…) (Joda-Time of openHAB 2) is not run by the twin", hint: hint)
            } else if DSLLibrary.constructors[type] == nil, let why = DSLJavaSurface.refused["\(type).new"] {
                problem(.dslUnsupported, at, "new \(type)(…) is not run by the twin: \(why)")
            } else if DSLLibrary.constructors[type] == nil {
                problem(.dslUnsupported, at, "new \(type)(…) is not a constructor the twin runs",
                        hint: "the twin constructs " + DSLLibrary.constructors.keys.sorted().joined(separator: ", ") + ".")
            }
            for a in arguments { check(a, scope) }
        case .assign(let target, _, let value, let at):
            if case .name(let name, _) = target, Self.isGetActions(value) { actionNames.insert(name) }
            switch target {
            case .name(let name, _):
                if let mutable = scope[name] {
                    if !mutable {
                        problem(.dslSyntax, at, "\(name) is a val (or a parameter) and cannot be assigned", hint: "declare it with var.")
                    }
                } else {
                    problem(.dslSyntax, at, "\(name) is assigned but never declared; declare it with var")
                }
            case .member(let receiver, let member, _, let memberAt):
                checkMember(receiver, DSLInterpreter.setter(member.name), called: true, memberAt, scope)
            default:
                check(target, scope)
            }
            check(value, scope)
        case .step(let target, _, let at):
            if case .name(let name, _) = target {
                if let mutable = scope[name] {
                    if !mutable { problem(.dslSyntax, at, "\(name) is a val and cannot be changed with ++/--", hint: "declare it with var.") }
                } else {
                    problem(.dslSyntax, at, "\(name) is changed but never declared; declare it with var")
                }
            } else {
                check(target, scope)
            }
        case .awaiting(let inner):
            check(inner, scope)
        case .compiled(let c):  // checked before it was compiled; its syntax as written
            check(c.syntax, scope)
        case .feature(let feature, let at):
            check(.name(feature.name, at), scope)
        case .literal, .variable:
            break  // read from a checked number; a variable resolved after checking
        }
    }

    /// `callScript("name")`: a literal name must be a script file of the scenario (openHAB would throw
    /// "Script 'name' cannot be found" at run time); its Items join the rule's.
    private mutating func checkCallScript(_ arguments: [DSLExpr], _ at: DSLLocation) {
        guard arguments.count == 1 else {
            problem(.dslSyntax, at, "callScript takes one argument, the script's name")
            return
        }
        guard case .string(let name, _) = arguments[0] else { return }  // computed: checked when it runs
        let stem = name.hasSuffix(".script") ? String(name.dropLast(7)) : name
        let known = scriptNames.map { Array($0) } ?? scripts.names
        guard known.contains(stem) else {
            let near = Suggestion.closest(to: stem, in: known)
            problem(.dslUnknownScript, at, "callScript(\"\(name)\") names the script \(stem).script, which the scenario's \"scriptFiles\" do not have",
                    hint: near.map { "did you mean \"\($0)\"?" } ?? "add \"scripts/\(stem).script\" to the scenario's \"scriptFiles\".")
            return
        }
        calledScripts.append(stem)
        if scriptNames == nil {
            let (reached, sleeps) = scripts.reach(stem)
            for item in reached where itemSet.insert(item).inserted { items.append(item) }
            usesSleep = usesSleep || sleeps
        }
    }

    private mutating func checkStatic(_ type: String, _ member: String, _ at: DSLLocation) {
        if type == "Thread", member == "sleep" { usesSleep = true }
        if let hint = DSLLibrary.jodaHints[type] {
            problem(.dslUnsupported, at, "\(type)::\(member) (Joda-Time of openHAB 2) is not run by the twin", hint: hint)
            return
        }
        if DSLLibrary.staticMembers[type]?.contains(member) != true, let why = DSLJavaSurface.reason(static: type, member) {
            problem(.dslUnsupported, at, "\(type)::\(member) is not run by the twin: \(why)")
            return
        }
        guard let members = DSLLibrary.staticMembers[type] else {
            problem(.dslUnsupported, at, "\(type)::\(member) is not a static member the twin runs",
                    hint: "static access works on " + DSLLibrary.staticMembers.keys.sorted().joined(separator: ", ") + ".")
            return
        }
        if !members.contains(member) {
            let near = Suggestion.closest(to: member, in: Array(members))
            problem(.dslUnsupported, at, "\(type) has no static member \(member) the twin runs",
                    hint: near.map { "did you mean \(type)::\($0)?" } ?? "\(type) has " + members.sorted().joined(separator: ", ") + ".")
        }
    }

    private mutating func checkMember(_ receiver: DSLExpr, _ name: String, called: Bool, _ at: DSLLocation, _ scope: [String: Bool]) {
        // A JDK static member the twin refuses (`Period.ofDays`, `Character.isDigit`): the table's reason.
        if case .name(let type, _) = receiver, scope[type] == nil, DSLLibrary.staticMembers[type]?.contains(name) != true,
           let why = DSLJavaSurface.reason(static: type, name) {
            problem(.dslUnsupported, at, "\(type)::\(name) is not run by the twin: \(why)")
            return
        }
        // `Math.max(…)`, `OnOffType.ON`: static access written with a dot.
        if case .name(let type, _) = receiver, scope[type] == nil, DSLLibrary.staticMembers[type] != nil || DSLLibrary.jodaHints[type] != nil {
            checkStatic(type, name, at)
            return
        }
        check(receiver, scope)
        // A Thing's actions: any binding's method is taken (it lands in the outbox as it runs).
        if Self.isGetActions(receiver) { return }
        if case .name(let variable, _) = receiver, scope[variable] != nil, actionNames.contains(variable) { return }
        // `ScriptServiceUtil.getItemRegistry.getItem(…)`: a static member whose value is a type with static members.
        if let type = DSLLibrary.staticResultType(of: receiver), DSLLibrary.staticMembers[type] != nil {
            checkStatic(type, name, at)
            return
        }
        if case .name(let item, _) = receiver, scope[item] == nil, DSLLibrary.constants[item] == nil, !isType(item),
           let method = DSLLibrary.candidates(name).first(where: { DSLPersistence.methods[$0] != nil }) {
            persistenceReads.append(ScriptPersistenceRead(item: item, method: method, location: at.description))
        }
        if DSLLibrary.knowsMethod(name) { return }
        if let replacement = DSLLibrary.jodaMethodHints[name] {
            problem(.dslUnsupported, at, ".\(name) is Joda-Time of openHAB 2, which openHAB 3+ and the twin do not have",
                    hint: "use \(replacement).")
            return
        }
        if DSLLibrary.openHAB2StringUtils.contains(name) {
            problem(.dslUnsupported, at, ".\(name)(…) is openHAB 2's StringUtils extension on strings, which openHAB 3+ and the twin do not have",
                    hint: name == "containsIgnoreCase" ? "write text.toLowerCase.contains(part.toLowerCase)." : "write it with java.lang.String's methods (toLowerCase, indexOf, substring, trim …).")
            return
        }
        if let what = DSLLibrary.unsupportedMethods[name] {
            problem(.dslUnsupported, at, ".\(name)(…) is \(what), which the twin does not run yet",
                    hint: "remove it, or keep what you need in a variable or an Item yourself.")
            return
        }
        // openHAB 2 gave the ChannelTriggeredEvent; openHAB 3+ gives its event text (DSLScriptContextProvider).
        if case .name("receivedEvent", _) = receiver, scope["receivedEvent"] == false, name == "event" || name == "getEvent" {
            problem(.dslUnsupported, at, "receivedEvent.\(name) is openHAB 2's: since openHAB 3 receivedEvent is the event's text itself",
                    hint: "compare it directly, e.g. if (receivedEvent == \"SHORT_PRESSED\").")
            return
        }
        if let why = DSLJavaSurface.reason(method: name) {
            problem(.dslUnsupported, at, ".\(name)(…) is not run by the twin: \(why)")
            return
        }
        let near = Suggestion.closest(to: name, in: Array(DSLLibrary.methodNames))
        problem(.dslUnsupported, at, "no value the twin knows has a method or property \(name)",
                hint: near.map { "did you mean \($0)?" } ?? "see the methods of Items, states, strings, numbers, time and collections the twin runs.")
    }
}

/// A file's globals: declared once, evaluated at the first run of any rule of the file, shared by all (their
/// frame is shared: its slots are behind a lock, ``DSLFrame``; hence `@unchecked`).
final class DSLFileGlobals: @unchecked Sendable {
    let declarations: [DSLStmt]
    let frameSize: Int
    let frame: DSLFrame
    private let initialized = Mutex(false)
    /// Whether a declaration may pause (``DSLSuspension`` marked it).
    private let declarationsMayPause: Bool

    init(_ body: DSLBody) {
        declarations = body.statements
        frameSize = body.frameSize
        frame = DSLFrame.make(size: body.frameSize, parent: nil, shared: true)
        declarationsMayPause = DSLRuleScript.mayPause(body.statements)
    }

    /// No globals (a UI rule's script): the implicit variables' slots.
    static func none() -> DSLFileGlobals {
        DSLFileGlobals(DSLBody(statements: [], frameSize: DSLImplicit.allCases.count, capturable: false))
    }

    func prepare(_ interpreter: DSLInterpreter) async {
        guard initialized.withLock({ let first = !$0; $0 = true; return first }) else { return }
        do throws(DSLFlow) {
            _ = try await interpreter.runSuspending(declarations, in: frame)
        } catch {
            interpreter.report(error)
        }
    }

    /// Whether ``prepareWithoutSuspending(_:)`` can make the globals: they are made, or none of them may pause.
    var canPrepareWithoutSuspending: Bool { !declarationsMayPause || initialized.withLock { $0 } }

    /// ``prepare(_:)`` at once, when ``canPrepareWithoutSuspending`` (the same code runs: the suspending walk
    /// runs every unmarked statement's compiled code, ``DSLCode``).
    func prepareWithoutSuspending(_ interpreter: DSLInterpreter) {
        guard initialized.withLock({ let first = !$0; $0 = true; return first }) else { return }
        do throws(DSLFlow) {
            _ = try interpreter.run(declarations, in: frame)
        } catch {
            interpreter.report(error)
        }
    }
}

/// A DSL rule body (or a UI rule's DSL script) as the engine runs it.
struct DSLRuleScript: RuleScript {
    let source: String
    let body: [DSLStmt]
    /// The slots of a run's frame, whether a lambda of the body may capture it, and the implicit variables the
    /// body reads with their slots (``DSLBody``).
    let frameSize: Int
    let capturable: Bool
    let implicits: [DSLImplicitSlot]
    let globals: DSLFileGlobals
    let referencedItems: [String]
    /// Whether runs go on fibers (the file calls `Thread::sleep`).
    let fibered: Bool
    let persistenceReads: [ScriptPersistenceRead]
    let transformUses: [ScriptTransformUse]
    let scripts: DSLScripts
    /// `referencedItems` as checked names (the interpreter's shortcut for names the checker resolved to Items).
    let knownItems: DSLKnownItems
    /// The rule's one thread (a run waits while an earlier run of the rule sleeps).
    let thread = DSLLock()
    /// Whether a statement of the body may pause (``DSLSuspension`` marked it); a body with none, not on a
    /// fiber, runs without a suspension (``runWithoutSuspending(_:)``).
    let bodyMayPause: Bool

    init(source: String, body: DSLBody, globals: DSLFileGlobals, referencedItems: [String], fibered: Bool,
         persistenceReads: [ScriptPersistenceRead], transformUses: [ScriptTransformUse], scripts: DSLScripts) {
        self.source = source
        self.body = body.statements
        frameSize = body.frameSize
        capturable = body.capturable
        implicits = body.implicits
        bodyMayPause = Self.mayPause(body.statements)
        self.globals = globals
        self.referencedItems = referencedItems
        self.fibered = fibered
        self.persistenceReads = persistenceReads
        self.transformUses = transformUses
        self.scripts = scripts
        // Only names that resolve to nothing else (a text in sendCommand("…", …) is listed too).
        self.knownItems = DSLKnownItems(referencedItems.filter { name in
            DSLLibrary.constants[name] == nil && name != "now" && !DSLLibrary.isFunction(name) && DSLLibrary.staticMembers[name] == nil
                && !DSLLibrary.knownTypes.contains(name)
        })
    }

    /// A copy with its own globals (made once per file and engine) and its own thread.
    func forNewEngine(_ instances: RuleScriptInstances) -> any RuleScript {
        DSLRuleScript(source: source, body: DSLBody(statements: body, frameSize: frameSize, capturable: capturable, implicits: implicits),
                      globals: instances.instance(replacing: globals) {
                          DSLFileGlobals(DSLBody(statements: globals.declarations, frameSize: globals.frameSize, capturable: true))
                      },
                      referencedItems: referencedItems, fibered: fibered, persistenceReads: persistenceReads,
                      transformUses: transformUses, scripts: scripts)
    }

    /// Whether one of `statements` may pause (``DSLSuspension`` marks such a statement at the top level).
    static func mayPause(_ statements: [DSLStmt]) -> Bool {
        statements.contains { statement in
            if case .awaiting = statement { return true }
            return false
        }
    }

    func run(_ execution: RuleExecution) async {
        _ = await evaluate(execution)
    }

    /// ``run(_:)`` at once when nothing can pause: a body without marked statements, not on a fiber, whose
    /// file's globals are made or can be made without pausing. The same code as the suspending walk runs, which
    /// runs every unmarked statement's compiled code (``DSLCode``).
    func runWithoutSuspending(_ execution: RuleExecution) -> Bool {
        guard !fibered, !bodyMayPause, globals.canPrepareWithoutSuspending else { return false }
        let interpreter = makeInterpreter(execution, fiber: nil)
        globals.prepareWithoutSuspending(interpreter)
        do throws(DSLFlow) {
            _ = try interpreter.run(body, in: frame(of: execution.event))
        } catch {
            if case .returned = error {} else { interpreter.report(error) }
        }
        execution.engine.account(work: interpreter.budget.steps.load(ordering: .relaxed), rule: execution.rule)
        return true
    }

    func holds(_ execution: RuleExecution) async -> Bool {
        if case .bool(let b)? = await evaluate(execution) { return b }
        return false
    }

    /// Runs the body; its value is that of a `return` or of the last statement.
    private func evaluate(_ execution: RuleExecution) async -> DSLValue? {
        guard fibered else { return await evaluate(execution, fiber: nil) }
        let fiber = DSLFiber(execution: execution)
        let result = Mutex<DSLValue?>(nil)
        let thread = self.thread
        await fiber.start { [self] in
            await thread.acquire(fiber)
            let value = await evaluate(execution, fiber: fiber)
            result.withLock { $0 = value }
            fiber.flush()
            _ = await thread.release(fiber)
        }
        return result.withLock { $0 }
    }

    private func evaluate(_ execution: RuleExecution, fiber: DSLFiber?) async -> DSLValue? {
        let interpreter = makeInterpreter(execution, fiber: fiber)
        await globals.prepare(interpreter)
        var result: DSLValue?
        do throws(DSLFlow) {
            result = try await interpreter.runSuspending(body, in: frame(of: execution.event))
        } catch {
            if case .returned(let value) = error { result = value } else { interpreter.report(error) }
        }
        execution.engine.account(work: interpreter.budget.steps.load(ordering: .relaxed), rule: execution.rule)
        return result
    }

    private func makeInterpreter(_ execution: RuleExecution, fiber: DSLFiber?) -> DSLInterpreter {
        DSLInterpreter(execution: execution, rule: execution.rule, fiber: fiber, scripts: scripts, knownItems: knownItems)
    }

    /// A run's frame (its parent the file's globals), with the implicit variables the body reads that `event` sets
    /// in their slots; the others stay null.
    private func frame(of event: RuleTriggerEvent) -> DSLFrame {
        let frame = DSLFrame.make(size: frameSize, parent: globals.frame, shared: capturable)
        for slot in implicits {
            if let value = Self.value(of: slot.variable, event) { frame[slot.index] = value }
        }
        return frame
    }

    /// An implicit variable as `event` sets it (`nil`: it does not; the variable is null).
    private static func value(of variable: DSLImplicit, _ event: RuleTriggerEvent) -> DSLValue? {
        switch variable {
        case .receivedCommand: return event.command.map { $0.impliedState.map(DSLValue.state) ?? .string($0.description) }
        case .newState: return event.newState.map(DSLValue.state)
        case .previousState: return event.previousState.map(DSLValue.state)
        case .triggeringItem: return event.item.map(DSLValue.item)
        case .triggeringItemName: return event.item.map { .string($0.rawValue) }
        // A Group's name that is no valid Item name names no Item (openHAB's registry would find none): null.
        case .triggeringGroup: return event.groupName.flatMap { try? ItemName($0) }.map(DSLValue.item)
        case .triggeringGroupName: return event.groupName.map(DSLValue.string)
        case .triggeringThing: return event.thingUID.map(DSLValue.string)
        // openhab-core DSLScriptContextProvider: receivedEvent is ChannelTriggeredEvent.getEvent(), a String.
        case .receivedEvent: return event.channelEvent.map(DSLValue.string)
        case .triggeringChannel: return event.channelUID.map(DSLValue.string)
        case .newStatus, .newThingStatus: return event.thingStatus.map(DSLValue.string)
        case .previousStatus, .previousThingStatus: return event.previousThingStatus.map(DSLValue.string)
        }
    }
}

private extension String {
    func replacingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
