/// Degree-hours: how far, and for how long, the room was below (or above) a comfort line.
///
/// `∫₀ᵗ max(0, T_comfort − T(s)) ds` is computed exactly: the interval is split where the
/// temperature crosses the comfort line (at most twice, since it turns at most once) and
/// each piece on the uncomfortable side contributes `T_comfort·Δt − ∫T ds` from the closed
/// form integral.
extension ZoneSegment {
    /// Seconds per hour, for converting K·s to K·h.
    private static let secondsPerHour = 3600.0

    /// The exact degree-hours below `comfortCelsius` over `[0, seconds]`, in K·h.
    ///
    /// Used for "too cold" discomfort reports: one hour spent 2 K below the comfort line
    /// counts 2 K·h.
    ///
    /// - Parameters:
    ///   - comfortCelsius: The comfort temperature in °C.
    ///   - seconds: The end of the interval, seconds since the start of the segment.
    /// - Returns: `∫₀ᵗ max(0, T_comfort − T(s)) ds / 3600` in K·h; `0` when `seconds` is
    ///   not a positive finite number or `comfortCelsius` is not finite.
    /// - Complexity: O(log(t/tolerance)) temperature evaluations (for the crossings).
    public func degreeHours(below comfortCelsius: Double, upTo seconds: Double) -> Double {
        kelvinSeconds(beyond: comfortCelsius, upTo: seconds, below: true) / Self.secondsPerHour
    }

    /// The exact degree-hours above `comfortCelsius` over `[0, seconds]`, in K·h.
    ///
    /// Used for "too warm" discomfort reports.
    ///
    /// - Parameters:
    ///   - comfortCelsius: The comfort temperature in °C.
    ///   - seconds: The end of the interval, seconds since the start of the segment.
    /// - Returns: `∫₀ᵗ max(0, T(s) − T_comfort) ds / 3600` in K·h; `0` when `seconds` is
    ///   not a positive finite number or `comfortCelsius` is not finite.
    /// - Complexity: O(log(t/tolerance)) temperature evaluations (for the crossings).
    public func degreeHours(above comfortCelsius: Double, upTo seconds: Double) -> Double {
        kelvinSeconds(beyond: comfortCelsius, upTo: seconds, below: false) / Self.secondsPerHour
    }

    /// The exceedance integral in K·s on one side of `line`.
    ///
    /// - Parameters:
    ///   - line: The comfort temperature in °C.
    ///   - seconds: The end of the interval.
    ///   - below: `true` to count time below the line, `false` above.
    /// - Returns: The integral in K·s, never negative.
    private func kelvinSeconds(beyond line: Double, upTo seconds: Double, below: Bool) -> Double {
        guard line.isFinite, seconds.isFinite, seconds > 0 else { return 0 }
        // The cuts: 0, the crossings strictly inside (at most two), `seconds` — held inline, as a zone
        // asks at every event while guests are present.
        var cuts: (Double, Double, Double, Double) = (0, 0, 0, 0)
        var count = 1
        forEachCrossing(of: line, upTo: seconds) { crossing in
            guard crossing > 0, crossing < seconds, count < 3 else { return }  // never more than two
            if count == 1 { cuts.1 = crossing } else { cuts.2 = crossing }
            count += 1
        }
        switch count {
        case 1: cuts.1 = seconds
        case 2: cuts.2 = seconds
        default: cuts.3 = seconds
        }
        var total = 0.0
        func piece(_ start: Double, _ end: Double) {
            guard end > start else { return }
            let middle = temperature(at: start + (end - start) / 2)
            let uncomfortable = below ? middle < line : middle > line
            guard uncomfortable else { return }
            let area = line * (end - start) - integral(from: start, to: end)
            total += max(0, below ? area : -area)
        }
        piece(cuts.0, cuts.1)
        if count >= 2 { piece(cuts.1, cuts.2) }
        if count >= 3 { piece(cuts.2, cuts.3) }
        return total
    }
}
