import Foundation

/// Closed forms for constant outdoor temperature and constant heat input.
///
/// With `T_out` and `Q` fixed, `T(t) = T∞ + (T0 − T∞)·e^(−t/τ)` with `T∞ = T_out + Q/UA`.
/// The functions below evaluate it in a cancellation-free form (`expm1`, `log1p`), so they
/// stay exact to a few ulps both for `t → 0` and for very large `τ`.
extension ZoneParameters {
    /// The temperature the zone settles at: `T∞ = T_out + Q/UA` in °C.
    ///
    /// - Parameters:
    ///   - outdoorCelsius: The constant outdoor temperature `T_out` in °C.
    ///   - heatInputW: The constant net heat input `Q` in W (negative when cooling).
    /// - Returns: The steady-state indoor temperature in °C.
    public func steadyState(outdoorCelsius: Double, heatInputW: Double) -> Double {
        outdoorCelsius + heatInputW / uaWPerK
    }

    /// The zone temperature `seconds` after starting at `initialCelsius` under constant conditions.
    ///
    /// Evaluated as `T0 + (T∞ − T0)·(1 − e^(−t/τ))` with `expm1`, which is exact at `t = 0`
    /// and does not cancel when `τ` is huge.
    ///
    /// - Parameters:
    ///   - seconds: Elapsed time in seconds (finite; `0` gives `initialCelsius` exactly).
    ///   - initialCelsius: The temperature `T0` at time 0 in °C.
    ///   - outdoorCelsius: The constant outdoor temperature in °C.
    ///   - heatInputW: The constant net heat input in W.
    /// - Returns: The temperature in °C.
    public func temperature(
        after seconds: Double, from initialCelsius: Double, outdoorCelsius: Double, heatInputW: Double
    ) -> Double {
        let target = steadyState(outdoorCelsius: outdoorCelsius, heatInputW: heatInputW)
        let x = seconds / timeConstantSeconds
        return initialCelsius + (target - initialCelsius) * RelaxationKernels.relaxed(x)
    }

    /// The time, in seconds, for the zone to first reach `threshold` under constant conditions.
    ///
    /// `t* = τ · ln((T0 − T∞)/(T* − T∞))`, evaluated as `τ · log1p((T0 − T*)/(T* − T∞))`.
    ///
    /// - Parameters:
    ///   - threshold: The temperature `T*` in °C.
    ///   - initialCelsius: The temperature `T0` at time 0 in °C.
    ///   - outdoorCelsius: The constant outdoor temperature in °C.
    ///   - heatInputW: The constant net heat input in W.
    /// - Returns: `0` when `T0 == T*`; the crossing time in seconds when `T*` lies strictly
    ///   between `T0` and `T∞`; `nil` when it does not (the zone moves away from it or
    ///   only approaches it asymptotically, `T* == T∞`), or when any input is not finite.
    public func timeToReach(
        threshold: Double, from initialCelsius: Double, outdoorCelsius: Double, heatInputW: Double
    ) -> Double? {
        let target = steadyState(outdoorCelsius: outdoorCelsius, heatInputW: heatInputW)
        return Self.relaxationTime(
            to: threshold, from: initialCelsius, target: target, timeConstantSeconds: timeConstantSeconds)
    }

    /// The exact integral `∫₀ᵗ T(s) ds` in °C·s under constant conditions.
    ///
    /// Divide by `seconds` for the mean temperature. Evaluated as
    /// `T0·t + (T∞ − T0)·(t − τ·(1 − e^(−t/τ)))` with a series near `t = 0`.
    ///
    /// - Parameters:
    ///   - seconds: The length of the interval in seconds (finite).
    ///   - initialCelsius: The temperature `T0` at time 0 in °C.
    ///   - outdoorCelsius: The constant outdoor temperature in °C.
    ///   - heatInputW: The constant net heat input in W.
    /// - Returns: The integral in °C·s (K·s).
    public func temperatureIntegral(
        over seconds: Double, from initialCelsius: Double, outdoorCelsius: Double, heatInputW: Double
    ) -> Double {
        let target = steadyState(outdoorCelsius: outdoorCelsius, heatInputW: heatInputW)
        let x = seconds / timeConstantSeconds
        return initialCelsius * seconds + (target - initialCelsius) * seconds * RelaxationKernels.lagRatio(x)
    }

    /// The relaxation time from `initial` to `threshold` when heading for `target`.
    ///
    /// - Parameters:
    ///   - threshold: The temperature to reach in °C.
    ///   - initial: The start temperature in °C.
    ///   - target: The steady state in °C.
    ///   - timeConstantSeconds: `τ` in seconds.
    /// - Returns: The time in seconds, `0` when already there, `nil` when never reached.
    static func relaxationTime(
        to threshold: Double, from initial: Double, target: Double, timeConstantSeconds: Double
    ) -> Double? {
        guard threshold.isFinite, initial.isFinite, target.isFinite else { return nil }
        if threshold == initial { return 0 }
        let startGap = initial - target
        let endGap = threshold - target
        // T* must lie strictly between T∞ and T0: same side of T∞, closer to it than T0.
        guard endGap != 0, (startGap > 0) == (endGap > 0), abs(endGap) < abs(startGap) else { return nil }
        let seconds = timeConstantSeconds * log1p((initial - threshold) / endGap)
        guard seconds.isFinite, seconds >= 0 else { return nil }
        return seconds
    }
}
