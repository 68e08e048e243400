import Foundation
import Simulation
import SmartHome
import Synchronization

/// A value while a DSL body runs.
enum DSLValue: Sendable {
    case null
    case bool(Bool)
    /// A plain number (Xtend's `BigDecimal`, `int`, `double`).
    case number(Double)
    case quantity(Quantity)
    case string(String)
    /// An openHAB state: `ON`, `NULL`, an Item's state as it is.
    case state(State)
    /// An Item, by name.
    case item(String)
    /// A `ZonedDateTime` (`now`, a DateTime state's `zonedDateTime`).
    case instant(SimInstant)
    /// A `DayOfWeek` (ISO 1 = Monday).
    case dayOfWeek(Int)
    case timer(DSLTimer)
    /// `[| … ]` with the scope it was written in.
    case lambda([DSLStmt], DSLScope)

    /// Xtend's `toString`, as `+` with a string and `logInfo` print it: states as openHAB prints them.
    var text: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return Self.numberText(n)
        case .quantity(let q): return q.description
        case .string(let s): return s
        case .state(let s): return s.description
        case .item(let name): return name
        case .instant(let instant): return "instant \(instant)"
        case .dayOfWeek(let d): return ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"][(d - 1 + 7) % 7]
        case .timer: return "Timer"
        case .lambda: return "Procedure"
        }
    }

    /// A number as `BigDecimal.toString` of the twin's results: no `.0` on whole numbers, up to 10 decimals.
    static func numberText(_ n: Double) -> String {
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        var text = String(format: "%.10f", n)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// The value as a number or a quantity, when it is one (number states count, with their unit).
    var numeric: (value: Double, unit: QuantityUnit?)? {
        switch self {
        case .number(let n): return (n, nil)
        case .quantity(let q): return (q.value, q.unit)
        case .state(.decimal(let n)), .state(.percent(let n)): return (n.value, nil)
        case .state(.quantity(let q)): return (q.value, q.unit)
        default: return nil
        }
    }

    /// The kind, for messages.
    var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a Boolean"
        case .number: return "a number"
        case .quantity: return "a quantity"
        case .string: return "a String"
        case .state(let s): return "the state \(s.description)"
        case .item(let n): return "the Item \(n)"
        case .instant: return "a ZonedDateTime"
        case .dayOfWeek: return "a DayOfWeek"
        case .timer: return "a Timer"
        case .lambda: return "a lambda"
        }
    }
}

/// Variables: a run's locals (with the scope of the block it is in) or a file's globals.
final class DSLScope: Sendable {
    private let values = Mutex<[String: DSLValue]>([:])
    let parent: DSLScope?

    init(parent: DSLScope?) { self.parent = parent }

    func lookup(_ name: String) -> DSLValue? {
        if let value = values.withLock({ $0[name] }) { return value }
        return parent?.lookup(name)
    }

    func declare(_ name: String, _ value: DSLValue) { values.withLock { $0[name] = value } }

    /// Sets an existing variable where it was declared; `false` if there is none.
    func assign(_ name: String, _ value: DSLValue) -> Bool {
        let found = values.withLock { values -> Bool in
            guard values[name] != nil else { return false }
            values[name] = value
            return true
        }
        return found || (parent?.assign(name, value) ?? false)
    }
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
        if let old { scheduler.cancel(old) }
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
