/// A unit of a quantity state or command (`21.5 °C`, `2 kW`, `1013 hPa`): its symbol as openHAB prints it,
/// the dimension it measures, and how it converts to the dimension's coherent unit.
///
/// The units are those of openhab-core's `org.openhab.core.library.unit` (`Units`, `SIUnits`,
/// `ImperialUnits`) that a home uses, plus every SI unit with a `MetricPrefix` (`mm`, `hPa`, `kV`, `µg/m³`,
/// `MiB` for data). Two units are equal when their symbols are (`℃` is read as `°C`).
public struct QuantityUnit: Sendable, Hashable, CustomStringConvertible {
    /// The symbol as openHAB prints it (`°C`, `kWh`, `m³`, `one` for the unit ONE).
    public let symbol: String
    /// The dimension this unit measures.
    public let dimension: Dimension
    /// value in the coherent unit = value × factor + offset (`°C`: factor 1, offset 273.15).
    let factor: Double
    let offset: Double
    /// Logarithmic units (`dB`, `dBm`) convert only to themselves.
    let logarithmic: Bool
    /// Whether a metric prefix may stand before the symbol (`m` → `mm`, `km`).
    let prefixable: Bool

    init(_ symbol: String, _ dimension: Dimension, _ factor: Double = 1, offset: Double = 0,
         prefixable: Bool = false, logarithmic: Bool = false) {
        self.symbol = symbol
        self.dimension = dimension
        self.factor = factor
        self.offset = offset
        self.prefixable = prefixable
        self.logarithmic = logarithmic
    }

    public static func == (lhs: QuantityUnit, rhs: QuantityUnit) -> Bool { lhs.symbol == rhs.symbol }
    public func hash(into hasher: inout Hasher) { hasher.combine(symbol) }

    /// The symbol (kept for callers that treated units as raw values).
    public var rawValue: String { symbol }
    public var description: String { symbol }

    /// Converts `value` in this unit to the dimension's coherent unit (K, W, J, one, m, …).
    func toBase(_ value: Double) -> Double { value * factor + offset }
    /// Converts `value` in the coherent unit to this unit.
    func fromBase(_ value: Double) -> Double { (value - offset) / factor }

    /// Whether a quantity in this unit converts to `other` (same dimension, and not a logarithmic unit
    /// unless it is the same one).
    public func converts(to other: QuantityUnit) -> Bool {
        guard dimension == other.dimension else { return false }
        return self == other || (!logarithmic && !other.logarithmic)
    }

    /// Parses a unit symbol: a known symbol (`°C`, `℃`, `kWh`, `m³`), or a metric prefix before an SI
    /// symbol (`hPa`, `mm`, `µg/m³`, with `u` accepted for `µ`). `C` alone is coulomb, never Celsius.
    public init?(symbol: some StringProtocol) {
        let text = String(symbol)
        if let unit = Self.bySymbol[text] {
            self = unit
            return
        }
        guard text.count <= 24 else { return nil }
        for prefix in Self.prefixes where text.hasPrefix(prefix.symbol) {
            let rest = String(text.dropFirst(prefix.symbol.count))
            guard let base = Self.bySymbol[rest], base.prefixable else { continue }
            let printed = (prefix.symbol == "u" || prefix.symbol == "μ" ? "µ" : prefix.symbol) + base.symbol
            if let known = Self.bySymbol[printed] {
                self = known
                return
            }
            self.init(printed, base.dimension, base.factor * prefix.factor, prefixable: false)
            return
        }
        return nil
    }

    /// Every unit symbol the twin knows without a prefix, sorted, for hints.
    public static var knownSymbols: [String] { all.map(\.symbol) }

    /// The units of `dimension` (without prefixed forms), for hints.
    public static func units(of dimension: Dimension) -> [QuantityUnit] { all.filter { $0.dimension == dimension } }

    // MARK: The table

    public static let celsius = QuantityUnit("°C", .temperature, 1, offset: 273.15)
    public static let kelvin = QuantityUnit("K", .temperature, prefixable: true)
    public static let fahrenheit = QuantityUnit("°F", .temperature, 5.0 / 9.0, offset: 459.67 * 5.0 / 9.0)
    public static let watt = QuantityUnit("W", .power, prefixable: true)
    public static let kilowatt = QuantityUnit("kW", .power, 1_000)
    public static let milliwatt = QuantityUnit("mW", .power, 0.001)
    public static let kilowattHour = QuantityUnit("kWh", .energy, 3_600_000)
    public static let wattHour = QuantityUnit("Wh", .energy, 3_600, prefixable: true)
    public static let joule = QuantityUnit("J", .energy, prefixable: true)
    public static let megajoule = QuantityUnit("MJ", .energy, 1_000_000)
    public static let percent = QuantityUnit("%", .dimensionless, 0.01)
    public static let one = QuantityUnit("one", .dimensionless)
    public static let hectopascal = QuantityUnit("hPa", .pressure, 100)

    /// Every unit by symbol; prefixed forms of `prefixable` units are made on demand.
    static let all: [QuantityUnit] = [
        QuantityUnit("m/s²", .acceleration), QuantityUnit("gₙ", .acceleration, 9.80665),
        QuantityUnit("mol", .amountOfSubstance, prefixable: true),
        QuantityUnit("°", .angle, .pi / 180), QuantityUnit("rad", .angle, prefixable: true),
        QuantityUnit("'", .angle, .pi / 10_800), QuantityUnit("''", .angle, .pi / 648_000),
        QuantityUnit("m²", .area), QuantityUnit("cm²", .area, 1e-4), QuantityUnit("km²", .area, 1e6),
        QuantityUnit("ha", .area, 1e4), QuantityUnit("ft²", .area, 0.09290304), QuantityUnit("in²", .area, 0.00064516),
        QuantityUnit("DU", .arealDensity),
        QuantityUnit("kat", .catalyticActivity, prefixable: true),
        QuantityUnit("B", .dataAmount, 8, prefixable: true), QuantityUnit("bit", .dataAmount, prefixable: true),
        QuantityUnit("o", .dataAmount, 8, prefixable: true),
        QuantityUnit("KiB", .dataAmount, 8 * 1024), QuantityUnit("MiB", .dataAmount, 8 * 1_048_576),
        QuantityUnit("GiB", .dataAmount, 8 * 1_073_741_824), QuantityUnit("TiB", .dataAmount, 8 * 1_099_511_627_776),
        QuantityUnit("bit/s", .dataTransferRate, prefixable: true), QuantityUnit("B/s", .dataTransferRate, 8, prefixable: true),
        QuantityUnit("kg/m³", .density), QuantityUnit("g/m³", .density, 1e-3, prefixable: true),
        QuantityUnit("one", .dimensionless), QuantityUnit("%", .dimensionless, 0.01), QuantityUnit("‰", .dimensionless, 0.001),
        QuantityUnit("ppm", .dimensionless, 1e-6), QuantityUnit("ppb", .dimensionless, 1e-9),
        QuantityUnit("dB", .dimensionless, logarithmic: true),
        QuantityUnit("F", .electricCapacitance, prefixable: true),
        QuantityUnit("C", .electricCharge, prefixable: true), QuantityUnit("Ah", .electricCharge, 3_600, prefixable: true),
        QuantityUnit("S", .electricConductance, prefixable: true),
        QuantityUnit("S/m", .electricConductivity, prefixable: true), QuantityUnit("µS/cm", .electricConductivity, 1e-4),
        QuantityUnit("A", .electricCurrent, prefixable: true),
        QuantityUnit("H", .electricInductance, prefixable: true),
        QuantityUnit("V", .electricPotential, prefixable: true),
        QuantityUnit("Ω", .electricResistance, prefixable: true),
        QuantityUnit("kWh", .energy, 3_600_000), QuantityUnit("Wh", .energy, 3_600, prefixable: true),
        QuantityUnit("J", .energy, prefixable: true), QuantityUnit("cal", .energy, 4.184, prefixable: true),
        QuantityUnit("varh", .energy, 3_600, prefixable: true), QuantityUnit("VAh", .energy, 3_600, prefixable: true),
        QuantityUnit("N", .force, prefixable: true),
        QuantityUnit("Hz", .frequency, prefixable: true), QuantityUnit("rpm", .frequency, 1.0 / 60),
        QuantityUnit("lx", .illuminance, prefixable: true),
        QuantityUnit("W/m²", .intensity), QuantityUnit("µW/cm²", .intensity, 0.01),
        QuantityUnit("m", .length, prefixable: true), QuantityUnit("in", .length, 0.0254), QuantityUnit("ft", .length, 0.3048),
        QuantityUnit("yd", .length, 0.9144), QuantityUnit("mi", .length, 1609.344), QuantityUnit("nmi", .length, 1852),
        QuantityUnit("lm", .luminousFlux, prefixable: true),
        QuantityUnit("cd", .luminousIntensity, prefixable: true),
        QuantityUnit("Wb", .magneticFlux, prefixable: true),
        QuantityUnit("T", .magneticFluxDensity, prefixable: true), QuantityUnit("G", .magneticFluxDensity, 1e-4),
        QuantityUnit("kg", .mass), QuantityUnit("g", .mass, 1e-3, prefixable: true), QuantityUnit("t", .mass, 1_000),
        QuantityUnit("lb", .mass, 0.45359237), QuantityUnit("oz", .mass, 0.028349523125),
        QuantityUnit("W", .power, prefixable: true), QuantityUnit("VA", .power, prefixable: true),
        QuantityUnit("var", .power, prefixable: true), QuantityUnit("dBm", .power, logarithmic: true),
        QuantityUnit("Pa", .pressure, prefixable: true), QuantityUnit("hPa", .pressure, 100),
        QuantityUnit("bar", .pressure, 100_000, prefixable: true), QuantityUnit("mmHg", .pressure, 133.322387415),
        QuantityUnit("inHg", .pressure, 3386.388), QuantityUnit("psi", .pressure, 6894.757293168361),
        QuantityUnit("Gy", .radiationDoseAbsorbed, prefixable: true),
        QuantityUnit("Sv", .radiationDoseEffective, prefixable: true),
        QuantityUnit("Bq", .radioactivity, prefixable: true), QuantityUnit("Ci", .radioactivity, 3.7e10, prefixable: true),
        QuantityUnit("sr", .solidAngle),
        QuantityUnit("km/h", .speed, 1.0 / 3.6), QuantityUnit("m/s", .speed), QuantityUnit("mph", .speed, 0.44704),
        QuantityUnit("kn", .speed, 1852.0 / 3600), QuantityUnit("mm/h", .speed, 1e-3 / 3600),
        QuantityUnit("in/h", .speed, 0.0254 / 3600), QuantityUnit("ft/s", .speed, 0.3048),
        QuantityUnit("°C", .temperature, 1, offset: 273.15), QuantityUnit("K", .temperature, prefixable: true),
        QuantityUnit("°F", .temperature, 5.0 / 9.0, offset: 459.67 * 5.0 / 9.0),
        QuantityUnit("s", .time, prefixable: true), QuantityUnit("min", .time, 60), QuantityUnit("h", .time, 3_600),
        QuantityUnit("d", .time, 86_400), QuantityUnit("week", .time, 604_800), QuantityUnit("y", .time, 31_556_952),
        QuantityUnit("m³", .volume), QuantityUnit("l", .volume, 1e-3, prefixable: true),
        QuantityUnit("gal", .volume, 0.003785411784), QuantityUnit("ft³", .volume, 0.028316846592),
        QuantityUnit("l/min", .volumetricFlowRate, 1e-3 / 60), QuantityUnit("l/h", .volumetricFlowRate, 1e-3 / 3600),
        QuantityUnit("l/s", .volumetricFlowRate, 1e-3), QuantityUnit("m³/s", .volumetricFlowRate),
        QuantityUnit("m³/h", .volumetricFlowRate, 1.0 / 3600), QuantityUnit("m³/d", .volumetricFlowRate, 1.0 / 86_400),
        QuantityUnit("gal/min", .volumetricFlowRate, 0.003785411784 / 60),
    ]

    /// Spellings that mean a known unit.
    private static let aliases: [String: String] = ["℃": "°C", "℉": "°F", "L": "l", "ONE": "one", "°K": "K"]

    private static let bySymbol: [String: QuantityUnit] = {
        var table: [String: QuantityUnit] = [:]
        for unit in all where table[unit.symbol] == nil { table[unit.symbol] = unit }
        for (alias, symbol) in aliases { table[alias] = table[symbol] }
        return table
    }()

    /// openHAB's `MetricPrefix` (longest symbols first so `da` wins over `d`), plus `u` for `µ`.
    private static let prefixes: [(symbol: String, factor: Double)] = [
        ("da", 1e1), ("Y", 1e24), ("Z", 1e21), ("E", 1e18), ("P", 1e15), ("T", 1e12), ("G", 1e9), ("M", 1e6),
        ("k", 1e3), ("h", 1e2), ("d", 1e-1), ("c", 1e-2), ("m", 1e-3), ("µ", 1e-6), ("μ", 1e-6), ("u", 1e-6),
        ("n", 1e-9), ("p", 1e-12), ("f", 1e-15),
    ]
}
