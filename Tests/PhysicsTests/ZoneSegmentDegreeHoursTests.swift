import Foundation
import Physics
import Testing

@Suite("ZoneSegment: exact degree-hours")
struct ZoneSegmentDegreeHoursTests {
    /// Simpson on a 1 s grid of max(0, ±(T_c − T)) in K·h; kinks cost O(h²·|dT/dt|) ≈ 1e-8 K·h.
    static func numeric(_ segment: ZoneSegment, _ comfort: Double, _ seconds: Double, below: Bool) -> Double {
        NumericalReference.simpson(from: 0, to: seconds, intervals: Int(seconds / 2) * 2) {
            let gap = comfort - segment.temperature(at: $0)
            return max(0, below ? gap : -gap)
        } / 3600
    }

    @Test(
        "degree-hours below and above match quadrature to 1e-6 K·h",
        arguments: [
            // (T0, T_out, slope K/h, Q, comfort, hours)
            (20.0, 0.0, 2.0, 0.0, 19.0, 36.0),  // dips below and comes back: two crossings
            (20.0, 0.0, 2.0, 0.0, 18.0, 36.0),  // a shallower dip: minimum ≈ 17.16 °C
            (20.0, 0.0, 2.0, 0.0, 17.0, 36.0),  // never below: the minimum is above the line
            (18.0, 10.0, 0.0, 0.0, 20.0, 24.0),  // below all the time
            (22.0, 25.0, 0.0, 0.0, 20.0, 24.0),  // never below
            (21.0, 15.0, -1.0, 500.0, 20.0, 48.0),  // one crossing
        ])
    func againstQuadrature(
        initial: Double, outdoor: Double, slopeKPerHour: Double, heatW: Double, comfort: Double, hours: Double
    ) throws {
        let segment = try ZoneSegment(
            parameters: .typicalFlat, initialCelsius: initial, outdoorCelsius: outdoor,
            outdoorSlopeKPerSecond: slopeKPerHour / 3600, heatInputW: heatW)
        let seconds = hours * 3600
        let below = segment.degreeHours(below: comfort, upTo: seconds)
        let above = segment.degreeHours(above: comfort, upTo: seconds)
        #expect(abs(below - Self.numeric(segment, comfort, seconds, below: true)) <= 1e-6)
        #expect(abs(above - Self.numeric(segment, comfort, seconds, below: false)) <= 1e-6)
        // above − below = ∫(T − T_c) dt exactly.
        let signed = (segment.integral(to: seconds) - comfort * seconds) / 3600
        #expect(abs((above - below) - signed) <= 1e-9 * max(1, abs(signed)))
        #expect(below >= 0 && above >= 0)
    }

    @Test("all below: degree-hours are (T_c·t − ∫T dt)/3600 exactly")
    func allBelow() throws {
        let segment = try ZoneSegment(parameters: .typicalFlat, initialCelsius: 18, outdoorCelsius: 10, heatInputW: 0)
        let seconds = 24 * 3600.0
        let expected = (20 * seconds - segment.integral(to: seconds)) / 3600
        #expect(segment.degreeHours(below: 20, upTo: seconds) == expected)
        #expect(segment.degreeHours(above: 20, upTo: seconds) == 0)
        // Over the first hour the gap grows from 2 K to 2 + 8·(1 − e^(−1/28.75)) ≈ 2.27 K.
        let firstHour = segment.degreeHours(below: 20, upTo: 3600)
        #expect(firstHour > 2 && firstHour < 2.28)
    }

    @Test("no time, or a comfort line that is not a number, gives 0")
    func degenerate() throws {
        let segment = try ZoneSegment(parameters: .typicalFlat, initialCelsius: 18, outdoorCelsius: 10, heatInputW: 0)
        #expect(segment.degreeHours(below: 20, upTo: 0) == 0)
        #expect(segment.degreeHours(below: 20, upTo: -5) == 0)
        #expect(segment.degreeHours(below: 20, upTo: .nan) == 0)
        #expect(segment.degreeHours(below: .nan, upTo: 3600) == 0)
    }
}
