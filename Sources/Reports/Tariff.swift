import Simulation

/// What electricity costs: one price, a day/night pair, or a price series (e.g. 15-minute spot
/// prices), per kWh in the scenario's currency.
public enum Tariff: Sendable {
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
}
