import Foundation

/// One stretch of time over which the zone's heat input is constant and the outdoor
/// temperature is constant or changes linearly, with its exact solution.
///
/// Time `t` is measured in seconds from the start of the segment. Outdoor temperature is
/// `T_out(t) = a + b·t` (`a` = `outdoorCelsius`, `b` = `outdoorSlopeKPerSecond`), heat
/// input `Q` is constant, and the room starts at `T0`. The exact solution of
/// `C · dT/dt = UA · (T_out − T) + Q` is
///
///     T(t) = a + b·t + Q/UA − b·τ + (T0 − a − Q/UA + b·τ) · e^(−t/τ)
///
/// which this type evaluates in the equivalent, cancellation-free form
/// `T0 + (T∞₀ − T0)·(1 − e^(−x)) + b·t·(x − 1 + e^(−x))/x` with `x = t/τ` and
/// `T∞₀ = a + Q/UA`. With `b == 0` the last term vanishes exactly and every answer is the
/// constant-conditions closed form, so callers need not care whether the slope is zero.
///
/// A simulation chains segments: when the heater switches or the next outdoor knot is
/// reached, ``continued(after:heatInputW:outdoorSlopeKPerSecond:)`` starts a new segment
/// from where this one is.
public struct ZoneSegment: Hashable, Sendable {
    /// The zone's `UA` and `C`.
    public let parameters: ZoneParameters
    /// The room temperature `T0` at `t = 0`, in °C.
    public let initialCelsius: Double
    /// The outdoor temperature `a` at `t = 0`, in °C.
    public let outdoorCelsius: Double
    /// The outdoor temperature's rate of change `b`, in K per second (0 for constant).
    public let outdoorSlopeKPerSecond: Double
    /// The constant net heat input `Q` into the room, in W (negative when cooling wins).
    public let heatInputW: Double

    /// Creates a segment after checking that every input is a finite number.
    ///
    /// - Parameters:
    ///   - parameters: The zone's `UA` and `C`.
    ///   - initialCelsius: The room temperature at `t = 0` in °C.
    ///   - outdoorCelsius: The outdoor temperature at `t = 0` in °C.
    ///   - outdoorSlopeKPerSecond: How fast the outdoor temperature changes, in K/s
    ///     (divide K/h by 3600); 0 for constant outdoor conditions.
    ///   - heatInputW: The net heat input in W.
    /// - Throws: `PhysicsError` `physics.invalidParameter` naming the first non-finite input,
    ///   or `physics.outOfRange` when the initial steady state `a + Q/UA` overflows.
    public init(
        parameters: ZoneParameters,
        initialCelsius: Double,
        outdoorCelsius: Double,
        outdoorSlopeKPerSecond: Double = 0,
        heatInputW: Double
    ) throws(PhysicsError) {
        try PhysicsError.requireFinite(initialCelsius, "initialCelsius", unit: "°C")
        try PhysicsError.requireFinite(outdoorCelsius, "outdoorCelsius", unit: "°C")
        try PhysicsError.requireFinite(outdoorSlopeKPerSecond, "outdoorSlopeKPerSecond", unit: "K/s")
        try PhysicsError.requireFinite(heatInputW, "heatInputW", unit: "W")
        let target = parameters.steadyState(outdoorCelsius: outdoorCelsius, heatInputW: heatInputW)
        guard target.isFinite else {
            throw PhysicsError(
                .outOfRange,
                "heatInputW \(heatInputW) W with uaWPerK \(parameters.uaWPerK) W/K gives a steady state "
                    + "of \(target) °C, which is not a finite number; use a heat input closer to the "
                    + "zone's losses.")
        }
        self.parameters = parameters
        self.initialCelsius = initialCelsius
        self.outdoorCelsius = outdoorCelsius
        self.outdoorSlopeKPerSecond = outdoorSlopeKPerSecond
        self.heatInputW = heatInputW
    }

    /// The steady state at `t = 0`, `T∞₀ = a + Q/UA`, in °C.
    ///
    /// With a ramp the room tracks the moving asymptote `T∞₀ + b·(t − τ)`; with constant
    /// outdoor conditions this is where the room settles.
    public var initialSteadyStateCelsius: Double {
        parameters.steadyState(outdoorCelsius: outdoorCelsius, heatInputW: heatInputW)
    }

    /// The outdoor temperature `a + b·t` at `seconds` into the segment, in °C.
    ///
    /// - Parameter seconds: Time since the start of the segment.
    /// - Returns: The outdoor temperature in °C.
    public func outdoorTemperature(at seconds: Double) -> Double {
        outdoorSlopeKPerSecond == 0 ? outdoorCelsius : outdoorCelsius + outdoorSlopeKPerSecond * seconds
    }

    /// The room temperature `seconds` into the segment, in °C, from the exact solution.
    ///
    /// - Parameter seconds: Time since the start of the segment (finite; `0` gives
    ///   `initialCelsius` exactly). Negative times extrapolate the same solution backwards.
    /// - Returns: The temperature in °C.
    /// - Complexity: O(1).
    public func temperature(at seconds: Double) -> Double {
        let x = seconds / parameters.timeConstantSeconds
        let approach = (initialSteadyStateCelsius - initialCelsius) * RelaxationKernels.relaxed(x)
        guard outdoorSlopeKPerSecond != 0 else { return initialCelsius + approach }
        return initialCelsius + approach + outdoorSlopeKPerSecond * seconds * RelaxationKernels.lagRatio(x)
    }

    /// The rate of change `dT/dt` of the room temperature at `seconds`, in K/s.
    ///
    /// Equals `(UA·(T_out − T) + Q) / C`, evaluated as
    /// `(T∞₀ − T0)·e^(−t/τ)/τ + b·(1 − e^(−t/τ))`.
    ///
    /// - Parameter seconds: Time since the start of the segment.
    /// - Returns: The rate in K/s.
    public func rate(at seconds: Double) -> Double {
        let tau = parameters.timeConstantSeconds
        let x = seconds / tau
        let decay = (initialSteadyStateCelsius - initialCelsius) * exp(-x) / tau
        return decay + outdoorSlopeKPerSecond * RelaxationKernels.relaxed(x)
    }

    /// The exact integral `∫₀ᵗ T(s) ds` of the room temperature, in °C·s (K·s).
    ///
    /// - Parameter seconds: The end of the interval, seconds since the start of the segment.
    /// - Returns: The integral in °C·s; divide by `seconds` for the mean temperature.
    /// - Complexity: O(1).
    public func integral(to seconds: Double) -> Double {
        let x = seconds / parameters.timeConstantSeconds
        let base =
            initialCelsius * seconds
            + (initialSteadyStateCelsius - initialCelsius) * seconds * RelaxationKernels.lagRatio(x)
        guard outdoorSlopeKPerSecond != 0 else { return base }
        return base + outdoorSlopeKPerSecond * seconds * seconds * RelaxationKernels.lagRatio2(x)
    }

    /// ``temperature(at:)`` and ``integral(to:)`` at the same time, sharing the kernel both use:
    /// bit for bit the same two values, for callers that advance a zone and need both.
    ///
    /// - Parameter seconds: Time since the start of the segment.
    /// - Returns: The room temperature in °C and `∫₀ᵗ T(s) ds` in °C·s.
    /// - Complexity: O(1).
    public func temperatureAndIntegral(at seconds: Double) -> (celsius: Double, integralKelvinSeconds: Double) {
        // The expressions of temperature(at:) and integral(to:), with lagRatio(x) evaluated once.
        let x = seconds / parameters.timeConstantSeconds
        let lag = RelaxationKernels.lagRatio(x)
        let approach = (initialSteadyStateCelsius - initialCelsius) * RelaxationKernels.relaxed(x)
        let base =
            initialCelsius * seconds
            + (initialSteadyStateCelsius - initialCelsius) * seconds * lag
        guard outdoorSlopeKPerSecond != 0 else { return (initialCelsius + approach, base) }
        return (initialCelsius + approach + outdoorSlopeKPerSecond * seconds * lag,
                base + outdoorSlopeKPerSecond * seconds * seconds * RelaxationKernels.lagRatio2(x))
    }

    /// The exact integral `∫ T(s) ds` between two times of the segment, in °C·s (K·s).
    ///
    /// - Parameters:
    ///   - start: The start of the interval in seconds.
    ///   - end: The end of the interval in seconds.
    /// - Returns: The integral in °C·s (negative when `end < start`).
    public func integral(from start: Double, to end: Double) -> Double {
        integral(to: end) - integral(to: start)
    }

    /// The mean room temperature over `[0, seconds]`, in °C.
    ///
    /// - Parameter seconds: The length of the interval in seconds.
    /// - Returns: The mean in °C, or `initialCelsius` when `seconds` is not a positive
    ///   finite number.
    public func meanTemperature(over seconds: Double) -> Double {
        guard seconds.isFinite, seconds > 0 else { return initialCelsius }
        return integral(to: seconds) / seconds
    }

    /// A new segment that starts `seconds` into this one, where this one has got to.
    ///
    /// The new segment's `T0` is `temperature(at: seconds)` and its outdoor temperature
    /// starts at `outdoorTemperature(at: seconds)`.
    ///
    /// - Parameters:
    ///   - seconds: Where in this segment the new one starts.
    ///   - heatInputW: The new heat input in W; `nil` keeps this segment's.
    ///   - outdoorSlopeKPerSecond: The new outdoor slope in K/s; `nil` keeps this segment's.
    /// - Returns: The continuing segment.
    /// - Throws: `PhysicsError` when a new value is not finite, or `physics.outOfRange`
    ///   when the state at `seconds` is not finite (e.g. `seconds` is NaN).
    public func continued(
        after seconds: Double, heatInputW: Double? = nil, outdoorSlopeKPerSecond: Double? = nil
    ) throws(PhysicsError) -> ZoneSegment {
        let temperature = temperature(at: seconds)
        let outdoor = outdoorTemperature(at: seconds)
        guard temperature.isFinite, outdoor.isFinite else {
            throw PhysicsError(
                .outOfRange,
                "continuing the segment after \(seconds) s gives a room temperature of \(temperature) °C "
                    + "and an outdoor temperature of \(outdoor) °C; pass a finite time inside the segment.")
        }
        return try ZoneSegment(
            parameters: parameters,
            initialCelsius: temperature,
            outdoorCelsius: outdoor,
            outdoorSlopeKPerSecond: outdoorSlopeKPerSecond ?? self.outdoorSlopeKPerSecond,
            heatInputW: heatInputW ?? self.heatInputW)
    }
}
