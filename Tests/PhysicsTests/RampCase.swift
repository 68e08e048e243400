import Physics
import Testing

/// One ramp case: zone, start temperature, outdoor `a + b·t`, heat input.
struct RampCase: CustomTestStringConvertible, Sendable {
    var ua: Double
    var capacitanceKWh: Double
    var initial: Double
    var outdoor: Double
    var slopeKPerHour: Double
    var heatW: Double

    var testDescription: String {
        "UA \(ua), C \(capacitanceKWh), T0 \(initial), T_out \(outdoor) \(slopeKPerHour) K/h, Q \(heatW) W"
    }

    func segment() throws -> ZoneSegment {
        try ZoneSegment(
            parameters: ZoneParameters(uaWPerK: ua, capacitanceKWhPerK: capacitanceKWh),
            initialCelsius: initial, outdoorCelsius: outdoor,
            outdoorSlopeKPerSecond: slopeKPerHour / 3600, heatInputW: heatW)
    }

    static let all: [RampCase] = [
        RampCase(ua: 80, capacitanceKWh: 2.3, initial: 20, outdoor: 0, slopeKPerHour: 0, heatW: 0),
        RampCase(ua: 80, capacitanceKWh: 2.3, initial: 20, outdoor: 0, slopeKPerHour: 2, heatW: 0),
        RampCase(ua: 80, capacitanceKWh: 2.3, initial: 19.75, outdoor: -3, slopeKPerHour: -1.5, heatW: 2000),
        RampCase(ua: 120, capacitanceKWh: 1.0, initial: 26, outdoor: 31, slopeKPerHour: 0.8, heatW: -3000),
        RampCase(ua: 40, capacitanceKWh: 4.0, initial: 5, outdoor: 12, slopeKPerHour: -10, heatW: 1000),
        RampCase(ua: 300, capacitanceKWh: 0.2, initial: 21, outdoor: 15, slopeKPerHour: 6, heatW: 80),
    ]
}
