import Simulation

/// How far a guest's access to a listing's devices reaches beyond the stay: the scenario's
/// `lockAccess` buffers.
///
/// A guest of a non-cancelled reservation may operate the listing's lock (and its other devices)
/// from the check-in moment minus ``earlyCheckIn`` up to, but not including, the check-out moment
/// plus ``lateCheckOut``. Both buffers default to zero; negative values are treated as zero.
public struct LockAccessWindow: Hashable, Sendable {
    /// How long before the check-in moment access starts.
    public var earlyCheckIn: SimDuration
    /// How long after the check-out moment access ends.
    public var lateCheckOut: SimDuration

    /// Creates the buffers (negative durations count as zero).
    public init(earlyCheckIn: SimDuration = .zero, lateCheckOut: SimDuration = .zero) {
        self.earlyCheckIn = max(earlyCheckIn, .zero)
        self.lateCheckOut = max(lateCheckOut, .zero)
    }

    /// The half-open interval `[check-in − earlyCheckIn, check-out + lateCheckOut)` of `reservation`
    /// at `listing`, with check-in and check-out moments resolved in `calendar` (DST-correct).
    public func interval(of reservation: Reservation, at listing: Listing, calendar: LocalCalendar) -> Range<SimInstant> {
        let start = listing.checkInInstant(on: reservation.checkIn, calendar: calendar) - earlyCheckIn
        let end = listing.checkOutInstant(on: reservation.checkOut, calendar: calendar) + lateCheckOut
        return start..<max(start, end)
    }
}
