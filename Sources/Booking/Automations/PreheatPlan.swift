import Simulation

/// What ``Preheat`` decided for one reservation: when heating goes on and why.
public struct PreheatPlan: Hashable, Sendable {
    /// How the start was chosen.
    public enum Basis: String, Hashable, Sendable {
        /// A fixed lead before check-in.
        case fixed
        /// The thermal model and the forecast.
        case smart
        /// Smart mode could not plan (no model, no room temperature, no weather): the fallback lead.
        case fallback
    }

    /// The reservation.
    public var reservation: ReservationID
    /// Its listing.
    public var listing: ListingID
    /// The check-in moment.
    public var checkIn: SimInstant
    /// When heating is (or was) switched on.
    public var start: SimInstant
    /// How ``start`` was chosen.
    public var basis: Basis
    /// Smart mode: the predicted room temperature at check-in, °C.
    public var predictedC: Double?
    /// The reasoning, as logged.
    public var reason: String

    /// Creates a plan.
    public init(reservation: ReservationID, listing: ListingID, checkIn: SimInstant, start: SimInstant, basis: Basis,
                predictedC: Double?, reason: String) {
        self.reservation = reservation
        self.listing = listing
        self.checkIn = checkIn
        self.start = start
        self.basis = basis
        self.predictedC = predictedC
        self.reason = reason
    }
}
