import Physics

/// What smart preheat knows about one listing's flat: its 1R1C thermal parameters, the heating
/// power it can put in and its thermostat's hysteresis.
public struct PreheatModel: Hashable, Sendable {
    /// The hysteresis assumed when the thermostat's own is unknown, K: the twin's default (PHYSICS.md).
    /// The openHAB API does not expose a thermostat's hysteresis (it is neither an Item nor a Thing
    /// property), so unless the model is told otherwise the planner uses this.
    public static let defaultHysteresisK = 0.5

    /// The zone's `UA` (W/K) and `C` (kWh/K).
    public var parameters: ZoneParameters
    /// The heater's full power, W (the heat it adds while its element is on).
    public var heatingPowerW: Double
    /// The heating thermostat's hysteresis band `h`, K: with its switch ON at setpoint `S` the element
    /// turns on at `S − h/2`, so the room does not fall below that (``floorC(setpointC:)``).
    public var hysteresisK: Double

    /// Creates a model.
    /// - Parameter hysteresisK: The thermostat's hysteresis, K (default ``defaultHysteresisK``).
    public init(parameters: ZoneParameters, heatingPowerW: Double, hysteresisK: Double = PreheatModel.defaultHysteresisK) {
        self.parameters = parameters
        self.heatingPowerW = heatingPowerW
        self.hysteresisK = hysteresisK
    }

    /// The lowest room temperature the heating thermostat allows while switched ON at `setpointC`:
    /// `setpointC − hysteresisK / 2`, °C.
    public func floorC(setpointC: Double) -> Double { setpointC - hysteresisK / 2 }
}
