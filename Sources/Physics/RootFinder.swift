/// Brent's bracketing root finder (`zeroin`) for a continuous function on a sign-change interval.
///
/// It combines bisection with secant and inverse quadratic interpolation, so it never
/// leaves the bracket, always converges, and is usually superlinear. This is a direct
/// transcription of R. P. Brent, *Algorithms for Minimization without Derivatives* (1973),
/// chapter 4, as published in netlib `zeroin.f`.
enum RootFinder {
    /// The most function evaluations one search may use; far more than a double needs.
    static let maximumIterations = 300

    /// Finds `t` in `[lower, upper]` with `f(t) ≈ 0`, given that `f` changes sign there.
    ///
    /// - Parameters:
    ///   - lower: The left end of the bracket.
    ///   - upper: The right end of the bracket.
    ///   - fLower: `f(lower)`, non-zero.
    ///   - fUpper: `f(upper)`, non-zero and of the opposite sign.
    ///   - tolerance: Absolute tolerance on `t`; the result is within
    ///     `4·ε·|t| + tolerance` of a sign change of `f`.
    ///   - f: The function.
    /// - Returns: The root estimate, always inside `[lower, upper]`.
    /// - Complexity: O(log((upper − lower)/tolerance)) evaluations typically; bounded by
    ///   `maximumIterations`.
    static func brent(
        lower: Double, upper: Double, fLower: Double, fUpper: Double,
        tolerance: Double, _ f: (Double) -> Double
    ) -> Double {
        var a = lower
        var b = upper
        var fa = fLower
        var fb = fUpper
        var c = a
        var fc = fa
        var d = b - a
        var e = d
        var resetC = true
        for _ in 0..<maximumIterations {
            if resetC {
                c = a
                fc = fa
                d = b - a
                e = d
            }
            if abs(fc) < abs(fb) {
                a = b
                b = c
                c = a
                fa = fb
                fb = fc
                fc = fa
            }
            let tol1 = 2 * Double.ulpOfOne * abs(b) + 0.5 * tolerance
            let xm = 0.5 * (c - b)
            if abs(xm) <= tol1 || fb == 0 { return b }

            if abs(e) >= tol1 && abs(fa) > abs(fb) {
                // Try interpolation.
                let s = fb / fa
                var p: Double
                var q: Double
                if a == c {
                    p = 2 * xm * s
                    q = 1 - s
                } else {
                    let qa = fa / fc
                    let r = fb / fc
                    p = s * (2 * xm * qa * (qa - r) - (b - a) * (r - 1))
                    q = (qa - 1) * (r - 1) * (s - 1)
                }
                if p > 0 { q = -q }
                p = abs(p)
                if 2 * p < 3 * xm * q - abs(tol1 * q) && p < abs(0.5 * e * q) {
                    e = d
                    d = p / q
                } else {
                    d = xm
                    e = d
                }
            } else {
                d = xm
                e = d
            }
            a = b
            fa = fb
            b += abs(d) > tol1 ? d : (xm > 0 ? tol1 : -tol1)
            fb = f(b)
            resetC = (fb > 0 && fc > 0) || (fb < 0 && fc < 0)
        }
        return b
    }
}
