import Simulation

/// What electricity costs: one price, a day/night pair, or a price series (e.g. 15-minute spot
/// prices), per kWh in the scenario's currency.
public enum Tariff: Sendable, Equatable {
    /// The same price at all times.
    case flat(perKWh: Double)
    /// `night` from `nightFrom` to `nightTo` local time (wrapping past midnight), `day` otherwise.
    case dayNight(day: Double, night: Double, nightFrom: LocalTime, nightTo: LocalTime)
    /// Each price holds from its instant until the next one; before the first, the first.
    case series([(at: SimInstant, perKWh: Double)])

    /// The price in force at `instant`.
    public func price(at instant: SimInstant, calendar: LocalCalendar) -> Double {
        switch self {
        case .flat(let price):
            return price
        case .dayNight(let day, let night, let from, let to):
            let t = calendar.localDateTime(at: instant).time
            let isNight = from <= to ? (t >= from && t < to) : (t >= from || t < to)
            return isNight ? night : day
        case .series(let points):
            var low = 0, high = points.count
            while low < high {
                let mid = (low + high) / 2
                if points[mid].at <= instant { low = mid + 1 } else { high = mid }
            }
            return points[max(0, low - 1)].perKWh
        }
    }

    public static func == (a: Tariff, b: Tariff) -> Bool {
        switch (a, b) {
        case (.flat(let x), .flat(let y)): return x == y
        case (.dayNight(let a1, let a2, let a3, let a4), .dayNight(let b1, let b2, let b3, let b4)):
            return a1 == b1 && a2 == b2 && a3 == b3 && a4 == b4
        case (.series(let x), .series(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.at == $1.at && $0.perKWh == $1.perKWh }
        default: return false
        }
    }
}
