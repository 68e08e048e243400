/// The fixed properties of a heating or cooling thermostat (PHYSICS.md, "Devices").
public struct ThermostatConfiguration: Sendable, Hashable {
    /// Heating puts heat in; cooling takes it out.
    public enum Mode: String, Sendable, Hashable {
        case heating
        case cooling
    }

    /// Heating or cooling.
    public let mode: Mode
    /// Electric power while the element or compressor runs, W.
    public let powerW: Double
    /// Coefficient of performance: heat moved per unit of electricity (cooling only; 1 for heating).
    public let cop: Double
    /// The setpoint at start, °C (clamped to ``setpointRange``).
    public let initialSetpointC: Double
    /// The hysteresis band width `h`, K: switching happens at `S ± h/2`.
    public let hysteresisK: Double

    /// Validates and creates a configuration.
    /// - Throws: ``DevicesError`` `device.invalidParameter` for power ≤ 0, COP ≤ 0, hysteresis ≤ 0
    ///   or a non-finite number, naming the field and value.
    public init(mode: Mode, powerW: Double, cop: Double = 3.0, setpointC: Double, hysteresisK: Double = 0.5) throws(DevicesError) {
        try DevicesError.require(powerW, "powerW", unit: "W", "a positive number of watts") { $0 > 0 }
        try DevicesError.require(cop, "cop", unit: "", "positive (a room air conditioner has about 3)") { $0 > 0 }
        try DevicesError.require(hysteresisK, "hysteresisK", unit: "K", "positive (0.5 is typical)") { $0 > 0 }
        try DevicesError.require(setpointC, "setpointC", unit: "°C", "a temperature") { _ in true }
        self.mode = mode
        self.powerW = powerW
        self.cop = mode == .heating ? 1 : cop
        self.hysteresisK = hysteresisK
        let range = Self.setpointRange(mode)
        self.initialSetpointC = min(range.upperBound, max(range.lowerBound, setpointC))
    }

    /// Setpoints the device accepts: 5–30 °C heating, 16–30 °C cooling.
    public var setpointRange: ClosedRange<Double> { Self.setpointRange(mode) }

    /// Setpoints a device of `mode` accepts, °C (a scenario's `setpointC` must lie in it).
    public static func setpointRange(_ mode: Mode) -> ClosedRange<Double> { mode == .heating ? 5...30 : 16...30 }
}
