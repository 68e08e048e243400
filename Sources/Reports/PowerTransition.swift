import Simulation

/// A change of a device's electric power, as seen on the openHAB event bus (a `power` Item change).
///
/// Charts draw heater and cooler on-periods from these: a device is on from a transition with
/// ``powerW`` > 0 until the next transition with ``powerW`` = 0.
public struct PowerTransition: Sendable, Hashable {
    /// When the power Item changed.
    public var at: SimInstant
    /// The listing id.
    public var listing: String
    /// The device id within the listing.
    public var device: String
    /// The new electric power, W.
    public var powerW: Double

    /// Creates a transition record.
    public init(at: SimInstant, listing: String, device: String, powerW: Double) {
        self.at = at
        self.listing = listing
        self.device = device
        self.powerW = powerW
    }
}
