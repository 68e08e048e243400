import Simulation
import Testing
import Weather

struct WeatherSeriesTests {
    /// 00:00 −4 °C / 80 %, 06:00 +2 °C / 60 %, 12:00 +8 °C (Rain) on 2026-01-09 UTC.
    func series(_ interpolation: WeatherSeries.Interpolation) throws -> WeatherSeries {
        try WeatherSeries(points: [
            .init(at: utc("2026-01-09T00:00Z"), sample: WeatherSample(tempC: -4, humidity: 80, condition: .snow, windMps: 2)),
            .init(at: utc("2026-01-09T06:00Z"), sample: WeatherSample(tempC: 2, humidity: 60, condition: .clouds, windMps: 4)),
            .init(at: utc("2026-01-09T12:00Z"), sample: WeatherSample(tempC: 8, humidity: 50, condition: .rain, windMps: 6)),
        ], interpolation: interpolation)
    }

    @Test("linear interpolation between points")
    func linear() throws {
        let s = try series(.linear)
        let mid = s.sample(at: try utc("2026-01-09T03:00Z"))
        #expect(abs(mid.tempC - -1) < 1e-12)
        #expect(abs(mid.humidity - 70) < 1e-12)
        #expect(abs(mid.windMps - 3) < 1e-12)
        #expect(mid.condition == .snow)  // discrete fields come from the earlier point
        #expect(abs(s.sample(at: try utc("2026-01-09T07:30Z")).tempC - 3.5) < 1e-12)
        #expect(s.sample(at: try utc("2026-01-09T06:00Z")).tempC == 2)
        #expect(s.sample(at: try utc("2026-01-09T06:00Z")).condition == .clouds)
    }

    @Test("step interpolation holds each point until the next")
    func step() throws {
        let s = try series(.step)
        #expect(s.sample(at: try utc("2026-01-09T05:59:59Z")).tempC == -4)
        #expect(s.sample(at: try utc("2026-01-09T05:59:59Z")).humidity == 80)
        #expect(s.sample(at: try utc("2026-01-09T06:00Z")).tempC == 2)
        #expect(s.sample(at: try utc("2026-01-09T11:00Z")).tempC == 2)
        let segment = s.outdoorSegment(at: try utc("2026-01-09T08:00Z"))
        #expect(segment.slopeKPerSecond == 0)
        #expect(segment.start == (try utc("2026-01-09T06:00Z")))
        #expect(segment.end == (try utc("2026-01-09T12:00Z")))
    }

    @Test("before the first point the first value holds, after the last the last",
          arguments: WeatherSeries.Interpolation.allCases)
    func edges(_ interpolation: WeatherSeries.Interpolation) throws {
        let s = try series(interpolation)
        #expect(s.sample(at: try utc("2025-12-31T00:00Z")).tempC == -4)
        #expect(s.sample(at: try utc("2026-01-08T23:59:59Z")).condition == .snow)
        #expect(s.sample(at: try utc("2026-01-09T12:00Z")).tempC == 8)
        #expect(s.sample(at: try utc("2027-06-01T00:00Z")).tempC == 8)
        #expect(s.sample(at: try utc("2027-06-01T00:00Z")).condition == .rain)

        let before = s.outdoorSegment(at: try utc("2025-12-31T00:00Z"))
        #expect(before.start == nil)
        #expect(before.end == (try utc("2026-01-09T00:00Z")))
        #expect(before.startC == -4 && before.slopeKPerSecond == 0)
        let after = s.outdoorSegment(at: try utc("2027-06-01T00:00Z"))
        #expect(after.start == (try utc("2026-01-09T12:00Z")))
        #expect(after.end == nil)
        #expect(after.startC == 8 && after.slopeKPerSecond == 0)
    }

    @Test("linear segments run between points with the right slope")
    func linearSegments() throws {
        let s = try series(.linear)
        let segment = s.outdoorSegment(at: try utc("2026-01-09T07:00Z"))
        #expect(segment.start == (try utc("2026-01-09T06:00Z")))
        #expect(segment.end == (try utc("2026-01-09T12:00Z")))
        #expect(segment.startC == 2)
        #expect(segment.slopeKPerSecond == 6.0 / 21_600)
    }

    @Test("temperature equals start + slope·(t − start) of its segment, exactly",
          arguments: WeatherSeries.Interpolation.allCases)
    func segmentsExact(_ interpolation: WeatherSeries.Interpolation) throws {
        let source = WeatherSource.series(try series(interpolation))
        try SegmentChecks.assertExact(source: { source.sample(at: $0).tempC }, segment: { source.outdoorSegment(at: $0) },
                                      from: utc("2026-01-08T20:00Z"), to: utc("2026-01-09T16:00Z"))
    }
}

/// Shared checks of the segment contract.
enum SegmentChecks {
    /// For 2 000 seeded random instants in `[from, to)`: the segment contains the instant, and
    /// the source's temperature is bit-identical to `startC + slope · (t − start)`.
    static func assertExact(source: (SimInstant) -> Double, segment: (SimInstant) -> OutdoorSegment,
                            from: SimInstant, to: SimInstant) throws {
        var random = SplitMix64(seed: 7)
        let span = UInt64((to - from).milliseconds)
        for _ in 0..<2_000 {
            let t = from + .milliseconds(Int64(random.next() % span))
            let piece = segment(t)
            #expect(piece.contains(t), "\(piece) should contain \(t)")
            let expected = piece.start.map { piece.startC + piece.slopeKPerSecond * (t - $0).seconds } ?? piece.startC
            #expect(source(t) == expected, "at \(t) in \(piece)")
            #expect(piece.temperatureC(at: t) == expected)
            if let end = piece.end {
                #expect(segment(end).start == end, "the next segment starts where \(piece) ends")
            }
        }
    }
}
