/// Several crossing questions about one ``ZoneSegment`` that share their work: the turning point
/// is worked out once, and the temperature at each piece end once.
///
/// A zone planning its next event asks for the first crossing of up to four thresholds over the
/// same window, and whether others may be reached before the best one so far; every question
/// starts with the turning point (a `log1p`) and the temperatures at the ends of the monotone
/// pieces. The answers are bit for bit those of ``ZoneSegment/firstCrossing(of:within:)`` and
/// ``ZoneSegment/mayReach(_:within:)``: the same expressions, evaluated once.
///
/// ```swift
/// var search = CrossingSearch(segment)
/// let up = search.firstCrossing(of: 21.1, within: 3_600)
/// let down = search.mayReach(20.9, within: up ?? 3_600) ? search.firstCrossing(of: 20.9, within: 3_600) : nil
/// ```
public struct CrossingSearch: Sendable {
    /// The segment asked about.
    public let segment: ZoneSegment
    /// ``ZoneSegment/turningPointSeconds``, once known.
    private var turn: Double??
    /// Temperatures already evaluated, as (seconds, °C), most recent first.
    private var known: (Known, Known, Known, Known) = (.none, .none, .none, .none)

    private struct Known: Sendable {
        var seconds: Double
        var celsius: Double
        var isSet: Bool

        static let none = Known(seconds: 0, celsius: 0, isSet: false)
    }

    /// A search over `segment` with nothing worked out yet.
    public init(_ segment: ZoneSegment) { self.segment = segment }

    /// ``ZoneSegment/firstCrossing(of:within:)``, sharing the turning point and end temperatures
    /// with the other questions asked of this search.
    public mutating func firstCrossing(of threshold: Double, within horizonSeconds: Double) -> Double? {
        // Guards and special cases exactly as ZoneSegment.firstCrossing, which also answers the cases
        // without piece ends to share (no ramp, or an unbounded window).
        guard threshold.isFinite, horizonSeconds >= 0 else { return nil }
        if segment.initialCelsius == threshold { return 0 }
        guard segment.outdoorSlopeKPerSecond != 0, horizonSeconds.isFinite else {
            return segment.firstCrossing(of: threshold, within: horizonSeconds)
        }
        for (lower, upper) in pieces(upTo: horizonSeconds) {
            if let seconds = root(of: threshold, from: lower, to: upper) { return seconds }
        }
        return nil
    }

    /// ``ZoneSegment/mayReach(_:within:)``, sharing the turning point and end temperatures with the
    /// other questions asked of this search.
    public mutating func mayReach(_ threshold: Double, within seconds: Double) -> Bool {
        guard threshold.isFinite, seconds.isFinite, seconds >= 0 else { return true }
        if segment.initialCelsius == threshold { return true }
        for (lower, upper) in pieces(upTo: seconds) {
            let below = temperature(at: lower) - threshold
            let above = temperature(at: upper) - threshold
            if below == 0 || above == 0 || (below < 0) != (above < 0) { return true }
        }
        return false
    }

    /// ``ZoneSegment/monotonePieces(upTo:)`` with the turning point worked out once.
    private mutating func pieces(upTo seconds: Double) -> MonotonePieces {
        let turn: Double?
        if let known = self.turn {
            turn = known
        } else {
            turn = segment.turningPointSeconds
            self.turn = .some(turn)
        }
        if let turn, turn < seconds {
            return MonotonePieces(first: (0, turn), second: (turn, seconds))
        }
        return MonotonePieces(first: (0, seconds), second: nil)
    }

    /// The segment's root search on one monotone piece (``ZoneSegment``'s `root(of:from:to:)`), with
    /// the end temperatures from ``temperature(at:)``.
    private mutating func root(of threshold: Double, from lower: Double, to upper: Double) -> Double? {
        let fLower = temperature(at: lower) - threshold
        if fLower == 0 { return lower }
        let fUpper = temperature(at: upper) - threshold
        if fUpper == 0 { return upper }
        guard (fLower < 0) != (fUpper < 0) else { return nil }
        let segment = self.segment
        return RootFinder.brent(
            lower: lower, upper: upper, fLower: fLower, fUpper: fUpper,
            tolerance: ZoneSegment.crossingToleranceSeconds
        ) { segment.temperature(at: $0) - threshold }
    }

    /// `segment.temperature(at: seconds)`, evaluated once per distinct time among the last four asked.
    private mutating func temperature(at seconds: Double) -> Double {
        let bits = seconds.bitPattern
        if known.0.isSet, known.0.seconds.bitPattern == bits { return known.0.celsius }
        if known.1.isSet, known.1.seconds.bitPattern == bits { return known.1.celsius }
        if known.2.isSet, known.2.seconds.bitPattern == bits { return known.2.celsius }
        if known.3.isSet, known.3.seconds.bitPattern == bits { return known.3.celsius }
        let celsius = segment.temperature(at: seconds)
        known = (Known(seconds: seconds, celsius: celsius, isSet: true), known.0, known.1, known.2)
        return celsius
    }
}
