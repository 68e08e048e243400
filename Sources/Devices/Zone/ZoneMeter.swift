import Simulation

/// A snapshot of every meter of a thermal zone at one instant: exact cumulative integrals since the
/// start of the simulation, so that the difference of two snapshots is the exact figure for the interval
/// between them (energy per day, mean indoor temperature per stay, discomfort).
public struct ZoneMeter: Sendable, Hashable {
    /// What kind of device a meter belongs to.
    public enum DeviceKind: String, Sendable, Hashable {
        case heating, cooling, smartPlug
    }

    /// One device's meters.
    public struct Device: Sendable, Hashable {
        /// The device id within the zone.
        public let id: String
        /// Heating, cooling or plug.
        public let kind: DeviceKind
        /// Thermostat enabled / plug relay closed.
        public let isOn: Bool
        /// Electric power drawn now, W.
        public let powerW: Double
        /// Electric energy since the start, kWh (exact).
        public let energyKWh: Double
        /// Time spent drawing more than standby since the start, s.
        public let activeSeconds: Double
    }

    /// When the snapshot was taken.
    public let at: SimInstant
    /// Exact room temperature, °C.
    public let indoorC: Double
    /// Outdoor temperature the zone sees, °C.
    public let outdoorC: Double
    /// Guests present.
    public let guests: Int
    /// ∫ T dt since the start, K·s.
    public let temperatureIntegralKs: Double
    /// ∫ max(0, comfort − T) dt while guests are present, since the start, K·s.
    public let discomfortKs: Double
    /// Time with guests present since the start, s.
    public let occupiedSeconds: Double
    /// Every device's meters, sorted by id.
    public let devices: [Device]
    /// With ``ThermalZone/logPowerChanges()``: each change of a device's electric power since the
    /// zone's previous meter reading, in time order (empty otherwise).
    public var powerChanges: [PowerChange] = []

    /// A device's electric power changed: it switched, or its thermostat cycled.
    public struct PowerChange: Sendable, Hashable {
        /// When.
        public let at: SimInstant
        /// The device id within the zone.
        public let device: String
        /// Electric power from then on, W.
        public let powerW: Double
    }
}
