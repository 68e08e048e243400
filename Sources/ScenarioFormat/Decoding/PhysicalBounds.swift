/// The ranges a scenario's physical values and span must lie in (Docs/SCENARIO-FORMAT.md, "Bounds").
///
/// Every bound covers every real flat and climate with a wide margin; what lies outside is a typo or
/// an attack, and would make the twin do absurd amounts of work (a room that swings by kelvins per
/// millisecond reports every 0.1 K). Values outside are `scenario.invalid` issues at their path.
enum PhysicalBounds {
    /// Outdoor temperatures any weather may produce, °C (the coldest and hottest ever recorded are −89 and +57).
    static let outdoorC: ClosedRange<Double> = -90...60
    /// How many standard deviations of `noiseK` a diurnal knot can move: the generator's Box–Muller
    /// variate from 53-bit uniforms never exceeds 8.6.
    static let noiseSigmas = 9.0
    /// A room's heat loss coefficient, W/K (a studio is about 30, a large house about 1,000).
    static let uaWPerK: ClosedRange<Double> = 1...10_000
    /// A room's heat capacity, kWh/K (the air of a 50 m² flat alone is 0.04; with walls and furniture 1–5).
    static let capacitanceKWhPerK: ClosedRange<Double> = 0.01...1_000
    /// A heating or cooling device's electric power, W (above 0).
    static let maxDevicePowerW = 50_000.0
    /// A cooling device's coefficient of performance (above 0).
    static let maxCOP = 10.0
    /// A thermostat's hysteresis, K.
    static let hysteresisK: ClosedRange<Double> = 0.05...10
    /// A smart plug's load or standby draw, W.
    static let plugW: ClosedRange<Double> = 0...10_000
    /// The fastest a listing may heat or cool itself, K/h: every device at full power plus a full flat of
    /// guests, over its capacitance (a real flat manages 1–20).
    static let maxHeatingRateKPerHour = 200.0
    /// The calendar years a scenario's start and end may lie in (local time).
    static let years: ClosedRange<Int> = 1970...2200
    /// The longest span from start to end, in years of 365.25 days.
    static let maxSpanYears = 100
}
