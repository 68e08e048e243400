import Physics

/// Independent numerical answers to check the closed forms against: RK4, Simpson, scanning.
///
/// Nothing here uses the closed forms under test except as the integrand where stated.
enum NumericalReference {
    /// The right-hand side `dT/dt = (UA·(a + b·t − T) + Q) / C` of the 1R1C equation, in K/s.
    static func slope(
        _ parameters: ZoneParameters, t: Double, celsius: Double,
        outdoor a: Double, outdoorSlope b: Double, heatW: Double
    ) -> Double {
        (parameters.uaWPerK * (a + b * t - celsius) + heatW) / parameters.capacitanceJPerK
    }

    /// Classic fourth-order Runge–Kutta from `t = 0` with a fixed step; calls `visit` after every step.
    static func rk4(
        _ parameters: ZoneParameters, initial: Double, outdoor a: Double, outdoorSlope b: Double,
        heatW: Double, stepSeconds h: Double, steps: Int, visit: (_ t: Double, _ celsius: Double) -> Void
    ) {
        var y = initial
        for i in 0..<steps {
            let t = Double(i) * h
            let k1 = slope(parameters, t: t, celsius: y, outdoor: a, outdoorSlope: b, heatW: heatW)
            let k2 = slope(parameters, t: t + h / 2, celsius: y + h / 2 * k1, outdoor: a, outdoorSlope: b, heatW: heatW)
            let k3 = slope(parameters, t: t + h / 2, celsius: y + h / 2 * k2, outdoor: a, outdoorSlope: b, heatW: heatW)
            let k4 = slope(parameters, t: t + h, celsius: y + h * k3, outdoor: a, outdoorSlope: b, heatW: heatW)
            y += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
            visit(Double(i + 1) * h, y)
        }
    }

    /// Composite Simpson's rule for `∫ f` over `[lower, upper]` with `intervals` (even) sub-intervals.
    static func simpson(from lower: Double, to upper: Double, intervals: Int, _ f: (Double) -> Double) -> Double {
        precondition(intervals > 0 && intervals.isMultiple(of: 2))
        let h = (upper - lower) / Double(intervals)
        var sum = f(lower) + f(upper)
        for i in 1..<intervals {
            sum += (i.isMultiple(of: 2) ? 2 : 4) * f(lower + Double(i) * h)
        }
        return sum * h / 3
    }

    /// The first time `f` reaches zero in `[0, horizon]`, by scanning on a grid and bisecting.
    ///
    /// Returns `nil` when no grid point has reached zero. A dip across zero and back within
    /// one grid step would be missed, so callers keep thresholds away from extrema.
    static func firstZero(horizon: Double, gridSeconds: Double, _ f: (Double) -> Double) -> Double? {
        let f0 = f(0)
        if f0 == 0 { return 0 }
        var lower = 0.0
        while lower < horizon {
            let upper = min(lower + gridSeconds, horizon)
            let fUpper = f(upper)
            if fUpper == 0 { return upper }
            if (fUpper < 0) != (f0 < 0) {
                var lo = lower
                var hi = upper
                for _ in 0..<200 where hi - lo > 1e-7 {
                    let mid = (lo + hi) / 2
                    if (f(mid) < 0) == (f0 < 0) { lo = mid } else { hi = mid }
                }
                return (lo + hi) / 2
            }
            lower = upper
        }
        return nil
    }
}
