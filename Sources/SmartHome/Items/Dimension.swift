/// A physical dimension of a `Number:<Dimension>` Item: every dimension openHAB 5's unit provider knows
/// (`I18nProviderImpl.getDimensionMap`), with the default unit of its metric system.
public enum Dimension: String, Sendable, Hashable, CaseIterable {
    case acceleration = "Acceleration"
    case amountOfSubstance = "AmountOfSubstance"
    case angle = "Angle"
    case area = "Area"
    case arealDensity = "ArealDensity"
    case catalyticActivity = "CatalyticActivity"
    case dataAmount = "DataAmount"
    case dataTransferRate = "DataTransferRate"
    case density = "Density"
    /// Ratios; default unit ONE (a plain number), so a percentage Item carries `unit` metadata `%`.
    case dimensionless = "Dimensionless"
    case electricCapacitance = "ElectricCapacitance"
    case electricCharge = "ElectricCharge"
    case electricConductance = "ElectricConductance"
    case electricConductivity = "ElectricConductivity"
    case electricCurrent = "ElectricCurrent"
    case electricInductance = "ElectricInductance"
    case electricPotential = "ElectricPotential"
    case electricResistance = "ElectricResistance"
    /// Energy; default unit kWh.
    case energy = "Energy"
    case force = "Force"
    case frequency = "Frequency"
    case illuminance = "Illuminance"
    case intensity = "Intensity"
    case length = "Length"
    case luminousFlux = "LuminousFlux"
    case luminousIntensity = "LuminousIntensity"
    case magneticFlux = "MagneticFlux"
    case magneticFluxDensity = "MagneticFluxDensity"
    case mass = "Mass"
    /// Power; default unit W.
    case power = "Power"
    case pressure = "Pressure"
    case radiationDoseAbsorbed = "RadiationDoseAbsorbed"
    case radiationDoseEffective = "RadiationDoseEffective"
    case radioactivity = "Radioactivity"
    case solidAngle = "SolidAngle"
    case speed = "Speed"
    /// Temperatures; default unit °C.
    case temperature = "Temperature"
    case time = "Time"
    case volume = "Volume"
    case volumetricFlowRate = "VolumetricFlowRate"

    /// The unit an Item of this dimension shows its state in without `unit` metadata: openHAB's SI
    /// defaults (`I18nProviderImpl`: hPa for pressure, km/h for speed, l/min for flow, kWh for energy).
    public var defaultUnit: QuantityUnit {
        switch self {
        case .acceleration: return unit("m/s²")
        case .amountOfSubstance: return unit("mol")
        case .angle: return unit("°")
        case .area: return unit("m²")
        case .arealDensity: return unit("DU")
        case .catalyticActivity: return unit("kat")
        case .dataAmount: return unit("B")
        case .dataTransferRate: return unit("Mbit/s")
        case .density: return unit("kg/m³")
        case .dimensionless: return .one
        case .electricCapacitance: return unit("F")
        case .electricCharge: return unit("C")
        case .electricConductance: return unit("S")
        case .electricConductivity: return unit("S/m")
        case .electricCurrent: return unit("A")
        case .electricInductance: return unit("H")
        case .electricPotential: return unit("V")
        case .electricResistance: return unit("Ω")
        case .energy: return .kilowattHour
        case .force: return unit("N")
        case .frequency: return unit("Hz")
        case .illuminance: return unit("lx")
        case .intensity: return unit("W/m²")
        case .length: return unit("m")
        case .luminousFlux: return unit("lm")
        case .luminousIntensity: return unit("cd")
        case .magneticFlux: return unit("Wb")
        case .magneticFluxDensity: return unit("T")
        case .mass: return unit("kg")
        case .power: return .watt
        case .pressure: return .hectopascal
        case .radiationDoseAbsorbed: return unit("Gy")
        case .radiationDoseEffective: return unit("Sv")
        case .radioactivity: return unit("Bq")
        case .solidAngle: return unit("sr")
        case .speed: return unit("km/h")
        case .temperature: return .celsius
        case .time: return unit("s")
        case .volume: return unit("m³")
        case .volumetricFlowRate: return unit("l/min")
        }
    }

    private func unit(_ symbol: String) -> QuantityUnit {
        // Every symbol above is in QuantityUnit's table (a test checks each dimension's default).
        QuantityUnit(symbol: symbol) ?? .one
    }
}
