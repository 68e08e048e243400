import Foundation

/// The three dimensionless functions of `x = t/τ` from which every closed form is built.
///
/// Writing the solutions with these keeps them accurate at both ends: near `t → 0` (where
/// `1 − e^(−x)` and `x − (1 − e^(−x))` would cancel catastrophically) and when `τ` is huge
/// (where the textbook form `T∞ + (T0 − T∞)·e^(−t/τ)` subtracts two huge numbers).
///
/// - `relaxed(x)   = 1 − e^(−x)`                       (the fraction of the way to `T∞`)
/// - `lagRatio(x)  = (x − 1 + e^(−x)) / x`              (∫₀ˣ relaxed / x)
/// - `lagRatio2(x) = (x²/2 − x + 1 − e^(−x)) / x²`      (∫₀ˣ (x − relaxed) / x²)
///
/// All three are 0 at `x = 0`, smooth, and computed to a few ulps for every finite `x`.
enum RelaxationKernels {
    /// Below this `|x|` the power series is used instead of the closed expression.
    static let seriesLimit = 1.0

    /// `1 − e^(−x)`, exact near 0 via `expm1`.
    ///
    /// - Parameter x: Elapsed time over the time constant.
    /// - Returns: `1 − e^(−x)`.
    static func relaxed(_ x: Double) -> Double {
        -expm1(-x)
    }

    /// `(x − 1 + e^(−x)) / x`, which is `x/2 − x²/6 + …` near 0 and tends to 1 for large `x`.
    ///
    /// - Parameter x: Elapsed time over the time constant.
    /// - Returns: The ratio; 0 at `x = 0`.
    static func lagRatio(_ x: Double) -> Double {
        if x == 0 { return 0 }
        if abs(x) < seriesLimit {
            // Σ_{n≥2} (−x)^n / n! divided by x.
            return alternatingTail(x, firstFactorial: 2)
        }
        return 1 - relaxed(x) / x
    }

    /// `(x²/2 − x + 1 − e^(−x)) / x²`, which is `x/6 − x²/24 + …` near 0 and tends to ½.
    ///
    /// - Parameter x: Elapsed time over the time constant.
    /// - Returns: The ratio; 0 at `x = 0`.
    static func lagRatio2(_ x: Double) -> Double {
        if x == 0 { return 0 }
        if abs(x) < seriesLimit {
            // −Σ_{n≥3} (−x)^n / n! divided by x².
            return alternatingTail(x, firstFactorial: 3)
        }
        return 0.5 - lagRatio(x) / x
    }

    /// Sums `x/f! − x²/(f+1)! + x³/(f+2)! − …` for `|x| < 1`.
    ///
    /// - Parameters:
    ///   - x: The argument, `|x| < 1`.
    ///   - firstFactorial: `f`, so that the first term is `x / f!`.
    /// - Returns: The series value, converged to double precision.
    /// - Complexity: At most 30 terms.
    private static func alternatingTail(_ x: Double, firstFactorial: Int) -> Double {
        var factorial = 1.0
        for k in 2...firstFactorial { factorial *= Double(k) }
        var term = x / factorial
        var sum = term
        var n = firstFactorial
        for _ in 0..<30 {
            n += 1
            term *= -x / Double(n)
            let next = sum + term
            if next == sum { break }
            sum = next
        }
        return sum
    }
}
