import Foundation
import Simulation
import SmartHome
import Synchronization

/// A global function of a body (`logInfo`, `newArrayList`) that never pauses the run.
/// (Closures in the tables throw untyped: Swift does not infer typed throws in dictionary literals;
/// ``DSLLibrary/typed(_:_:)`` turns what they throw back into ``DSLFlow``.)
typealias DSLFunction = @Sendable (DSLInterpreter, [DSLValue], DSLLocation) throws -> DSLValue
/// A global function that may pause the run (`sendCommand` waits for the Thing handlers, `Thread::sleep`,
/// `callScript`, the HTTP actions the twin answers): the few in ``DSLLibrary/suspendingFunctions`` and
/// ``DSLLibrary/suspendingStatics``.
typealias DSLSuspendingFunction = @Sendable (DSLInterpreter, [DSLValue], DSLLocation) async throws -> DSLValue
/// A method on a receiver (`x.contains(…)`, `Item.state`) that never pauses the run.
typealias DSLMethod = @Sendable (DSLInterpreter, DSLValue, [DSLValue], DSLLocation) throws -> DSLValue
/// A method of the tables (``DSLLibrary/methods``), in a struct: a bare function type in a dictionary is re-abstracted,
/// and each call went through two thunks; in a struct it keeps its own calling convention (as ``DSLExprBox``), and a
/// member's entry (``DSLMethodEntry/sync(_:)``) holds the function itself.
struct DSLMethodCode: Sendable {
    let run: DSLMethod
}
/// A method that may pause the run (`Item.sendCommand(…)`, `lock.lock()`).
typealias DSLSuspendingMethod = @Sendable (DSLInterpreter, DSLValue, [DSLValue], DSLLocation) async throws -> DSLValue
/// A method that calls a lambda it is given (`list.filter[ … ]`, `f.apply(…)`): it gives the calls as a
/// ``DSLLambdaLoop``, which the interpreter drives synchronously, or suspending when the lambda may pause.
typealias DSLLoopMethod = @Sendable (DSLValue, [DSLValue], DSLLocation) throws -> DSLLambdaLoop

/// A method of the loop tables (``DSLLibrary/loopMethods``), in a struct for the same reason as ``DSLMethodCode``.
struct DSLLoopCode: Sendable {
    let run: DSLLoopMethod
}

/// How a method is run: synchronously, suspending, or as calls of a lambda.
enum DSLMethodEntry: Sendable {
    case sync(DSLMethod)
    case suspending(DSLSuspendingMethod)
    case loop(DSLLoopMethod)
}

/// The kinds of receivers methods are looked up for (a value may be several: a `DecimalType` state is a
/// state and a number).
enum DSLReceiver: Int, Hashable, Sendable, CaseIterable {
    case item, state, number, string, instant, localTime, localDate, duration, dayOfWeek, timer, lambda, list, map,
         formatter, exception, builder, constant, historic, actions, lock, color, localDateTime, random, thingStatus, any
}

/// The classes of receivers a value falls in for method look-up (``DSLLibrary/receiverClass(_:)``): each is one
/// list of ``DSLReceiver`` kinds, most specific first (a `DecimalType` state is a state, then a number).
enum DSLReceiverClass: Int, Sendable, CaseIterable {
    case item, state, stateNumber, colorState, number, string, instant, localTime, localDate, localDateTime, random,
         thingStatus, duration, dayOfWeek, timer, lambda, list, map, formatter, exception, builder, historic, actions,
         lock, constant, any

    /// The kinds a method is looked for in, most specific first.
    var kinds: [DSLReceiver] {
        switch self {
        case .item: [.item, .any]
        case .state: [.state, .any]
        case .stateNumber: [.state, .number, .any]
        case .colorState: [.color, .state, .any]
        case .number: [.number, .any]
        case .string: [.string, .any]
        case .instant: [.instant, .any]
        case .localTime: [.localTime, .any]
        case .localDate: [.localDate, .any]
        case .localDateTime: [.localDateTime, .any]
        case .random: [.random, .any]
        case .thingStatus: [.thingStatus, .any]
        case .duration: [.duration, .any]
        case .dayOfWeek: [.dayOfWeek, .any]
        case .timer: [.timer, .any]
        case .lambda: [.lambda, .any]
        case .list: [.list, .any]
        case .map: [.map, .any]
        case .formatter: [.formatter, .any]
        case .exception: [.exception, .any]
        case .builder: [.builder, .any]
        case .historic: [.historic, .any]
        case .actions: [.actions, .any]
        case .lock: [.lock, .any]
        case .constant: [.constant, .any]
        case .any: [.any]
        }
    }
}

/// The method a written member name runs, by receiver class (indexed by ``DSLReceiverClass/rawValue``),
/// resolved once from ``DSLLibrary/dispatch`` as Xtend resolves the sugar: the name's first candidate that
/// the class's kinds have, from the most specific kind. A call reads one entry.
struct DSLMemberMethods: Sendable {
    /// Where a class's method was found: the candidate's index in the name's rows, and the kind (the tests
    /// compare it with the search).
    struct Origin: Sendable, Equatable {
        let row: Int
        let kind: DSLReceiver
    }

    /// The method by class (`nil`: the class has none by this name). (One array only: a member carries it.)
    let byClass: [DSLMethodEntry?]

    init(_ rows: DSLLibrary.MethodRows) {
        byClass = Self.resolve(rows).map { $0?.method }
    }

    /// For each class, the method `rows` give it and where it was found (the tests compare it with the search).
    static func resolve(_ rows: DSLLibrary.MethodRows) -> [(method: DSLMethodEntry, origin: Origin)?] {
        DSLReceiverClass.allCases.map { receiverClass in
            for (r, row) in rows.enumerated() {
                for kind in receiverClass.kinds {
                    if let m = row[kind.rawValue] { return (m, Origin(row: r, kind: kind)) }
                }
            }
            return nil
        }
    }

    /// The method a receiver of `receiverClass` runs (`nil`: none).
    @inline(__always)
    func method(for receiverClass: DSLReceiverClass) -> DSLMethodEntry? {
        byClass[receiverClass.rawValue]
    }
}

/// **The one table** of what a body may call: global functions, Java static members (`Type::member` and
/// `Type.member`), constructors and methods by receiver kind. The checker (`validate`) reads the same
/// table, so a name it accepts is a name the interpreter runs. Actions and persistence extensions that
/// openHAB has and the twin does not run yet are listed in ``unsupportedFunctions`` and
/// ``unsupportedMethods``: they are refused as `rules.dslUnsupported`, naming the construct.
enum DSLLibrary {
    // MARK: Names

    /// Names that are values without being declared.
    static let constants: [String: DSLValue] = [
        "ON": .state(.onOff(.on)), "OFF": .state(.onOff(.off)), "OPEN": .state(.openClosed(.open)),
        "CLOSED": .state(.openClosed(.closed)), "NULL": .state(.null), "UNDEF": .state(.undef),
        "UP": .constant(type: "UpDownType", name: "UP"), "DOWN": .constant(type: "UpDownType", name: "DOWN"),
        "STOP": .constant(type: "StopMoveType", name: "STOP"), "MOVE": .constant(type: "StopMoveType", name: "MOVE"),
        "INCREASE": .constant(type: "IncreaseDecreaseType", name: "INCREASE"), "DECREASE": .constant(type: "IncreaseDecreaseType", name: "DECREASE"),
        "PLAY": .constant(type: "PlayPauseType", name: "PLAY"), "PAUSE": .constant(type: "PlayPauseType", name: "PAUSE"),
        "NEXT": .constant(type: "NextPreviousType", name: "NEXT"), "PREVIOUS": .constant(type: "NextPreviousType", name: "PREVIOUS"),
        "REWIND": .constant(type: "RewindFastforwardType", name: "REWIND"), "FASTFORWARD": .constant(type: "RewindFastforwardType", name: "FASTFORWARD"),
    ].merging(staticImportConstants) { own, _ in own }

    /// The constants of the classes openHAB's `ScriptImplicitlyImportedTypes` imports statically (`ChronoUnit`,
    /// `DayOfWeek`): a rule may write them bare (`MINUTES.between(a, b)`, `now.dayOfWeek == MONDAY`).
    static let staticImportConstants: [String: DSLValue] = Dictionary(uniqueKeysWithValues:
        DSLJava.chronoUnitNames.map { ($0, DSLValue.constant(type: "ChronoUnit", name: $0)) }
            + DSLValue.dayNames.enumerated().map { ($1, DSLValue.dayOfWeek($0 + 1)) })

    /// Types a body may name (casts, `instanceof`, `catch`, declarations) beyond those with static members.
    static let knownTypes: Set<String> = [
        "Object", "Number", "Integer", "Long", "Double", "Float", "Boolean", "String", "CharSequence", "BigDecimal", "int", "long",
        "double", "float", "boolean", "void", "State", "Command", "Type", "PrimitiveType", "Item", "GenericItem", "GroupItem", "SwitchItem",
        "NumberItem", "ContactItem", "StringItem", "DimmerItem", "DateTimeItem", "RollershutterItem", "ColorItem", "Timer",
        "List", "ArrayList", "LinkedList", "Set", "HashSet", "LinkedHashSet", "Map", "HashMap", "LinkedHashMap", "Iterable", "Collection",
        "Exception", "RuntimeException", "Throwable", "IllegalStateException", "IllegalArgumentException", "NullPointerException",
        "ArithmeticException", "NumberFormatException", "ClassCastException", "InterruptedException", "DateTimeException",
        "UnsupportedOperationException", "IndexOutOfBoundsException", "StringBuilder", "Procedure", "Function", "Pair",
        "Procedures", "Functions", "Temperature", "Power", "Energy", "Dimensionless", "Length", "Time", "Pressure", "Speed",
        "Volume", "Angle", "Intensity", "Illuminance", "ElectricPotential", "ElectricCurrent", "Frequency", "Mass", "Density",
"ZoneId", "Queue", "Deque", "ConcurrentLinkedQueue", "Class",
        "Procedure0", "Procedure1", "Procedure2", "Procedure3", "Function0", "Function1", "Function2", "Function3", "Instant",
        "ReentrantLock", "Lock", "Date", "SimpleDateFormat", "PointType", "LocationItem", "DateFormat", "IllegalMonitorStateException",
        "LocalDateTime", "ThingStatusInfo", "Random", "UUID", "Charset", "ZoneOffset", "ThingActions", "Thing", "TemporalAdjuster",
        "Temporal", "UnsupportedTemporalTypeException", "DateTimeParseException", "UnsupportedEncodingException", "Month",
    ]

    /// openHAB actions the twin does not run (yet) (refused by `validate`, naming what they are).
    static let unsupportedFunctions: [String: String] = {
        var table: [String: String] = [:]
        // The actions the twin runs are in ``DSLActions``.
        for n in ["sendMail", "sendHtmlMail", "sendTelegram", "sendTelegramPhoto", "pushover", "sendPushoverMessage", "sendPriorityMessage"] {
            table[n] = "openHAB 2's add-on action \(n), which openHAB 3+ calls as a Thing action: getActions(\"mail\", \"mail:smtp:home\").sendMail(…), getActions(\"telegram\", \"telegram:telegramBot:bot\").sendTelegram(…), getActions(\"pushover\", \"pushover:pushover-account:account\").sendMessage(…)"
        }
        for n in ["sendXMPP", "sendTweet"] { table[n] = "the add-on action \(n)" }
        for n in ["sendMQTT", "wakeUp", "sendPushbulletNote", "ephemeris", "getNextBankHoliday", "getDaysUntil", "getMasterVolume", "interpret"] {
            table[n] = "the openHAB action \(n)"
        }
        // openHAB 3+'s other core actions a rule calls bare (openhab-core's ScriptImplicitlyImportedTypes: Ping,
        // ScriptExecution, CoreUtil, HTTP, BusEvent, Voice, Ephemeris and Semantics): openHAB runs them, so the twin
        // refuses them as not run yet — never as functions openHAB does not have (a conf directory would skip the file).
        for n in ["checkVitality", "createTimerWithArgument", "sendHttpPatchRequest", "setImage", "sendTimeSeries", "listenAndAnswer",
                  "startDialog", "stopDialog", "getHolidayDescription", "getEquipment", "getEquipmentType", "getLocation", "getLocationType",
                  "getPointType", "getPropertyType", "getSemanticType", "isEquipment", "isLocation", "isPoint", "hsbToRgb", "hsbToRgbPercent",
                  "hsbToRgbw", "hsbToRgbwPercent", "hsbToXY", "hsbTosRgb", "kelvinToXY", "rgbToHsb", "xyToDuv", "xyToHsb", "xyToKelvin"]
            where table[n] == nil {
            table[n] = "the openHAB action \(n)"
        }
        // openHAB 2's MQTT1 action; openHAB 3+ has no global publish (the MQTT binding's Thing action replaced it).
        table["publish"] = "openHAB 2's MQTT1 action publish(broker, topic, value), which openHAB 3+ does not have either: "
            + "write getActions(\"mqtt\", \"mqtt:broker:<id>\").publishMQTT(topic, value)"

        return table
    }()

    /// Persistence extensions of openHAB the twin does not run yet.
    static let unsupportedMethods: [String: String] = {
        var table: [String: String] = [:]
        // The extensions the twin runs are in ``DSLPersistence``.
        for n in ["nextUpdate", "varianceSince", "varianceUntil", "varianceBetween", "deviationSince", "deviationUntil", "deviationBetween",
                  "medianSince", "medianUntil", "medianBetween", "riemannSumSince",
                  "riemannSumUntil", "riemannSumBetween", "removeAllStatesSince", "removeAllStatesUntil", "removeAllStatesBetween", "nextState"] {
            table[n] = "the persistence extension \(n)"
        }
        return table
    }()

    /// openHAB 2's Joda-Time, gone from openHAB 3: what to write instead.
    static let jodaHints: [String: String] = [
        "DateTime": "openHAB 3+ has no Joda DateTime; use ZonedDateTime (now, now.plusMinutes(5), ZonedDateTime.now())",
        "DateTimeUtils": "openHAB 3+ has no Joda DateTimeUtils; use ZonedDateTime and Duration",
    ]

    /// Joda-Time methods rules of openHAB 2 call on `now`, with the java.time call that replaced them.
    static let jodaMethodHints: [String: String] = [
        "millis": "now.toInstant.toEpochMilli", "getMillis": "now.toInstant.toEpochMilli",
        "hourOfDay": "now.hour (getHour)", "getHourOfDay": "now.hour (getHour)",
        "minuteOfHour": "now.minute (getMinute)", "getMinuteOfHour": "now.minute (getMinute)",
        "secondOfMinute": "now.second (getSecond)", "getSecondOfMinute": "now.second (getSecond)",
        "toDate": "a ZonedDateTime itself (now)", "toDateTime": "a ZonedDateTime itself (now)",
        "toDateTimeISO": "a ZonedDateTime itself (now)", "getDayOfWeekValue": "now.dayOfWeek.value",
        "withTimeAtStartOfDay": "now.truncatedTo(ChronoUnit::DAYS)", "toDateMidnight": "now.truncatedTo(ChronoUnit::DAYS)",
        "withMonthOfYear": "withMonth", "getMonthOfYear": "now.monthValue (getMonthValue)", "monthOfYear": "now.monthValue (getMonthValue)",
        "getMinuteOfDay": "now.hour * 60 + now.minute", "minuteOfDay": "now.hour * 60 + now.minute",
"withHourOfDay": "withHour", "withMinuteOfHour": "withMinute",
    ]

    /// Methods of Apache Commons Lang's `StringUtils` that openHAB 2 offered on strings as extensions
    /// (`name.containsIgnoreCase(part)`). openHAB 3 dropped that extension class (its
    /// `ScriptImplicitlyImportedTypes`) and `java.lang.String` has none of them, so openHAB 3+ refuses a file that
    /// calls one ("The method containsIgnoreCase(String) is undefined").
    static let openHAB2StringUtils: Set<String> = [
        "containsIgnoreCase", "containsAny", "containsNone", "containsOnly", "containsWhitespace",
        "isNotEmpty", "isNotBlank", "isAllLowerCase", "isAllUpperCase", "isAlpha", "isAlphaSpace", "isAlphanumeric",
        "isNumeric", "isNumericSpace", "abbreviate", "capitalize", "uncapitalize", "swapCase", "leftPad", "rightPad",
        "chomp", "deleteWhitespace", "substringBefore", "substringAfter", "substringBeforeLast", "substringAfterLast",
        "substringBetween", "removeStart", "removeEnd", "removeStartIgnoreCase", "removeEndIgnoreCase",
        "startsWithIgnoreCase", "endsWithIgnoreCase", "countMatches", "defaultString", "defaultIfEmpty", "defaultIfBlank",
        "indexOfIgnoreCase", "lastIndexOfIgnoreCase", "ordinalIndexOf", "replaceOnce", "splitByWholeSeparator",
        "stripStart", "stripEnd", "trimToNull", "trimToEmpty", "stripToNull", "stripToEmpty",
    ]

    // MARK: Functions

    /// The functions that never pause the run.
    static let functions: [String: DSLFunction] = DSLActions.functions.merging(coreFunctions) { a, _ in a }
        .merging(DSLEphemeris.functions) { a, _ in a }

    /// The functions that may pause the run.
    static let suspendingFunctions: [String: DSLSuspendingFunction] = DSLActions.suspendingFunctions.merging([
        "sendCommand": { i, a, at in try await itemAction("sendCommand", i, a, at) },
        "callScript": { i, a, at in try await DSLScripts.call(i, a, at) },
        "restoreStates": { i, a, at in try await DSLJava.restoreStates(i, a, at) },
    ]) { a, _ in a }

    /// Whether `name` is a global function (of either table).
    static func isFunction(_ name: String) -> Bool { functions[name] != nil || suspendingFunctions[name] != nil }

    private static let coreFunctions: [String: DSLFunction] = [
        "postUpdate": { i, a, at in try itemUpdate(i, a, at) },
        "logInfo": { i, a, at in try log("INFO", i, a, at) },
        "logWarn": { i, a, at in try log("WARN", i, a, at) },
        "logError": { i, a, at in try log("ERROR", i, a, at) },
        "logDebug": { i, a, at in try log("DEBUG", i, a, at) },
        "logTrace": { i, a, at in try log("TRACE", i, a, at) },
        "println": { i, a, at in
            i.execution.log(level: "INFO", logger: "println", a.first.map(i.describe) ?? "")
            return a.first ?? .null
        },
        "createTimer": { i, a, at in try createTimer(i, a, at) },
        "newArrayList": { _, a, _ in .list(DSLList(a)) },
        "newLinkedList": { _, a, _ in .list(DSLList(a)) },
        "newArrayOfSize": { _, a, at in
            guard case .int(let n)? = a.first, n >= 0, n <= Int64(DSLLimits.maxCollectionSize) else { throw DSLFlow.failure("newArrayOfSize takes a size", at) }
            return .list(DSLList(Array(repeating: .null, count: Int(n))))
        },
        "newHashSet": { _, a, _ in .list(DSLList(unique(a), isSet: true)) },
        "newLinkedHashSet": { _, a, _ in .list(DSLList(unique(a), isSet: true)) },
        "newHashMap": { _, a, at in try newMap(a, at) },
        "newLinkedHashMap": { _, a, at in try newMap(a, at) },
        "newImmutableList": { _, a, _ in .list(DSLList(a)) },
        "storeStates": { i, a, at in try DSLJava.storeStates(i, a, at) },
    ]

    static func unique(_ values: [DSLValue]) -> [DSLValue] {
        var out: [DSLValue] = []
        for v in values where !out.contains(where: { DSLOperators.equal($0, v) }) { out.append(v) }
        return out
    }

    static func newMap(_ pairs: [DSLValue], _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        let map = DSLMap()
        for p in pairs {
            guard case .list(let pair) = p, pair.count == 2 else { throw DSLFlow.failure("newHashMap takes pairs key -> value", at) }
            let v = pair.values
            try put(map, v[0], v[1], at)
        }
        return .map(map)
    }

    static func put(_ map: DSLMap, _ key: DSLValue, _ value: DSLValue, _ at: DSLLocation) throws(DSLFlow) {
        try map.update { (entries: inout [DSLMap.Entry]) throws(DSLFlow) in
            if let k = entries.firstIndex(where: { DSLOperators.equal($0.key, key) }) {
                entries[k].value = value
            } else {
                guard entries.count < DSLLimits.maxCollectionSize else {
                    throw DSLFlow.fatal("a map grew past \(DSLLimits.maxCollectionSize) entries; the run was ended (rules.dslValueTooLarge)", at)
                }
                entries.append(DSLMap.Entry(key: key, value: value))
            }
        }
    }

    /// Static members whose value is a type the checker follows (`ScriptServiceUtil.getItemRegistry` is the
    /// Item registry, whose `getItem` it then checks).
    static let staticResults: [String: [String: String]] = ["ScriptServiceUtil": ["getItemRegistry": "ItemRegistry", "itemRegistry": "ItemRegistry"]]

    /// The type `receiver` is when it is such a static member (written `T.m`, `T.m()`, `T::m`).
    static func staticResultType(of receiver: DSLExpr) -> String? {
        switch receiver {
        case .member(.name(let type, _), let member, _, _):
            return staticResults[type]?[member.name]
        case .staticMember(let type, let member, _):
            return staticResults[type]?[member]
        case .call(let callee, let arguments, _) where arguments.isEmpty:
            return staticResultType(of: callee)
        default: return nil
        }
    }

    /// The Java class of a value, as `getClass` names it.
    static func javaClassName(_ v: DSLValue) -> String {
        switch v {
        case .string: return "java.lang.String"
        case .int: return "java.lang.Integer"
        case .number: return "java.lang.Double"
        case .decimal: return "java.math.BigDecimal"
        case .bool: return "java.lang.Boolean"
        case .state(let s): return "org.openhab.core.library.types.\(s.typeName)Type"
        case .quantity: return "org.openhab.core.library.types.QuantityType"
        case .instant: return "java.time.ZonedDateTime"
        case .localDateTime: return "java.time.LocalDateTime"
        case .random: return "java.util.Random"
        case .thingStatus: return "org.openhab.core.thing.ThingStatusInfo"
        case .list(let l): return l.isSet ? "java.util.HashSet" : "java.util.ArrayList"
        case .map: return "java.util.HashMap"
        case .item(let name): return "org.openhab.core.library.items." + name.rawValue
        default: return "java.lang.Object"
        }
    }

    /// Whether `name(args)` inside a lambda with an implicit `it` means `it.name(args)` (Xtend's implicit
    /// receiver): a method no global function of that arity shadows.
    static func isImplicitReceiverCall(_ name: String, _ arity: Int) -> Bool {
        guard knowsMethod(name) else { return false }
        if name == "sendCommand" || name == "postUpdate" { return arity == 1 }
        return !isFunction(name)
    }

    /// Whether `name()` is a feature Xbase calls with or without empty parentheses that is not a function
    /// of the table: `now()` (a static feature: Xbase resolves `now` and `now()` to the same call).
    static func isZeroArgumentFeature(_ name: String) -> Bool {
        name == "now" && !isFunction(name)
    }

    /// Calls a global function that never pauses.
    static func callFunction(_ name: String, _ args: [DSLValue], _ at: DSLLocation, _ i: DSLInterpreter) throws(DSLFlow) -> DSLValue {
        if let f = functions[name] { return try typed(at) { try f(i, args, at) } }
        if suspendingFunctions[name] != nil { throw unmarked(name, at) }
        // A variable holding a lambda called directly is not Xbase, but a name may be a lambda value.
        throw DSLFlow.failure("\(name)(…) is not a function the twin runs", at)
    }

    /// Calls a global function (one that may pause, or any other).
    static func callFunctionSuspending(_ name: String, _ args: [DSLValue], _ at: DSLLocation, _ i: DSLInterpreter) async throws(DSLFlow) -> DSLValue {
        if let f = suspendingFunctions[name] { return try await typedSuspending(at) { try await f(i, args, at) } }
        return try callFunction(name, args, at, i)
    }

    /// A call that may pause met in compiled code (``DSLCode``): ``DSLSuspension`` did not mark it (a bug of the
    /// twin, never of the rule file); the run ends, located, instead of pausing where it cannot.
    static func unmarked(_ name: String, _ at: DSLLocation) -> DSLFlow {
        DSLFlow.fatal("\(name) may pause the run, but the twin's checker did not mark it so; the run was ended (rules.dslRuntime)", at)
    }

    private static func log(_ level: String, _ i: DSLInterpreter, _ args: [DSLValue], _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        guard args.count >= 2 else { throw DSLFlow.failure("log\(level.prefix(1))\(level.dropFirst().lowercased()) takes a logger name and a text", at) }
        var text = i.describe(args[1])
        var searchFrom = text.startIndex
        for value in args.dropFirst(2) {  // SLF4J "{}" placeholders, in order
            guard let range = text.range(of: "{}", range: searchFrom..<text.endIndex) else { break }
            let replacement = i.describe(value)
            text.replaceSubrange(range, with: replacement)
            searchFrom = text.index(range.lowerBound, offsetBy: replacement.count)
        }
        i.execution.log(level: level, logger: args[0].text, text)
        return .null
    }

    /// The Item a function's first argument names: an Item value's checked name, or a name given as text, checked
    /// once per written name (no valid name: Java's `ItemNotFoundException`, as for a name no Item has).
    static func itemName(_ value: DSLValue, _ function: String, _ at: DSLLocation, _ i: DSLInterpreter) throws(DSLFlow) -> ItemName {
        switch value {
        case .item(let name): return name
        case .string(let text):
            guard let name = i.execution.checkedItemName(text) else { throw noItem(text, at) }
            return name
        default: throw DSLFlow.failure("\(function) needs an Item or an Item's name first, not \(value.kindName)", at, type: "IllegalArgumentException")
        }
    }

    /// `postUpdate(item, value)` (BusEvent): synchronous, as ``update(_:_:_:_:)``.
    private static func itemUpdate(_ i: DSLInterpreter, _ args: [DSLValue], _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        guard args.count == 2 else { throw DSLFlow.failure("postUpdate takes an Item (or its name) and a value", at) }
        try update(try itemName(args[0], "postUpdate", at, i), args[1], at, i)
        return .null
    }

    private static func itemAction(_ name: String, _ i: DSLInterpreter, _ args: [DSLValue], _ at: DSLLocation) async throws(DSLFlow) -> DSLValue {
        guard args.count == 2 else { throw DSLFlow.failure("\(name) takes an Item (or its name) and a value", at) }
        try await send(name, to: try itemName(args[0], name, at, i), args[1], at, i)
        return .null
    }

    /// The text a command or update carries.
    static func commandText(_ value: DSLValue, _ i: DSLInterpreter) -> String {
        switch value {
        case .instant(let t): return DateTimeValue(t, in: i.execution.calendar).description
        default: return i.describe(value)
        }
    }

    /// `sendCommand` (`function`; `postUpdate` is ``update(_:_:_:_:)``) of `value` to the Item called `name`: a
    /// number to a Number Item or a Group is handed over as its `DecimalType` command (``plainNumber(_:)``,
    /// ``ItemType/numberCommand(_:)``: openHAB's `sendCommand(Item, Number)` sends `number.toString()` for the Item
    /// to parse, and the command made is the very one that parse gives), anything else as its text.
    static func send(_ function: String, to name: ItemName, _ value: DSLValue, _ at: DSLLocation, _ i: DSLInterpreter) async throws(DSLFlow) {
        guard function == "sendCommand" else { return try update(name, value, at, i) }
        guard let type = i.execution.itemType(checked: name) else { throw noItem(name.rawValue, at) }
        if case .null = value { throw nullValue(function, to: name.rawValue, at) }
        if let number = plainNumber(value), let command = type.numberCommand(number) {
            await i.execution.sendCommand(checked: name, command, text: number.text)
            return
        }
        await i.execution.sendCommand(checked: name, commandText(value, i))
    }

    /// `postUpdate` of `value` to the Item called `name` without suspending: an update never waits for a Thing
    /// handler, so a rule body that only posts updates runs without a suspension (the interpreter's synchronous
    /// path). The Item's type is read once, by the name's stored hash; a number to a Number Item or a Group is
    /// handed over as its `DecimalType` (``plainNumber(_:)``, ``ItemType/numberState(_:)``).
    static func update(_ name: ItemName, _ value: DSLValue, _ at: DSLLocation, _ i: DSLInterpreter) throws(DSLFlow) {
        guard let type = i.execution.itemType(checked: name) else { throw noItem(name.rawValue, at) }
        if case .null = value { throw nullValue("postUpdate", to: name.rawValue, at) }
        if let number = plainNumber(value), let state = type.numberState(number) {
            i.execution.postUpdateNow(checked: name, state, text: number.text)
            return
        }
        i.execution.postUpdateNow(checked: name, type: type, commandText(value, i))
    }

    /// A number value (`int`, `long`, `double`, `BigDecimal`) as the `DecimalType` its text (``commandText(_:_:)``,
    /// Java's `toString`) parses to, made without parsing where the text is the value's own digits; `nil` for
    /// any other value and for a text with an exponent (`1.0E7`, `1E+3`), which the Item's parse reads.
    static func plainNumber(_ value: DSLValue) -> DecimalNumber? {
        switch value {
        case .int(let n):
            return DecimalNumber(integer: Int(n))
        case .number(let d):
            let text = JavaDecimal.javaDoubleText(d)
            guard d.isFinite, !text.utf8.contains(UInt8(ascii: "E")) else { return nil }
            return DecimalNumber(d, plainJavaText: text)
        case .decimal(let d):
            let text = d.javaString
            guard !text.utf8.contains(UInt8(ascii: "E")) else { return nil }
            return DecimalNumber(parsing: text)
        default:
            return nil
        }
    }

    private static func noItem(_ item: String, _ at: DSLLocation) -> DSLFlow {
        DSLFlow.failure("there is no Item called \(item)", at, type: "ItemNotFoundException")
    }

    private static func nullValue(_ function: String, to item: String, _ at: DSLLocation) -> DSLFlow {
        DSLFlow.failure("\(function) to \(item) with null", at, type: "NullPointerException")
    }

    private static func createTimer(_ i: DSLInterpreter, _ args: [DSLValue], _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        guard args.count == 2, case .lambda(let closure) = args[1] else {
            throw DSLFlow.failure("createTimer takes an instant (now.plusMinutes(5)) and a lambda [| … ]", at)
        }
        let when: SimInstant
        switch args[0] {
        case .instant(let t): when = t
        case .state(.dateTime(let d)): when = d.instant
        default: throw DSLFlow.failure("createTimer takes an instant (now.plusMinutes(5)), not \(args[0].kindName)", at)
        }
        let rule = i.rule, engine = i.execution.engine, fibered = i.fiber != nil, scripts = i.scripts, knownItems = i.knownItems
        let timer = DSLTimer(scheduler: i.execution.scheduler) {
            await engine.runDetached(rule, summary: "timer of rule \"\(rule.shownName)\"") { timerExecution in
                let fiber = fibered ? DSLFiber(execution: timerExecution) : nil
                let interpreter = DSLInterpreter(execution: timerExecution, rule: rule, fiber: fiber, scripts: scripts,
                                                 knownItems: knownItems)
                let body: @Sendable () async -> Void = {
                    do throws(DSLFlow) {
                        _ = try await interpreter.callSuspending(closure, [], at)
                    } catch {
                        interpreter.report(error)
                    }
                    engine.account(work: interpreter.budget.steps.load(ordering: .relaxed), rule: rule)
                }
                if let fiber { await fiber.start(body) } else { await body() }
            }
        }
        timer.schedule(at: when)
        return .timer(timer)
    }

    // MARK: Static members and constructors

    /// The static members that may pause the run.
    static let suspendingStatics: [String: [String: DSLSuspendingFunction]] = [
        "Thread": ["sleep": { i, a, at in
            guard a.count == 1, let ms = a[0].numeric, ms.value >= 0, ms.value < 1e12 else {
                throw DSLFlow.failure("Thread::sleep takes milliseconds", at, type: "IllegalArgumentException")
            }
            guard let fiber = i.fiber else {
                throw DSLFlow.fatal("Thread::sleep ran outside a fiber (the file was not compiled for it) (rules.dslRuntime)", at)
            }
            await fiber.sleep(milliseconds: Int64(ms.value))
            return .null
        }],
        "ItemRegistry": ["getItems": { i, a, _ in
            let all = await i.execution.engine.runtime.items.all().map(\.name)
            guard case .string(let pattern)? = a.first else { return .list(DSLList(all.map(DSLValue.item))) }
            // ItemRegistry.getItems(pattern): a glob with * and ?.
            let regex = "^" + NSRegularExpression.escapedPattern(for: pattern).replacingOccurrences(of: "\\*", with: ".*").replacingOccurrences(of: "\\?", with: ".") + "$"
            return .list(DSLList(all.filter { $0.rawValue.range(of: regex, options: .regularExpression) != nil }.map(DSLValue.item)))
        }],
    ]

    /// Every static member by type (of either table), for the checker.
    static let staticMembers: [String: Set<String>] = {
        var table = staticTypes.mapValues { Set($0.keys) }
        for (type, members) in suspendingStatics { table[type, default: []].formUnion(members.keys) }
        return table
    }()

    /// `Type::member` / `Type.member` that never pause: constants (no arguments) and static methods.
    static let staticTypes: [String: [String: DSLFunction]] = [
        "OnOffType": ["ON": { _, _, _ in .state(.onOff(.on)) }, "OFF": { _, _, _ in .state(.onOff(.off)) },
                      "from": { _, a, at in
                          guard case .bool(let b)? = a.first else { throw DSLFlow.failure("OnOffType.from takes a boolean", at) }
                          return .state(.onOff(b ? .on : .off))
                      }],
        "OpenClosedType": ["OPEN": { _, _, _ in .state(.openClosed(.open)) }, "CLOSED": { _, _, _ in .state(.openClosed(.closed)) }],
        "UnDefType": ["NULL": { _, _, _ in .state(.null) }, "UNDEF": { _, _, _ in .state(.undef) }],
        "UpDownType": ["UP": { _, _, _ in .constant(type: "UpDownType", name: "UP") }, "DOWN": { _, _, _ in .constant(type: "UpDownType", name: "DOWN") }],
        "StopMoveType": ["STOP": { _, _, _ in .constant(type: "StopMoveType", name: "STOP") }, "MOVE": { _, _, _ in .constant(type: "StopMoveType", name: "MOVE") }],
        "IncreaseDecreaseType": ["INCREASE": { _, _, _ in .constant(type: "IncreaseDecreaseType", name: "INCREASE") },
                                 "DECREASE": { _, _, _ in .constant(type: "IncreaseDecreaseType", name: "DECREASE") }],
        "PlayPauseType": ["PLAY": { _, _, _ in .constant(type: "PlayPauseType", name: "PLAY") }, "PAUSE": { _, _, _ in .constant(type: "PlayPauseType", name: "PAUSE") }],
        "NextPreviousType": ["NEXT": { _, _, _ in .constant(type: "NextPreviousType", name: "NEXT") },
                             "PREVIOUS": { _, _, _ in .constant(type: "NextPreviousType", name: "PREVIOUS") }],
        "RewindFastforwardType": ["REWIND": { _, _, _ in .constant(type: "RewindFastforwardType", name: "REWIND") },
                                  "FASTFORWARD": { _, _, _ in .constant(type: "RewindFastforwardType", name: "FASTFORWARD") }],
        "PercentType": ["HUNDRED": { _, _, _ in .state(.percent(DecimalNumber(integer: 100))) }, "ZERO": { _, _, _ in .state(.percent(DecimalNumber(integer: 0))) }],
        "DateTimeType": ["valueOf": { i, a, at in
            guard case .string(let s)? = a.first, let d = DateTimeValue(parsing: s, in: i.execution.calendar) else {
                throw DSLFlow.failure("DateTimeType.valueOf takes a date-time's text", at, type: "IllegalArgumentException")
            }
            return .state(.dateTime(d))
        }],
        "DecimalType": ["ZERO": { _, _, _ in .state(.decimal(DecimalNumber(integer: 0))) },
                        "valueOf": { _, a, at in
                            guard case .string(let s)? = a.first, let n = DecimalNumber(parsing: s) else { throw DSLFlow.failure("DecimalType.valueOf takes a number's text", at, type: "NumberFormatException") }
                            return .state(.decimal(n))
                        }],
        "String": ["format": { i, a, at in try DSLText.format(a, at, i) },
                   "valueOf": { i, a, _ in .string(a.first.map(i.describe) ?? "null") },
                   "join": { i, a, at in
                       guard a.count >= 1 else { throw DSLFlow.failure("String.join takes a separator and values", at) }
                       let parts: [DSLValue]
                       if a.count == 2, case .list(let l) = a[1] { parts = l.values } else { parts = Array(a.dropFirst()) }
                       return try DSLOperators.checkedString(parts.map(i.describe).joined(separator: a[0].text), at)
                   }],
        "Math": DSLMath.functions.merging(DSLJava.mathStatics) { a, _ in a },
        "HSBType": DSLColor.statics,
        // openHAB's ScriptServiceUtil.getItemRegistry: the Item registry, asked for an Item by name.
        "ScriptServiceUtil": ["getItemRegistry": { _, _, _ in .type("ItemRegistry") }, "itemRegistry": { _, _, _ in .type("ItemRegistry") }],
        "ItemRegistry": ["getItem": { i, a, at in
                             guard case .string(let name)? = a.first else { throw DSLFlow.failure("getItem takes an Item's name", at, type: "IllegalArgumentException") }
                             guard let item = i.execution.checkedItemName(name), i.execution.itemType(checked: item) != nil else {
                                 throw DSLFlow.failure("Item '\(name)' could not be found in the item registry", at, type: "ItemNotFoundException")
                             }
                             return .item(item)
                         }],
        "ZoneId": ["systemDefault": { i, _, _ in .constant(type: "ZoneId", name: i.execution.calendar.identifier) },
                   "of": { _, a, _ in .constant(type: "ZoneId", name: a.first?.text ?? "") }],
        "Integer": parsers(integer: true, max: Int64(Int32.max), min: Int64(Int32.min)).merging(DSLJava.boxedStatics(integer: true)) { a, _ in a },
        "Long": parsers(integer: true, max: Int64.max, min: Int64.min).merging(DSLJava.boxedStatics(integer: true)) { a, _ in a },
        "Double": parsers(integer: false, max: 0, min: 0).merging(DSLJava.boxedStatics(integer: false)) { a, _ in a },
        "BigDecimal": [
            "valueOf": { _, a, at in
                guard let first = a.first, let d = first.javaDecimal else { throw DSLFlow.failure("BigDecimal.valueOf takes a number", at, type: "NumberFormatException") }
                return .decimal(d)
            },
            "ZERO": { _, _, _ in .decimal(JavaDecimal(0)) }, "ONE": { _, _, _ in .decimal(JavaDecimal(1)) }, "TEN": { _, _, _ in .decimal(JavaDecimal(10)) },
        ],
        "Float": parsers(integer: false, max: 0, min: 0),
        "Boolean": ["parseBoolean": { _, a, _ in .bool(a.first?.text.lowercased() == "true") },
                    "valueOf": { _, a, _ in .bool(a.first?.text.lowercased() == "true") },
                    "TRUE": { _, _, _ in .bool(true) }, "FALSE": { _, _, _ in .bool(false) }],
        "ZonedDateTime": (["now": { i, _, _ in .instant(i.execution.now) },
                          "parse": { i, a, at in
                              guard case .string(let s)? = a.first, let d = DateTimeValue(parsing: s, in: i.execution.calendar) else {
                                  throw DSLFlow.failure("ZonedDateTime.parse cannot read \(a.first?.text ?? "nothing")", at, type: "DateTimeParseException")
                              }
                              return .instant(d.instant)
                          }] as [String: DSLFunction]).merging(DSLJava.zonedStatics) { a, _ in a },
        "Instant": ["now": { i, _, _ in .instant(i.execution.now) },
                    "ofEpochMilli": { _, a, at in
                        guard case .int(let ms)? = a.first else { throw DSLFlow.failure("Instant.ofEpochMilli takes a long", at, type: "IllegalArgumentException") }
                        return .instant(SimInstant(unixMilliseconds: ms))
                    },
                    "ofEpochSecond": { _, a, at in
                        guard case .int(let s)? = a.first, abs(s) < 300_000_000_000 else { throw DSLFlow.failure("Instant.ofEpochSecond takes a long in range", at, type: "DateTimeException") }
                        return .instant(SimInstant(unixMilliseconds: s * 1_000))
                    }],
        "LocalDateTime": DSLJava.localDateTimeStatics,
        "TemporalAdjusters": DSLJava.adjusterStatics,
        "ChronoField": Dictionary(uniqueKeysWithValues: DSLJava.chronoFields.map { name in (name, { _, _, _ in DSLValue.constant(type: "ChronoField", name: name) } as DSLFunction) }),
        "Month": DSLJava.monthStatics,
        "TextStyle": DSLJava.textStyleStatics,
        "ThingStatus": DSLJava.thingStatusStatics,
        "ThingStatusDetail": DSLJava.thingStatusDetailStatics,
        "UUID": DSLJava.uuidStatics,
        "URLEncoder": DSLJava.urlEncoderStatics,
        "URLDecoder": DSLJava.urlDecoderStatics,
        "StandardCharsets": DSLJava.charsetStatics,
        "System": ["currentTimeMillis": { i, _, _ in .int(i.execution.now.unixMilliseconds) }],
        "LocalTime": DSLTime.localTimeStatics,
        "LocalDate": DSLTime.localDateStatics,
        "Duration": DSLTime.durationStatics,
        // java.util.Locale's constants, for String.format(Locale.GERMAN, …).
        "Locale": Dictionary(uniqueKeysWithValues: DSLDateFormat.locales.keys.map { name in (name, { _, _, _ in DSLValue.constant(type: "Locale", name: name) } as DSLFunction) }),
        "ChronoUnit": Dictionary(uniqueKeysWithValues: DSLJava.chronoUnitNames.map { name in (name, { _, _, _ in DSLValue.constant(type: "ChronoUnit", name: name) } as DSLFunction) }),
        "TimeUnit": Dictionary(uniqueKeysWithValues: ["MILLISECONDS", "SECONDS", "MINUTES", "HOURS", "DAYS"].map { name in (name, { _, _, _ in DSLValue.constant(type: "TimeUnit", name: name) } as DSLFunction) }),
        "RoundingMode": Dictionary(uniqueKeysWithValues: ["HALF_UP", "HALF_DOWN", "HALF_EVEN", "UP", "DOWN", "FLOOR", "CEILING"].map { name in (name, { _, _, _ in DSLValue.constant(type: "RoundingMode", name: name) } as DSLFunction) }),
        "DayOfWeek": Dictionary(uniqueKeysWithValues: DSLValue.dayNames.enumerated().map { (k, name) in (name, { _, _, _ in DSLValue.dayOfWeek(k + 1) } as DSLFunction) })
            .merging(DSLJava.dayOfWeekStatics) { a, _ in a },
        "DateTimeFormatter": DSLJava.formatterStatics.merging(["ofPattern": { _, a, at in
            guard case .string(let p)? = a.first else { throw DSLFlow.failure("DateTimeFormatter.ofPattern takes a pattern", at) }
            return .formatter(p)
        } as DSLFunction]) { a, _ in a },
    ]

    static func parsers(integer: Bool, max: Int64, min: Int64) -> [String: DSLFunction] {
        let parse: DSLFunction = { _, a, at in
            guard let first = a.first else { throw DSLFlow.failure("a parse function takes a text", at, type: "NumberFormatException") }
            if case .string(let s) = first {
                let t = s.trimmingCharacters(in: .whitespaces) == s ? s : ""
                if integer {
                    guard let n = Int64(t), n <= max, n >= min else { throw DSLFlow.failure("For input string: \"\(s)\"", at, type: "NumberFormatException") }
                    return .int(n)
                }
                return .number(try DSLJava.parseDouble(s, at))
            }
            guard let n = first.numeric else { throw DSLFlow.failure("cannot read a number from \(first.kindName)", at, type: "NumberFormatException") }
            return integer ? .int(Int64(saturating: n.value.rounded(.towardZero))) : .number(n.value)
        }
        var table: [String: DSLFunction] = ["valueOf": parse, "parseInt": parse, "parseLong": parse, "parseDouble": parse, "parseFloat": parse]
        if integer {
            table["MAX_VALUE"] = { _, _, _ in .int(max) }
            table["MIN_VALUE"] = { _, _, _ in .int(min) }
        }
        return table
    }

    /// A static access that never pauses, called (`args` given) or read.
    static func staticAccess(_ type: String, _ member: String, _ args: [DSLValue]?, _ at: DSLLocation, _ i: DSLInterpreter) throws(DSLFlow) -> DSLValue {
        if let hint = jodaHints[type] { throw DSLFlow.failure(hint, at, type: "UnsupportedOperationException") }
        guard let f = staticTypes[type]?[member] else {
            if suspendingStatics[type]?[member] != nil { throw unmarked("\(type)::\(member)", at) }
            throw DSLFlow.failure("\(type)::\(member) is not a static member the twin runs", at, type: "NoSuchMethodException")
        }
        return try typed(at) { try f(i, args ?? [], at) }
    }

    /// A static access (one that may pause, or any other).
    static func staticAccessSuspending(_ type: String, _ member: String, _ args: [DSLValue]?, _ at: DSLLocation, _ i: DSLInterpreter) async throws(DSLFlow) -> DSLValue {
        if jodaHints[type] == nil, let f = suspendingStatics[type]?[member] { return try await typedSuspending(at) { try await f(i, args ?? [], at) } }
        return try staticAccess(type, member, args, at, i)
    }

    /// Runs a table entry, keeping its ``DSLFlow`` typed.
    static func typed<T>(_ at: DSLLocation, _ body: () throws -> T) throws(DSLFlow) -> T {
        do { return try body() } catch let flow as DSLFlow { throw flow } catch {
            throw DSLFlow.failure("\(error)", at)
        }
    }

    /// Runs a table entry that may pause, keeping its ``DSLFlow`` typed.
    static func typedSuspending(_ at: DSLLocation, _ body: () async throws -> DSLValue) async throws(DSLFlow) -> DSLValue {
        do { return try await body() } catch let flow as DSLFlow { throw flow } catch {
            throw DSLFlow.failure("\(error)", at)
        }
    }

    /// `new Type(arguments)`.
    static func construct(_ type: String, _ a: [DSLValue], _ at: DSLLocation, _ i: DSLInterpreter) throws(DSLFlow) -> DSLValue {
        if let hint = jodaHints[type] { throw DSLFlow.failure(hint, at, type: "UnsupportedOperationException") }
        guard let make = constructors[type] else {
            throw DSLFlow.failure("new \(type)(…) is not a constructor the twin runs", at, type: "NoSuchMethodException")
        }
        return try typed(at) { try make(i, a, at) }
    }

    static let constructors: [String: DSLFunction] = {
        var table: [String: DSLFunction] = [
            "DecimalType": { _, a, at in
                guard let first = a.first else { return .state(.decimal(DecimalNumber(integer: 0))) }
                if case .string(let s) = first, let n = DecimalNumber(parsing: s) { return .state(.decimal(n)) }
                if case .int(let n) = first { return .state(.decimal(DecimalNumber(integer: Int(n)))) }
                // `DecimalType(Number)`: a BigDecimal as it is, a double through `Double.toString` (`21.0`).
                guard let n = first.javaDecimal else { throw DSLFlow.failure("new DecimalType takes a number, not \(first.kindName)", at, type: "NumberFormatException") }
                return .state(.decimal(DSLOperators.decimalNumber(n)))
            },
            "BigDecimal": { _, a, at in
                // `new BigDecimal(String)`; `new BigDecimal(double)` is taken as `BigDecimal.valueOf(double)` (the
                // shortest digits: Java would keep the double's full binary expansion, 0.1 → 0.1000000000000000055…).
                guard a.count == 1 else { throw DSLFlow.failure("new BigDecimal takes a text or a number", at, type: "NumberFormatException") }
                if case .string(let s) = a[0] {
                    guard let d = JavaDecimal(parsing: s) else { throw DSLFlow.failure("Character array is missing \"exponent\" mark 'e' or 'E'. (\(s) is not a number)", at, type: "NumberFormatException") }
                    return .decimal(d)
                }
                guard let d = a[0].javaDecimal else { throw DSLFlow.failure("new BigDecimal takes a text or a number, not \(a[0].kindName)", at, type: "NumberFormatException") }
                return .decimal(d)
            },
            "PercentType": { _, a, at in
                var value = JavaDecimal(0)
                if let first = a.first {
                    if case .string(let s) = first, let n = JavaDecimal(parsing: s) { value = n } else if let n = first.javaDecimal { value = n } else {
                        throw DSLFlow.failure("new PercentType takes 0 to 100", at, type: "IllegalArgumentException")
                    }
                }
                guard JavaDecimal.compare(value, JavaDecimal(0)) >= 0, JavaDecimal.compare(value, JavaDecimal(100)) <= 0 else {
                    throw DSLFlow.failure("Value must be between 0 and 100", at, type: "IllegalArgumentException")
                }
                return .state(.percent(DSLOperators.decimalNumber(value)))
            },
            "QuantityType": { _, a, at in
                if a.count == 1, case .string(let s) = a[0], let q = Quantity(parsing: s) { return .quantity(q) }
                if a.count == 2, let n = a[0].numeric, case .string(let u) = a[1], let q = Quantity(parsing: "\(a[0].javaDecimal?.plainString ?? JavaDecimal.javaDoubleText(n.value)) \(u)") { return .quantity(q) }
                if a.count == 1, let n = a[0].numeric { return n.unit.map { .quantity(Quantity(DecimalNumber(n.value), $0)) } ?? .number(n.value) }
                throw DSLFlow.failure("new QuantityType takes a text such as \"21 °C\" (or a number and a unit)", at, type: "IllegalArgumentException")
            },
            "StringType": { i, a, _ in .state(.string(a.first.map(i.describe) ?? "")) },
            "DateTimeType": { i, a, at in
                guard let first = a.first else { return .state(.dateTime(DateTimeValue(i.execution.now, in: i.execution.calendar))) }
                switch first {
                case .instant(let t): return .state(.dateTime(DateTimeValue(t, in: i.execution.calendar)))
                case .string(let s):
                    guard let d = DateTimeValue(parsing: s, in: i.execution.calendar) else { throw DSLFlow.failure("\(s) is not a date-time", at, type: "IllegalArgumentException") }
                    return .state(.dateTime(d))
                default: throw DSLFlow.failure("new DateTimeType takes a ZonedDateTime or a text", at, type: "IllegalArgumentException")
                }
            },
            "PointType": { _, a, at in
                // `new PointType("lat,lon[,alt]")`.
                guard case .string(let s)? = a.first, a.count == 1, let p = GeoPoint(parsing: s) else {
                    throw DSLFlow.failure("new PointType takes a text \"latitude,longitude[,altitude]\"", at, type: "IllegalArgumentException")
                }
                return .state(.point(p))
            },
            "StringBuilder": { i, a, _ in .builder(DSLList(a.map { .string(i.describe($0)) })) },
            "ReentrantLock": { _, _, _ in .lock(DSLLock()) },
            "HSBType": DSLColor.constructor,
            // java.util.Date: an instant (now, or milliseconds since the epoch); SimpleDateFormat: a pattern
            // (its letters y M d H h m s S a E are DateTimeFormatter's).
            "Date": { i, a, at in
                guard let first = a.first else { return .instant(i.execution.now) }
                guard case .int(let ms) = first else { throw DSLFlow.failure("new Date takes milliseconds since 1970", at, type: "IllegalArgumentException") }
                return .instant(SimInstant(unixMilliseconds: ms))
            },
            "SimpleDateFormat": { _, a, at in
                guard case .string(let p)? = a.first else { throw DSLFlow.failure("new SimpleDateFormat takes a pattern such as \"HH:mm\"", at, type: "IllegalArgumentException") }
                return .formatter(p)
            },
        ]
        table.merge(DSLJava.boxedConstructors) { a, _ in a }
        for name in ["ArrayList", "LinkedList", "CopyOnWriteArrayList"] { table[name] = { _, a, _ in
            if case .list(let l)? = a.first { return .list(DSLList(l.values)) }
            return .list(DSLList([]))
        } }
        for name in ["HashSet", "LinkedHashSet", "TreeSet"] { table[name] = { _, a, _ in
            if case .list(let l)? = a.first { return .list(DSLList(unique(l.values), isSet: true)) }
            return .list(DSLList([], isSet: true))
        } }
        for name in ["HashMap", "LinkedHashMap", "TreeMap", "ConcurrentHashMap"] { table[name] = { _, _, _ in .map(DSLMap()) } }
        for name in ["Exception", "RuntimeException", "IllegalStateException", "IllegalArgumentException", "NullPointerException",
                     "UnsupportedOperationException", "ArithmeticException", "NumberFormatException", "Throwable"] {
            table[name] = { i, a, _ in .exception(type: name, message: a.first.map(i.describe) ?? "null") }
        }
        return table
    }()

    // MARK: Methods

    /// The receiver class of a value: which list of receiver kinds (``DSLReceiverClass/kinds``) its methods
    /// are looked up in. One switch; a member call reads its method at this index (``DSLMemberMethods``).
    static func receiverClass(_ v: DSLValue) -> DSLReceiverClass {
        switch v {
        case .item: return .item
        case .state(.decimal), .state(.percent), .state(.quantity): return .stateNumber
        case .state(.dateTime): return .state
        case .state(.hsb): return .colorState
        case .state: return .state
        case .int, .number, .decimal, .quantity: return .number
        case .string: return .string
        case .instant: return .instant
        case .localTime: return .localTime
        case .localDate: return .localDate
        case .localDateTime: return .localDateTime
        case .random: return .random
        case .thingStatus: return .thingStatus
        case .duration: return .duration
        case .dayOfWeek: return .dayOfWeek
        case .timer: return .timer
        case .lambda: return .lambda
        case .list: return .list
        case .map: return .map
        case .formatter: return .formatter
        case .exception: return .exception
        case .builder: return .builder
        case .historic: return .historic
        case .actions: return .actions
        case .lock: return .lock
        case .constant: return .constant
        case .bool, .type, .null: return .any
        }
    }

    static let methods: [DSLReceiver: [String: DSLMethodCode]] = [
        .any: [
            "toString": .init { i, r, _, _ in .string(i.describe(r)) },
            "equals": .init { _, r, a, _ in .bool(a.count == 1 && DSLOperators.equal(r, a[0])) },
            "hashCode": .init { i, r, _, _ in .int(Int64(truncatingIfNeeded: StableHash.fnv1a64(i.describe(r)))) },
            "compareTo": .init { _, r, a, at in
                guard a.count == 1 else { throw DSLFlow.failure("compareTo takes one value", at) }
                return .int(Int64(try DSLOperators.compare(r, a[0], at)))
            },
            "getClass": .init { _, r, _, _ in .constant(type: "Class", name: "class " + javaClassName(r)) },
            "booleanValue": .init { _, r, _, at in
                guard case .bool(let b) = r else { throw DSLFlow.failure("booleanValue needs a Boolean", at, type: "ClassCastException") }
                return .bool(b)
            },
        ],
        .item: DSLItems.methods.merging(DSLPersistence.methods) { a, _ in a },
        .historic: DSLPersistence.historicMethods,
        .actions: DSLActions.thingActionMethods,
        .state: DSLItems.stateMethods,
        .number: DSLMath.numberMethods.merging(DSLJava.numberMethods) { a, _ in a },
        .string: DSLText.stringMethods.merging(DSLJava.stringMethods) { a, _ in a },
        .instant: DSLTime.instantMethods.merging(DSLJava.instantMethods) { a, _ in a },
        .localDateTime: DSLJava.localDateTimeMethods,
        .random: DSLJava.randomMethods,
        .thingStatus: DSLJava.thingStatusMethods,
        .localTime: DSLTime.localTimeMethods.merging(DSLJava.localTimeMethods) { a, _ in a },
        .localDate: DSLTime.localDateMethods.merging(DSLJava.localDateMethods) { a, _ in a },
        .duration: DSLTime.durationMethods.merging(DSLJava.durationMethods) { a, _ in a },
        .dayOfWeek: DSLJava.dayOfWeekMethods.merging(["value": .init { _, r, _, _ in if case .dayOfWeek(let d) = r { return .int(Int64(d)) }; return .null },
                     "name": .init { _, r, _, _ in .string(r.text) }]) { a, _ in a },
        .timer: DSLItems.timerMethods,
        .list: DSLCollections.listMethods.merging(DSLJava.listMethods) { a, _ in a },
        .map: DSLCollections.mapMethods.merging(DSLJava.mapMethods) { a, _ in a },
        .formatter: ["format": .init { i, r, a, at in
            guard case .formatter(let p) = r, let first = a.first else { throw DSLFlow.failure("format takes a date-time", at) }
            return .string(try DSLTime.format(first, pattern: p, at, i))
        }],
        .exception: ["getMessage": .init { _, r, _, _ in if case .exception(_, let m) = r { return .string(m) }; return .null },
                     "message": .init { _, r, _, _ in if case .exception(_, let m) = r { return .string(m) }; return .null },
                     "localizedMessage": .init { _, r, _, _ in if case .exception(_, let m) = r { return .string(m) }; return .null },
                     "printStackTrace": .init { _, _, _, _ in .null }],
        .builder: ["append": .init { i, r, a, at in
            guard case .builder(let b) = r, let first = a.first else { return r }
            let piece = i.describe(first)
            try b.update { (v: inout [DSLValue]) throws(DSLFlow) in
                v.append(.string(piece))
                if v.count > DSLLimits.maxCollectionSize { throw DSLFlow.fatal("a StringBuilder grew too large (rules.dslValueTooLarge)", at) }
            }
            _ = try DSLOperators.checkedString(r.text, at)
            return r
        }, "length": .init { _, r, _, _ in .int(Int64(r.text.count)) }],
        .constant: DSLJava.constantMethods.merging(["name": .init { _, r, _, _ in .string(r.text) },
                    "getSimpleName": .init { _, r, _, _ in .string(String(r.text.split(separator: ".").last ?? "")) }]) { a, _ in a },
        .lock: DSLConcurrency.lockMethods,
        .color: DSLColor.methods,
    ]

    /// The methods that may pause the run.
    static let suspendingMethods: [DSLReceiver: [String: DSLSuspendingMethod]] = [
        .item: DSLItems.suspendingMethods.merging(DSLJava.groupMethods) { a, _ in a },
        .lock: DSLConcurrency.suspendingLockMethods,
    ]

    /// The methods that call a lambda they are given.
    static let loopMethods: [DSLReceiver: [String: DSLLoopCode]] = [
        .list: DSLCollections.listLoops,
        .map: DSLCollections.mapLoops,
        // `f.apply(…)`: one call of the lambda itself.
        .lambda: ["apply": .init { r, a, at in
            guard case .lambda(let c) = r else { return DSLLambdaLoop(none: .null, at) }
            return DSLLambdaLoop(once: c, a, at)
        }],
    ]

    /// Every method name the tables know, for the checker.
    static let methodNames: Set<String> = {
        var names = Set<String>()
        for (_, table) in methods { names.formUnion(table.keys) }
        for (_, table) in suspendingMethods { names.formUnion(table.keys) }
        for (_, table) in loopMethods { names.formUnion(table.keys) }
        return names
    }()

    /// Xtend's property sugar: `x.running` ≡ `x.isRunning()`, `x.name` ≡ `x.getName()`, and `getX()` ≡ `x`.
    static func candidates(_ name: String) -> [String] {
        if let cached = candidateCache.withLock({ $0[name] }) { return cached }
        let out = makeCandidates(name)
        candidateCache.withLock { cache in if cache.count < 10_000 { cache[name] = out } }
        return out
    }

    private static let candidateCache = Mutex<[String: [String]]>([:])

    private static func makeCandidates(_ name: String) -> [String] {
        var out = [name]
        let capital = name.prefix(1).uppercased() + name.dropFirst()
        out.append("get" + capital)
        out.append("is" + capital)
        if name.hasPrefix("get"), name.count > 3 { out.append(name.dropFirst(3).prefix(1).lowercased() + name.dropFirst(4)) }
        if name.hasPrefix("is"), name.count > 2, name.dropFirst(2).first?.isUppercase == true {
            out.append(name.dropFirst(2).prefix(1).lowercased() + name.dropFirst(3))
        }
        return out
    }

    /// Whether some receiver has a method or property `name` (the checker's question, and the interpreter's
    /// for Xtend's implicit `it`): one lookup in ``dispatch``.
    static func knowsMethod(_ name: String) -> Bool {
        dispatch[name] != nil
    }

    /// For each of a written name's ``candidates(_:)`` that some receiver has, in order, the method by receiver
    /// kind (indexed by `DSLReceiver.rawValue`): one entry of ``dispatch``.
    typealias MethodRows = [[DSLMethodEntry?]]

    /// Every name a body may write for a method (with Xtend's property sugar) → for each of its
    /// ``candidates(_:)`` that some receiver has, in order, the method by receiver kind (indexed by
    /// `DSLReceiver.rawValue`). Built once, so a call is one string lookup and a few array reads instead of
    /// a lookup per candidate and kind.
    static let dispatch: [String: MethodRows] = {
        func capital(_ s: Substring) -> String { s.prefix(1).uppercased() + s.dropFirst() }
        func lower(_ s: Substring) -> String { s.prefix(1).lowercased() + s.dropFirst() }
        // Every written form whose candidates can reach a method name (see `candidates`).
        var written = Set<String>()
        for m in methodNames {
            let whole = Substring(m)
            written.formUnion([m, "get" + capital(whole), "get" + m, "is" + capital(whole)])
            if m.hasPrefix("get"), m.count > 3 { written.formUnion([String(whole.dropFirst(3)), lower(whole.dropFirst(3))]) }
            if m.hasPrefix("is"), m.count > 2 { written.formUnion([String(whole.dropFirst(2)), lower(whole.dropFirst(2))]) }
        }
        var table: [String: MethodRows] = [:]
        for w in written {
            var perCandidate: [[DSLMethodEntry?]] = []
            for candidate in makeCandidates(w) {
                var row = [DSLMethodEntry?](repeating: nil, count: DSLReceiver.allCases.count)
                var any = false
                for kind in DSLReceiver.allCases {
                    if let m = methods[kind]?[candidate] { row[kind.rawValue] = .sync(m.run) }
                    else if let m = suspendingMethods[kind]?[candidate] { row[kind.rawValue] = .suspending(m) }
                    else if let m = loopMethods[kind]?[candidate] { row[kind.rawValue] = .loop(m.run) }
                    else { continue }
                    any = true
                }
                if any { perCandidate.append(row) }
            }
            if !perCandidate.isEmpty { table[w] = perCandidate }
        }
        return table
    }()

    /// The written method names some receiver runs as a method that may pause, and the static members
    /// that may (``DSLSuspension`` marks their calls).
    static let suspendingMemberNames: Set<String> = {
        var names = Set(dispatch.filter { $0.value.contains { row in row.contains { if case .suspending? = $0 { true } else { false } } } }.keys)
        for (_, members) in suspendingStatics { names.formUnion(members.keys) }
        return names
    }()

    /// The written method names some receiver runs as calls of a lambda: `.lambda`: the receiver is the
    /// lambda (`apply`: true); else an argument is (false).
    static let loopMethodNames: [String: Bool] = {
        var names: [String: Bool] = [:]
        for (w, rows) in dispatch {
            for row in rows {
                for kind in DSLReceiver.allCases {
                    guard case .loop? = row[kind.rawValue] else { continue }
                    names[w] = (names[w] ?? false) || kind == .lambda
                }
            }
        }
        return names
    }()

    /// Every written method name → its method by receiver class (``DSLMemberMethods``), resolved once from
    /// ``dispatch``: a parsed member or feature holds its entry; a name met at run time looks it up here.
    static let memberMethods: [String: DSLMemberMethods] = dispatch.mapValues(DSLMemberMethods.init)

    /// Calls `receiver.name(args)` (a method that never pauses, or one whose lambda cannot); `methods`: the
    /// name's entry of ``memberMethods`` when the caller looked it up once (a parsed member, a feature).
    static func invoke(_ receiver: DSLValue, _ name: String, methods: DSLMemberMethods? = nil, _ args: [DSLValue], _ at: DSLLocation,
                       _ i: DSLInterpreter) throws(DSLFlow) -> DSLValue {
        switch try method(receiver, name, methods ?? memberMethods[name], at) {
        case .sync(let m): return try typed(at) { try m(i, receiver, args, at) }
        case .loop(let m): return try i.run(try typed(at) { try m(receiver, args, at) }, at)
        case .suspending: throw unmarked(name, at)
        }
    }

    /// Calls `receiver.name(args)` (any method).
    static func invokeSuspending(_ receiver: DSLValue, _ name: String, methods: DSLMemberMethods? = nil, _ args: [DSLValue], _ at: DSLLocation,
                                 _ i: DSLInterpreter) async throws(DSLFlow) -> DSLValue {
        switch try method(receiver, name, methods ?? memberMethods[name], at) {
        case .sync(let m): return try typed(at) { try m(i, receiver, args, at) }
        case .loop(let m): return try await i.runSuspending(try typed(at) { try m(receiver, args, at) }, at)
        case .suspending(let m): return try await typedSuspending(at) { try await m(i, receiver, args, at) }
        }
    }

    /// The method `receiver.name` runs (`resolved`: the name's entry of ``memberMethods``).
    private static func method(_ receiver: DSLValue, _ name: String, _ resolved: DSLMemberMethods?, _ at: DSLLocation) throws(DSLFlow) -> DSLMethodEntry {
        if case .null = receiver {
            throw DSLFlow.failure("\(name) was called on null", at, type: "NullPointerException")
        }
        if case .actions = receiver {
            // A Thing's actions: the kinds the twin knows by name, Object's methods, and any other method of any
            // binding as the generic outbox `action` (``DSLActions/genericAction(_:)``).
            if let m = methods[.actions]?[name] { return .sync(m.run) }
            if ["toString", "equals", "hashCode", "getClass"].contains(name), let m = methods[.any]?[name] { return .sync(m.run) }
            let generic = DSLActions.genericAction(name)
            return .sync({ i, r, a, at in generic(i, r, a, at) })
        }
        if let m = resolved?.method(for: receiverClass(receiver)) { return m }
        if let what = unsupportedMethods[name] {
            throw DSLFlow.failure("\(what) is not run by the twin yet", at, type: "UnsupportedOperationException")
        }
        throw DSLFlow.failure("\(receiver.kindName) has no method or property \(name) the twin runs", at, type: "NoSuchMethodException")
    }
}
