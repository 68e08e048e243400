/// One device's meters in a ``MeterSnapshot``: its state now and its exact cumulative figures.
///
/// Cumulative figures count from the start of the simulation, so the difference between two
/// snapshots is the exact figure for the interval between them.
public struct DeviceMeter: Sendable, Hashable {
    /// The device id within its listing, e.g. `heating`.
    public var id: String
    /// The device type as in the scenario file: `heating`, `cooling`, `smartPlug` or `lock`.
    public var type: String
    /// Whether the thermostat is enabled / the plug relay is closed (always `false` for locks).
    public var isOn: Bool
    /// Electric power drawn at the snapshot's instant, W.
    public var powerW: Double
    /// Electric energy drawn since the start of the simulation, kWh (exact; 0 for locks).
    public var energyKWh: Double
    /// Time spent drawing more than standby power since the start of the simulation, s.
    public var activeSeconds: Double

    /// Creates a device meter reading.
    public init(id: String, type: String, isOn: Bool, powerW: Double, energyKWh: Double, activeSeconds: Double) {
        self.id = id
        self.type = type
        self.isOn = isOn
        self.powerW = powerW
        self.energyKWh = energyKWh
        self.activeSeconds = activeSeconds
    }
}
