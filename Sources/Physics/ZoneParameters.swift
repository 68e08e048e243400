/// The two numbers that define a 1R1C thermal zone: heat-loss coefficient and heat capacity.
///
/// The zone obeys `C · dT/dt = UA · (T_out − T) + Q`, with `UA` in W/K and `C` in J/K.
/// Capacitance is given in kWh/K because that is how flats are usually described
/// (≈ 2.3 kWh/K for 50 m² of medium-weight construction) and converted with
/// 1 kWh = 3.6e6 J. The time constant `τ = C / UA` (seconds) sets how quickly the room
/// forgets its starting temperature.
///
/// Values are validated once, at construction, so every later computation can rely on
/// `UA > 0`, `C > 0` and a finite `τ`.
public struct ZoneParameters: Hashable, Sendable, CustomStringConvertible {
    /// Joules per kilowatt-hour.
    public static let joulesPerKWh = 3.6e6

    /// The heat-loss coefficient `UA` in W/K: watts lost per kelvin of indoor–outdoor difference.
    public let uaWPerK: Double
    /// The heat capacity `C` in kWh/K: energy needed to warm the whole zone by one kelvin.
    public let capacitanceKWhPerK: Double

    /// Creates zone parameters after checking that both are positive, finite numbers.
    ///
    /// - Parameters:
    ///   - uaWPerK: Heat-loss coefficient in W/K; must be finite and greater than 0
    ///     (40–120 W/K for a 50 m² flat).
    ///   - capacitanceKWhPerK: Heat capacity in kWh/K; must be finite and greater than 0
    ///     (≈ 2.3 kWh/K for a 50 m² medium-weight flat).
    /// - Throws: `PhysicsError` with code `physics.invalidParameter` naming the field and
    ///   value, or `physics.outOfRange` when `C` in J/K or `τ` would not be finite.
    public init(uaWPerK: Double, capacitanceKWhPerK: Double) throws(PhysicsError) {
        guard uaWPerK.isFinite, uaWPerK > 0 else {
            throw PhysicsError.invalid(
                "uaWPerK", uaWPerK, unit: "W/K",
                allowed: "a finite number greater than 0 W/K (40–120 W/K is typical for a 50 m² flat)")
        }
        guard capacitanceKWhPerK.isFinite, capacitanceKWhPerK > 0 else {
            throw PhysicsError.invalid(
                "capacitanceKWhPerK", capacitanceKWhPerK, unit: "kWh/K",
                allowed: "a finite number greater than 0 kWh/K (about 2.3 kWh/K is typical for a 50 m² flat)")
        }
        let joulesPerK = capacitanceKWhPerK * Self.joulesPerKWh
        let tau = joulesPerK / uaWPerK
        guard joulesPerK.isFinite, tau.isFinite, tau > 0 else {
            throw PhysicsError(
                .outOfRange,
                "capacitanceKWhPerK \(capacitanceKWhPerK) kWh/K and uaWPerK \(uaWPerK) W/K give a time "
                    + "constant of \(tau) s, which is not a finite positive number; use values closer to "
                    + "a real building (τ = C/UA is 19–57 h for a 50 m² flat).")
        }
        self.uaWPerK = uaWPerK
        self.capacitanceKWhPerK = capacitanceKWhPerK
    }

    /// Creates parameters that are known to be valid, without checking them.
    private init(unchecked uaWPerK: Double, _ capacitanceKWhPerK: Double) {
        self.uaWPerK = uaWPerK
        self.capacitanceKWhPerK = capacitanceKWhPerK
    }

    /// A typical 50 m² medium-weight flat: `UA` = 80 W/K, `C` = 2.3 kWh/K (τ ≈ 28.75 h).
    public static let typicalFlat = ZoneParameters(unchecked: 80, 2.3)

    /// The heat capacity `C` in J/K (`capacitanceKWhPerK` × 3.6e6).
    public var capacitanceJPerK: Double { capacitanceKWhPerK * Self.joulesPerKWh }

    /// The time constant `τ = C / UA` in seconds; always finite and positive.
    public var timeConstantSeconds: Double { capacitanceJPerK / uaWPerK }

    /// The parameters and time constant, e.g. `UA 80.0 W/K, C 2.3 kWh/K (τ 28.75 h)`.
    ///
    /// The time constant is shown in hours rounded to 0.01 h.
    public var description: String {
        let tauHours = (timeConstantSeconds / 36).rounded() / 100
        return "UA \(uaWPerK) W/K, C \(capacitanceKWhPerK) kWh/K (τ \(tauHours) h)"
    }
}
