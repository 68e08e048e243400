import Physics

/// What smart preheat knows about one listing's flat: its 1R1C thermal parameters and the heating
/// power it can put in.
public struct PreheatModel: Hashable, Sendable {
    /// The zone's `UA` (W/K) and `C` (kWh/K).
    public var parameters: ZoneParameters
    /// The heater's full power, W (the heat it adds while its element is on).
    public var heatingPowerW: Double

    /// Creates a model.
    public init(parameters: ZoneParameters, heatingPowerW: Double) {
        self.parameters = parameters
        self.heatingPowerW = heatingPowerW
    }
}
