/// The control logic of one thermostat as a pure state machine (no time, no I/O).
///
/// Rules of PHYSICS.md: with the switch ON a heating element turns on at `T ≤ S − h/2` and
/// off at `T ≥ S + h/2` (cooling mirrored); when the switch turns ON or the setpoint
/// changes, the element is on iff `T < S` (cooling: `T > S`); switch OFF → element off.
public struct ThermostatModel: Sendable, Hashable {
    /// Thresholds count as reached within this many kelvin (absorbs floating-point noise at crossings).
    static let toleranceK = 1e-7

    /// The fixed properties.
    public let configuration: ThermostatConfiguration
    /// The thermostat switch (enabled).
    public private(set) var isEnabled = false
    /// The setpoint `S`, °C.
    public private(set) var setpointC: Double
    /// Whether the element / compressor runs.
    public private(set) var isRunning = false

    /// A thermostat, switched off, at its initial setpoint.
    public init(configuration: ThermostatConfiguration) {
        self.configuration = configuration
        self.setpointC = configuration.initialSetpointC
    }

    /// Electric power drawn now, W.
    public var powerW: Double { isRunning ? configuration.powerW : 0 }

    /// Heat put into the room now, W (negative while cooling).
    public var heatW: Double {
        guard isRunning else { return 0 }
        return configuration.mode == .heating ? configuration.powerW : -configuration.powerW * configuration.cop
    }

    /// Turns the thermostat on or off at room temperature `roomC`.
    public mutating func setEnabled(_ on: Bool, roomC: Double) {
        isEnabled = on
        isRunning = on && demands(roomC)
    }

    /// Sets the setpoint, clamped to the device's range. - Returns: the value taken.
    public mutating func setSetpoint(_ celsius: Double, roomC: Double) -> Double {
        let range = configuration.setpointRange
        setpointC = min(range.upperBound, max(range.lowerBound, celsius))
        if isEnabled { isRunning = demands(roomC) }
        return setpointC
    }

    /// Applies the hysteresis rule at `roomC`. - Returns: whether the element switched.
    public mutating func regulate(roomC: Double) -> Bool {
        guard isEnabled else { return false }
        let half = configuration.hysteresisK / 2
        let tolerance = Self.toleranceK
        let next: Bool
        switch configuration.mode {
        case .heating:
            next = isRunning ? !(roomC >= setpointC + half - tolerance) : roomC <= setpointC - half + tolerance
        case .cooling:
            next = isRunning ? !(roomC <= setpointC - half + tolerance) : roomC >= setpointC + half - tolerance
        }
        defer { isRunning = next }
        return next != isRunning
    }

    /// The room temperature at which the element will next switch, if the thermostat is enabled.
    public var nextThresholdC: Double? {
        guard isEnabled else { return nil }
        let half = configuration.hysteresisK / 2
        switch configuration.mode {
        case .heating: return isRunning ? setpointC + half : setpointC - half
        case .cooling: return isRunning ? setpointC - half : setpointC + half
        }
    }

    private func demands(_ roomC: Double) -> Bool {
        configuration.mode == .heating ? roomC < setpointC : roomC > setpointC
    }
}
