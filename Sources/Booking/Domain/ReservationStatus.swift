/// Where a reservation is in its life: `confirmed → checkedIn → checkedOut`, or `confirmed → cancelled`.
public enum ReservationStatus: String, Sendable, Hashable, CaseIterable, Codable {
    case confirmed
    case checkedIn
    case checkedOut
    case cancelled

    /// Whether the lifecycle allows going from `self` to `next`; anything else is `reservation.state`.
    public func canMove(to next: ReservationStatus) -> Bool {
        switch (self, next) {
        case (.confirmed, .checkedIn), (.checkedIn, .checkedOut), (.confirmed, .cancelled): true
        default: false
        }
    }

    /// Whether the reservation still holds its nights (everything but `cancelled`).
    public var holdsNights: Bool { self != .cancelled }
}
