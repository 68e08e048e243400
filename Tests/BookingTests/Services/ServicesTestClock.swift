import Simulation
import Synchronization
@testable import Booking

/// A clock for the service tests that moves only when a test tells it to.
final class ServicesTestClock: Sendable {
    private let instant: Mutex<SimInstant>

    /// A clock standing at `start`.
    init(_ start: SimInstant) { instant = Mutex(start) }

    /// The current instant.
    var now: SimInstant { instant.withLock { $0 } }

    /// Moves the clock to `newInstant` (tests may move it backwards too).
    func set(_ newInstant: SimInstant) { instant.withLock { $0 = newInstant } }

    /// Moves the clock forward by `duration`.
    func advance(by duration: SimDuration) { instant.withLock { $0 = $0 + duration } }

    /// The clock as the services read it.
    var bookingClock: BookingClock { BookingClock { self.now } }

    /// The instant `hour:minute` UTC on `iso` day, computed without any time-zone code:
    /// days since the epoch × 24 h + the time of day.
    static func utc(_ iso: String, _ hour: Int, _ minute: Int = 0, millisecond: Int64 = 0) -> SimInstant {
        let day = ServicesTestWorld.date(iso).daysSinceEpoch
        return SimInstant(unixMilliseconds: day * 86_400_000 + Int64(hour * 3_600_000 + minute * 60_000) + millisecond)
    }
}
