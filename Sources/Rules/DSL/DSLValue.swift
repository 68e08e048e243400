import Foundation
import Simulation
import SmartHome
import Synchronization

/// A value while a DSL body runs. (The cases with large payloads are `indirect`: a value is copied at
/// every step of a run, and a copy of a boxed payload is one retain instead of a ~100-byte copy.)
enum DSLValue: Sendable {
    case null
    case bool(Bool)
    /// A Java `int`/`long` (integer literals and what integer arithmetic gives: `7 / 2` is 3).
    case int(Int64)
    /// A Java `double` (decimal literals `1.5`, `1e3`, `1.5d`, `Math` results, `doubleValue`, `Double.parseDouble`).
    case number(Double)
    /// A `java.math.BigDecimal` (what openHAB's `NumberExtensions` arithmetic on a `Number` gives,
    /// `0.1bd` literals, `toBigDecimal`).
    case decimal(JavaDecimal)
    indirect case quantity(Quantity)
    case string(String)
    /// An openHAB state: `ON`, `NULL`, an Item's state as it is.
    indirect case state(State)
    /// An Item, by its checked name: made once where the Item value is made (a name the body's checker resolved
    /// to an Item, `triggeringItem`, a Group's members, `getItem`), so the Item's methods look it up by the
    /// name's stored hash without checking or hashing its text again. The Item itself is read from the registry
    /// at each use (one added or removed by `serve` after load is found, or not, as it is then).
    case item(ItemName)
    /// A `ZonedDateTime` (`now`, a DateTime state's `zonedDateTime`).
    case instant(SimInstant)
    /// A `java.time.LocalTime`.
    case localTime(LocalTime)
    /// A `java.time.LocalDate`.
    case localDate(CivilDate)
    /// A `java.time.LocalDateTime` (a wall-clock date and time, no zone).
    case localDateTime(LocalDateTime)
    /// A `java.time.Duration`.
    case duration(SimDuration)
    /// A `DayOfWeek` (ISO 1 = Monday).
    case dayOfWeek(Int)
    /// A constant of a Java enum the twin knows (`ChronoUnit.MINUTES`, `RoundingMode.HALF_UP`).
    indirect case constant(type: String, name: String)
    /// A `DateTimeFormatter` (its pattern).
    case formatter(String)
    case timer(DSLTimer)
    /// A lambda with the scope it was written in.
    case lambda(DSLClosure)
    /// A `java.util.List` or `Set` (shared, mutable, as Java's).
    case list(DSLList)
    /// A `java.util.Map` (insertion order, as `LinkedHashMap`).
    case map(DSLMap)
    /// A Java type named in code (`Math`, `OnOffType`, a type guard).
    case type(String)
    /// A thrown exception (`new Exception("…")`, or a run-time error caught by `catch`).
    indirect case exception(type: String, message: String)
    /// A `StringBuilder`.
    case builder(DSLList)
    /// A persisted state of an Item (openHAB's `HistoricItem`): the Item's name and the entry.
    indirect case historic(String, PersistedEntry)
    /// A Thing's actions (`getActions("mail", "mail:smtp:home")`): the scope and the Thing UID.
    indirect case actions(scope: String, thing: String)
    /// A `java.util.concurrent.locks.ReentrantLock` (shared by the runs that see it).
    case lock(DSLLock)
    /// A `java.util.Random` (its state shared by the runs that see it).
    case random(DSLRandom)
    /// openHAB's `ThingStatusInfo` (what `getThingStatusInfo(uid)` gives).
    indirect case thingStatus(ThingStatusInfo)

    /// Xtend's `toString`, as `+` with a string and `logInfo` print it: states as openHAB prints them.
    var text: String { text(depth: 0) }

    /// How deep `toString` goes into nested collections (a cycle through them would not end).
    static let maxTextDepth = 64

    func text(depth: Int) -> String {
        guard depth < Self.maxTextDepth else { return "…" }
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let n): return String(n)
        case .number(let n): return JavaDecimal.javaDoubleText(n)
        case .decimal(let d): return d.javaString
        case .quantity(let q): return q.description
        case .string(let s): return s
        case .state(let s): return s.description
        case .item(let name): return name.rawValue
        case .instant(let instant): return "instant \(instant)"
        case .localTime(let t): return t.description  // LocalTime.toString: HH:mm when the seconds are 0
        case .localDate(let d): return d.description
        case .localDateTime(let l): return "\(l.date)T\(l.time)"  // LocalDateTime.toString: LocalTime prints HH:mm when the seconds are 0
        case .duration(let d): return d.description
        case .dayOfWeek(let d): return Self.dayNames[(d - 1 + 7) % 7]
        case .constant(_, let name): return name
        case .formatter(let p): return "DateTimeFormatter(\(p))"
        case .timer: return "Timer"
        case .lambda: return "Procedure"
        case .list(let l):
            return "[" + l.values.map { if case .list(let x) = $0, x === l { "(this Collection)" } else { $0.text(depth: depth + 1) } }.joined(separator: ", ") + "]"
        case .map(let m):
            func part(_ v: DSLValue) -> String { if case .map(let x) = v, x === m { "(this Map)" } else { v.text(depth: depth + 1) } }
            return "{" + m.entries.map { "\(part($0.key))=\(part($0.value))" }.joined(separator: ", ") + "}"
        case .type(let t): return t
        case .exception(let type, let message): return "java.lang.\(type): \(message)"
        case .builder(let b): return b.values.map { $0.text(depth: depth + 1) }.joined()
        case .historic(let name, let e): return "\(e.instant): \(name) -> \(e.state.description)"
        case .actions(let scope, let thing): return "\(scope) actions of \(thing)"
        case .lock(let l): return "java.util.concurrent.locks.ReentrantLock@" + (l.isLocked ? "[Locked]" : "[Unlocked]")
        case .random: return "java.util.Random"
        case .thingStatus(let info):
            // openHAB's ThingStatusInfo.toString: the status, the detail unless NONE, the description when there is one.
            let detail = info.statusDetail == .none ? "" : " (\(info.statusDetail.rawValue))"
            let description = info.description.map { $0.isEmpty ? "" : ": " + $0 } ?? ""
            return info.status.rawValue + detail + description
        }
    }

    static let dayNames = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"]

    /// The value as a number or a quantity, when it is one (number states count, with their unit).
    var numeric: (value: Double, unit: QuantityUnit?)? {
        switch self {
        case .int(let n): return (Double(n), nil)
        case .number(let n): return (n, nil)
        case .decimal(let d): return (d.doubleValue, nil)
        case .quantity(let q): return (q.value, q.unit)
        case .state(.decimal(let n)), .state(.percent(let n)): return (n.value, nil)
        case .state(.quantity(let q)): return (q.value, q.unit)
        default: return nil
        }
    }

    /// The value as a `BigDecimal`, as openHAB's `NumberExtensions.numberToBigDecimal` converts a `Number`: an
    /// int exactly, a `double` through `Double.toString`, a `DecimalType` by its text, a quantity by its number
    /// (in its own unit). `nil` for what is not a number (or a double that is NaN or infinite).
    var javaDecimal: JavaDecimal? {
        switch self {
        case .int(let n): return JavaDecimal(n)
        case .number(let d): return JavaDecimal(double: d)
        case .decimal(let d): return d
        case .quantity(let q), .state(.quantity(let q)): return JavaDecimal(number: q.number)
        case .state(.decimal(let n)), .state(.percent(let n)): return JavaDecimal(number: n)
        default: return nil
        }
    }

    /// The kind, for messages.
    var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a Boolean"
        case .int: return "an int"
        case .number: return "a double"
        case .decimal: return "a BigDecimal"
        case .quantity: return "a quantity"
        case .string: return "a String"
        case .state(let s): return "the state \(s.description) (\(s.typeName)Type)"
        case .item(let n): return "the Item \(n)"
        case .instant: return "a ZonedDateTime"
        case .localTime: return "a LocalTime"
        case .localDate: return "a LocalDate"
        case .localDateTime: return "a LocalDateTime"
        case .duration: return "a Duration"
        case .dayOfWeek: return "a DayOfWeek"
        case .constant(let type, _): return "a \(type)"
        case .formatter: return "a DateTimeFormatter"
        case .timer: return "a Timer"
        case .lambda: return "a lambda"
        case .list(let l): return l.isSet ? "a Set" : "a List"
        case .map: return "a Map"
        case .type(let t): return "the type \(t)"
        case .exception(let t, _): return "a \(t)"
        case .builder: return "a StringBuilder"
        case .historic: return "a HistoricItem"
        case .actions: return "a ThingActions"
        case .lock: return "a ReentrantLock"
        case .random: return "a Random"
        case .thingStatus: return "a ThingStatusInfo"
        }
    }
}

/// A lambda value: parameters, body and the frame it was made in (the variables it sees, up to the globals).
/// `@unchecked`: a frame a lambda may capture guards its slots with its lock (``DSLFrame``).
struct DSLClosure: @unchecked Sendable {
    let lambda: DSLLambda
    let frame: DSLFrame

    /// The lambda as compiled.
    var syntax: DSLLambdaSyntax {
        @inline(__always) get { lambda.syntax }
    }
}

/// A lambda compiled once (``DSLCode``), which every closure made of it shares by reference: a closure value is a
/// reference and a frame, so ``DSLValue`` (copied at every step of a run) is not as large as a lambda's syntax.
final class DSLLambda: Sendable {
    let syntax: DSLLambdaSyntax

    init(_ syntax: DSLLambdaSyntax) { self.syntax = syntax }
}

/// A Java list or set: shared by reference, as Java's collections are.
final class DSLList: Sendable {
    let isSet: Bool
    private let storage: Mutex<[DSLValue]>

    init(_ values: [DSLValue], isSet: Bool = false) {
        self.isSet = isSet
        self.storage = Mutex(values)
    }

    var values: [DSLValue] { storage.withLock { $0 } }
    var count: Int { storage.withLock { $0.count } }
    func update<T>(_ body: (inout [DSLValue]) throws(DSLFlow) -> T) throws(DSLFlow) -> T {
        try storage.withLock { (values: inout [DSLValue]) throws(DSLFlow) -> T in try body(&values) }
    }
}

/// A Java map in insertion order.
final class DSLMap: Sendable {
    struct Entry: Sendable {
        var key: DSLValue
        var value: DSLValue
    }
    private let storage = Mutex<[Entry]>([])

    var entries: [Entry] { storage.withLock { $0 } }
    func update<T>(_ body: (inout [Entry]) throws(DSLFlow) -> T) throws(DSLFlow) -> T {
        try storage.withLock { (entries: inout [Entry]) throws(DSLFlow) -> T in try body(&entries) }
    }
}

/// The variables of one run of a body or one call of a lambda, in slots: a rule run's frame holds openHAB's
/// implicit variables (``DSLImplicit``) and then its locals, a lambda call's its parameters (or `it`) and then its
/// locals, a file's its globals; a block whose variables a lambda in it may capture has one of its own
/// (``DSLStmt/framed(_:_:)``). ``DSLSuspension`` resolved every reference once to a slot, `depth` frames up the
/// chain (``DSLVariable``): a run compares no names and makes one frame, one allocation, per run or call.
///
/// What may touch a frame from elsewhere: a lambda keeps the frame it was made in (its parent) and may run after
/// the run has ended (a timer's), and a file's globals are shared by every run of the file. Such frames —
/// made `shared`: the globals, the frame of a body that makes a lambda, a block's own frame — guard their slots
/// with a lock. A frame no lambda can capture is touched only by the run or call that made it, on its task, and
/// is read and written without one.
///
/// (The Standard Library marks `ManagedBuffer` not `Sendable`, so the values that hold a frame — ``DSLClosure``,
/// ``DSLFileGlobals`` — are checked by hand for the rule above.)
final class DSLFrame: ManagedBuffer<DSLFrame.Header, DSLValue> {
    struct Header {
        let parent: DSLFrame?
        let count: Int
        /// `nil`: a frame only its own run touches.
        let lock: DSLFrameLock?
    }

    /// A frame of `size` slots (all null) whose parent is `parent`.
    static func make(size: Int, parent: DSLFrame?, shared: Bool) -> DSLFrame {
        let buffer = create(minimumCapacity: size) { _ in Header(parent: parent, count: size, lock: shared ? DSLFrameLock() : nil) }
        let frame = unsafeDowncast(buffer, to: DSLFrame.self)
        frame.withUnsafeMutablePointerToElements { $0.initialize(repeating: .null, count: size) }
        return frame
    }

    deinit {
        _ = withUnsafeMutablePointers { header, slots in slots.deinitialize(count: header.pointee.count) }
    }

    /// A body's globals when it has none (a script file's): the implicit variables' slots, all null (never written:
    /// a body declares its variables in its own frame).
    nonisolated(unsafe) static let noGlobals = DSLFrame.make(size: DSLImplicit.allCases.count, parent: nil, shared: true)

    @inline(__always)
    subscript(index: Int) -> DSLValue {
        get {
            assert(index < header.count)
            if let lock = header.lock { return lock.mutex.withLock { _ in withUnsafeMutablePointerToElements { $0[index] } } }
            return withUnsafeMutablePointerToElements { $0[index] }
        }
        set {
            assert(index < header.count)
            if let lock = header.lock {
                lock.mutex.withLock { _ in withUnsafeMutablePointerToElements { $0[index] = newValue } }
            } else {
                withUnsafeMutablePointerToElements { $0[index] = newValue }
            }
        }
    }

    /// The frame `depth` links up the chain.
    @inline(__always)
    func ancestor(_ depth: Int) -> DSLFrame {
        var frame = self
        for _ in 0..<depth { frame = frame.header.parent.unsafelyUnwrapped }
        return frame
    }

    /// The value of a resolved variable.
    @inline(__always)
    func value(of variable: DSLVariable) -> DSLValue { ancestor(variable.depth)[variable.index] }

    /// Sets a resolved variable.
    @inline(__always)
    func set(_ variable: DSLVariable, _ value: DSLValue) { ancestor(variable.depth)[variable.index] = value }
}

/// The lock of a shared ``DSLFrame``.
final class DSLFrameLock: Sendable {
    let mutex = Mutex(())
}

/// A timer made by `createTimer`: a kernel event that runs a lambda; `reschedule`, `cancel`, `isActive`,
/// `isRunning`, `hasTerminated` as openHAB's `Timer`.
final class DSLTimer: Sendable {
    struct Status {
        var pending: TimerID?
        var running = false
        var terminated = false
        var cancelled = false
    }

    let status = Mutex(Status())
    let fire: @Sendable () async -> Void
    let scheduler: any SimulationScheduler

    init(scheduler: any SimulationScheduler, fire: @escaping @Sendable () async -> Void) {
        self.scheduler = scheduler
        self.fire = fire
    }

    /// Schedules (or moves) the run to `at`; a time in the past runs at once (at the current instant).
    func schedule(at: SimInstant) {
        let when = max(at, scheduler.now)
        let old = status.withLock { status -> TimerID? in
            defer { status.pending = nil; status.terminated = false; status.cancelled = false }
            return status.pending
        }
        if let old { _ = scheduler.cancel(old) }
        let id = scheduler.schedule(at: when, label: "DSL timer") { [self] _ in
            status.withLock { $0.pending = nil; $0.running = true }
            await fire()
            status.withLock { $0.running = false; $0.terminated = true }
        }
        status.withLock { $0.pending = id }
    }

    /// Cancels a pending run. - Returns: whether one was pending.
    func cancel() -> Bool {
        let pending = status.withLock { status -> TimerID? in
            defer { status.pending = nil; status.cancelled = true; status.terminated = true }
            return status.pending
        }
        guard let pending else { return false }
        return scheduler.cancel(pending)
    }
}

extension Int64 {
    /// Java's `(long) d`: NaN is 0, out-of-range values saturate.
    init(saturating d: Double) {
        if d.isNaN { self = 0 } else if d >= 9.223372036854775807e18 { self = .max } else if d <= -9.223372036854775808e18 { self = .min } else { self = Int64(d) }
    }
}
