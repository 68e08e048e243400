import Foundation
import Synchronization

/// The UTC offsets a ``LocalCalendar`` has looked up, as stretches of time with one offset each, so a run
/// asks the tz database once per stretch instead of once per conversion.
///
/// A stretch starts at the instant that was looked up and ends at the zone's next transition after it
/// (`TimeZone.nextDaylightSavingTimeTransition(after:)`, which reports every change of offset, daylight
/// saving or not): the offset cannot change inside it. A few stretches are kept (a conversion probes a
/// day either side), the oldest replaced first.
final class OffsetCache: Sendable {
    private struct Stretch {
        var start: Int64
        var end: Int64
        var offset: Int64
    }

    private struct Slots {
        var stretches: [Stretch] = []
        var next = 0
    }

    private static let capacity = 4
    private let zone: TimeZone
    private let slots = Mutex(Slots())

    init(zone: TimeZone) { self.zone = zone }

    /// The offset at `milliseconds` since 1970, in milliseconds.
    func offset(atUnixMilliseconds milliseconds: Int64) -> Int64 {
        if let hit = slots.withLock({ $0.stretches.first { $0.start <= milliseconds && milliseconds < $0.end }?.offset }) {
            return hit
        }
        let seconds = milliseconds.floorDivided(by: 1_000).quotient
        let date = Date(timeIntervalSince1970: Double(seconds))
        let offset = Int64(zone.secondsFromGMT(for: date)) * 1_000
        // The stretch is whole seconds from the looked-up second (offsets change on whole seconds).
        var end = Int64.max
        if let transition = zone.nextDaylightSavingTimeTransition(after: date) {
            end = Int64((transition.timeIntervalSince1970 * 1_000).rounded(.down))
        }
        let stretch = Stretch(start: seconds * 1_000, end: end, offset: offset)
        slots.withLock { slots in
            if slots.stretches.count < Self.capacity {
                slots.stretches.append(stretch)
            } else {
                slots.stretches[slots.next] = stretch
                slots.next = (slots.next + 1) % Self.capacity
            }
        }
        return offset
    }
}
