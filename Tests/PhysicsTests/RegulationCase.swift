import Testing

/// One steady-regulation scenario.
struct RegulationCase: CustomTestStringConvertible, Sendable {
    var ua: Double
    var capacitanceKWh: Double
    var outdoor: Double
    var setpoint: Double
    var powerW: Double

    var testDescription: String { "UA \(ua), C \(capacitanceKWh), T_out \(outdoor), S \(setpoint), P \(powerW)" }

    static let heating: [RegulationCase] = [
        RegulationCase(ua: 80, capacitanceKWh: 2.3, outdoor: 0, setpoint: 20, powerW: 2000),
        RegulationCase(ua: 120, capacitanceKWh: 1.5, outdoor: -5, setpoint: 21, powerW: 4000),
        RegulationCase(ua: 40, capacitanceKWh: 3.0, outdoor: 10, setpoint: 19, powerW: 1000),
    ]
}
