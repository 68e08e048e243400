import Physics
import Simulation
import Testing

@Suite("CrossingSearch and temperatureAndIntegral: the segment's answers, bit for bit")
struct CrossingSearchTests {
    /// A random segment: with or without a ramp, heated or cooled.
    static func segment(_ random: inout SplitMix64) throws -> ZoneSegment {
        try ZoneSegment(
            parameters: try ZoneParameters(
                uaWPerK: Double.random(in: 30...300, using: &random),
                capacitanceKWhPerK: Double.random(in: 0.3...5, using: &random)),
            initialCelsius: Double.random(in: 10...30, using: &random),
            outdoorCelsius: Double.random(in: -15...35, using: &random),
            outdoorSlopeKPerSecond: Int.random(in: 0..<4, using: &random) == 0 ? 0 : Double.random(in: -8...8, using: &random) / 3600,
            heatInputW: Double.random(in: -4000...4000, using: &random))
    }

    @Test func aSearchAnswersAsTheSegmentDoesWhateverItWasAskedBefore() throws {
        var random = SplitMix64(seed: 0x5EA2C4)
        var crossings = 0
        for _ in 0..<1_000 {
            let segment = try Self.segment(&random)
            var search = CrossingSearch(segment)
            let horizon = [Double.random(in: 0...(2 * 86_400), using: &random), .infinity, 0][Int.random(in: 0..<6, using: &random) % 3]
            let t0 = segment.initialCelsius
            // The questions a zone asks, in its order, plus repeats and odd inputs.
            let thresholds = [t0 + 0.1, t0 - 0.1, Double.random(in: 5...35, using: &random), t0, t0 + 0.1, .nan]
            for threshold in thresholds {
                let window = Double.random(in: 0...horizon.clamped(to: 0...(2 * 86_400)), using: &random)
                #expect(search.mayReach(threshold, within: window) == segment.mayReach(threshold, within: window))
                #expect(search.mayReach(threshold, within: horizon) == segment.mayReach(threshold, within: horizon))
                let expected = segment.firstCrossing(of: threshold, within: horizon)
                let found = search.firstCrossing(of: threshold, within: horizon)
                #expect(found?.bitPattern == expected?.bitPattern, "T*=\(threshold) H=\(horizon) \(segment)")
                if expected != nil { crossings += 1 }
            }
        }
        #expect(crossings > 1_000)
    }

    @Test func temperatureAndIntegralAreTheSeparateValues() throws {
        var random = SplitMix64(seed: 0x1A7E)
        for _ in 0..<2_000 {
            let segment = try Self.segment(&random)
            let seconds = [0, Double.random(in: 0...600, using: &random), Double.random(in: 0...(30 * 86_400), using: &random)][Int.random(in: 0..<3, using: &random)]
            let both = segment.temperatureAndIntegral(at: seconds)
            #expect(both.celsius.bitPattern == segment.temperature(at: seconds).bitPattern)
            #expect(both.integralKelvinSeconds.bitPattern == segment.integral(to: seconds).bitPattern)
        }
    }
}

extension Double {
    fileprivate func clamped(to range: ClosedRange<Double>) -> Double { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }
}
