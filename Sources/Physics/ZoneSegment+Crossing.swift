import Foundation

/// Turning points and threshold crossings of a segment's temperature.
///
/// `dT/dt = b − D0·e^(−t/τ)/τ` with `D0 = T0 − T∞₀ + b·τ` is monotone in `t`, so it has at
/// most one zero: the temperature has at most one turning point and is monotone on each
/// side of it. A crossing search splits `[0, H]` there and runs Brent's method on the
/// (at most two) monotone pieces, taking the first piece whose ends straddle the threshold.
extension ZoneSegment {
    /// The absolute time tolerance, in seconds, of the root finder (1 ns).
    ///
    /// The returned crossing times are within `1e-9 s + 4·ε·t` of the true crossing; at the
    /// rates a room changes (well under 1 K/s) that puts `T(t*)` within 1e-9 K of the threshold.
    public static let crossingToleranceSeconds = 1e-9

    /// The time `t > 0` at which the temperature stops falling and starts rising (or the
    /// reverse), in seconds, or `nil` if it never turns.
    ///
    /// Solving `dT/dt = 0` gives `t = τ · ln(1 + (T0 − T∞₀)/(b·τ))`, which exists only when
    /// the ramp pushes against the room's initial drift: `b ≠ 0` and `T0 − T∞₀` has the same
    /// sign as `b` (e.g. the room cools at first but the outdoor temperature rises fast
    /// enough to turn it round). With constant conditions the temperature never turns.
    public var turningPointSeconds: Double? {
        let b = outdoorSlopeKPerSecond
        guard b != 0 else { return nil }
        let tau = parameters.timeConstantSeconds
        let ratio = (initialCelsius - initialSteadyStateCelsius) / (b * tau)
        guard ratio > 0, ratio.isFinite else { return nil }
        let seconds = tau * log1p(ratio)
        guard seconds.isFinite, seconds > 0 else { return nil }
        return seconds
    }

    /// The first time in `[0, horizonSeconds]` at which the room temperature equals `threshold`.
    ///
    /// With constant conditions this is the closed form
    /// `τ · ln((T0 − T∞)/(T* − T∞))`; with a ramp the interval is split at the turning point
    /// (if any) and Brent's bracketing method finds the crossing on the first monotone piece
    /// whose ends straddle `threshold`, so a crossing after a turning point is found too.
    /// A threshold that is only touched at the turning point counts as reached there.
    ///
    /// - Parameters:
    ///   - threshold: The temperature `T*` in °C.
    ///   - horizonSeconds: The end of the search window in seconds; `.infinity` searches
    ///     for ever (with a ramp the bracket is then bounded analytically).
    /// - Returns: `0` when `T0 == T*`; the first crossing time in seconds; `nil` when the
    ///   temperature does not reach `threshold` within the window, or when `threshold` is
    ///   not finite or `horizonSeconds` is negative or NaN.
    /// - Complexity: O(1) with constant conditions; O(log(H/tolerance)) temperature
    ///   evaluations with a ramp.
    public func firstCrossing(of threshold: Double, within horizonSeconds: Double) -> Double? {
        guard threshold.isFinite, horizonSeconds >= 0 else { return nil }
        if initialCelsius == threshold { return 0 }
        if outdoorSlopeKPerSecond == 0 {
            guard
                let seconds = ZoneParameters.relaxationTime(
                    to: threshold, from: initialCelsius, target: initialSteadyStateCelsius,
                    timeConstantSeconds: parameters.timeConstantSeconds),
                seconds <= horizonSeconds
            else { return nil }
            return seconds
        }
        guard let horizon = searchHorizon(for: threshold, within: horizonSeconds) else { return nil }
        for (lower, upper) in monotonePieces(upTo: horizon) {
            if let seconds = root(of: threshold, from: lower, to: upper) { return seconds }
        }
        return nil
    }

    /// Whether the temperature may equal `threshold` somewhere in `[0, seconds]`: `false` only
    /// when, on each monotone piece of the window, both ends lie strictly on the same side of it.
    ///
    /// It costs the end-point evaluations of ``firstCrossing(of:within:)`` without its root
    /// search, so a caller looking for the earliest of several crossings can skip a threshold
    /// that cannot be reached before the best crossing found so far: when this is `false`,
    /// `firstCrossing(of: threshold, within: h)` is `nil` or later than `seconds` for any `h`.
    ///
    /// - Parameters:
    ///   - threshold: The temperature in °C.
    ///   - seconds: The end of the window, non-negative.
    /// - Returns: `true` when a crossing in the window cannot be ruled out (also for a threshold
    ///   or window that is not a finite number).
    public func mayReach(_ threshold: Double, within seconds: Double) -> Bool {
        guard threshold.isFinite, seconds.isFinite, seconds >= 0 else { return true }
        if initialCelsius == threshold { return true }
        for (lower, upper) in monotonePieces(upTo: seconds) {
            let below = temperature(at: lower) - threshold
            let above = temperature(at: upper) - threshold
            if below == 0 || above == 0 || (below < 0) != (above < 0) { return true }
        }
        return false
    }

    /// Every time in `[0, seconds]` at which the temperature equals `threshold`, in order.
    ///
    /// There are at most two (one on each side of the turning point). A threshold touched
    /// only at the turning point is reported once.
    ///
    /// - Parameters:
    ///   - threshold: The temperature in °C.
    ///   - seconds: The end of the window, finite and non-negative.
    /// - Returns: The crossing times in seconds, ascending.
    func crossings(of threshold: Double, upTo seconds: Double) -> [Double] {
        var found: [Double] = []
        forEachCrossing(of: threshold, upTo: seconds) { found.append($0) }
        return found
    }

    /// ``crossings(of:upTo:)`` handed out one by one, in time order (at most two), without an array.
    func forEachCrossing(of threshold: Double, upTo seconds: Double, _ body: (Double) -> Void) {
        guard threshold.isFinite, seconds.isFinite, seconds >= 0 else { return }
        var last: Double?
        for (lower, upper) in monotonePieces(upTo: seconds) {
            if let root = root(of: threshold, from: lower, to: upper), last != root {
                last = root
                body(root)
            }
        }
    }

    /// The intervals of `[0, seconds]` on which the temperature is monotone.
    ///
    /// - Parameter seconds: The end of the window, finite and non-negative.
    /// - Returns: One interval, or two split at the turning point (held inline: this runs for every
    ///   crossing a zone plans, so it does not allocate an array).
    func monotonePieces(upTo seconds: Double) -> MonotonePieces {
        if let turn = turningPointSeconds, turn < seconds {
            return MonotonePieces(first: (0, turn), second: (turn, seconds))
        }
        return MonotonePieces(first: (0, seconds), second: nil)
    }

    /// A finite end for the search window that is sure to contain any crossing.
    ///
    /// For an infinite horizon with `b ≠ 0`: `|T(t) − (T∞₀ + b(t − τ))| ≤ |D0| ≤ |T0 − T∞₀| + |b|τ`,
    /// so once `t ≥ 2τ + (|T* − T∞₀| + |T0 − T∞₀|)/|b|` the temperature has passed `T*` in the
    /// direction of `b` for good, and the turning point (≤ |T0 − T∞₀|/|b|) lies before it.
    ///
    /// - Parameters:
    ///   - threshold: The temperature sought in °C.
    ///   - horizonSeconds: The caller's horizon.
    /// - Returns: A finite horizon in seconds, or `nil` when none can be represented.
    private func searchHorizon(for threshold: Double, within horizonSeconds: Double) -> Double? {
        if horizonSeconds.isFinite { return horizonSeconds }
        let tau = parameters.timeConstantSeconds
        let target = initialSteadyStateCelsius
        let spread = abs(threshold - target) + abs(initialCelsius - target)
        let bound = 2 * tau + spread / abs(outdoorSlopeKPerSecond)
        // Double it for margin against rounding in T(bound).
        let horizon = 2 * bound
        return horizon.isFinite ? horizon : nil
    }

    /// The root of `T(t) − threshold` on one monotone piece, if the piece reaches it.
    ///
    /// - Parameters:
    ///   - threshold: The temperature in °C.
    ///   - lower: The start of the piece in seconds.
    ///   - upper: The end of the piece in seconds; `T` is monotone on `[lower, upper]`.
    /// - Returns: The crossing time in seconds, or `nil` when both ends lie strictly on
    ///   the same side of `threshold`.
    private func root(of threshold: Double, from lower: Double, to upper: Double) -> Double? {
        let fLower = temperature(at: lower) - threshold
        if fLower == 0 { return lower }
        let fUpper = temperature(at: upper) - threshold
        if fUpper == 0 { return upper }
        guard (fLower < 0) != (fUpper < 0) else { return nil }
        return RootFinder.brent(
            lower: lower, upper: upper, fLower: fLower, fUpper: fUpper,
            tolerance: Self.crossingToleranceSeconds
        ) { temperature(at: $0) - threshold }
    }
}
