import Foundation
import Simulation
import Testing
import Weather

struct DiurnalWeatherTests {
    func budapest(seed: UInt64, noiseK: Double = 0.5, city: String = "Budapest") throws -> DiurnalWeather {
        try DiurnalWeather(meanC: -2, amplitudeK: 4, minAtHour: 5, noiseK: noiseK, seed: seed, city: city,
                           calendar: budapestCalendar())
    }

    func instants() throws -> [SimInstant] {
        let start = try utc("2026-01-09T00:00Z")
        return (0..<200).map { start + .minutes(Int64($0) * 37) }
    }

    @Test("the same seed gives the same values whatever the query order")
    func reproducible() throws {
        let times = try instants()
        let a = try budapest(seed: 42), b = try budapest(seed: 42)
        let forward = times.map { a.sample(at: $0).tempC }
        var backward: [SimInstant: Double] = [:]
        for t in times.reversed() { backward[t] = b.sample(at: t).tempC }
        let shuffledOrder = times.enumerated().sorted { ($0.offset * 7919) % 200 < ($1.offset * 7919) % 200 }.map(\.element)
        var shuffled: [SimInstant: Double] = [:]
        for t in shuffledOrder { shuffled[t] = a.sample(at: t).tempC }
        for (i, t) in times.enumerated() {
            #expect(forward[i] == backward[t])
            #expect(forward[i] == shuffled[t])
        }
    }

    @Test("a knot is its definition: the local hour's wave plus the noise of the stream named weather/<city>/<k>")
    func knotIsItsDefinition() throws {
        let calendar = try budapestCalendar()
        for city in ["Budapest", "São Paulo"] {
            let source = try budapest(seed: 42, city: city)
            // Both daylight-saving transitions of 2026, and hours before 1970 (negative k).
            let starts = [try utc("2026-03-28T20:00Z"), try utc("2026-10-24T20:00Z"), try utc("1969-12-31T20:00Z")]
            for start in starts {
                for step in 0..<30 {
                    let hour = start.unixMilliseconds / 3_600_000 + Int64(step) - (start.unixMilliseconds < 0 ? 1 : 0)
                    let instant = SimInstant(unixMilliseconds: hour * 3_600_000)
                    let hourOfDay = Double(calendar.localDateTime(at: instant).time.millisecondOfDay) / 3_600_000
                    var random = SplitMix64.stream(seed: 42, named: "weather/\(city)/\(hour)")
                    let expected = -2 - 4 * cos(2 * Double.pi * (hourOfDay - 5) / 24) + 0.5 * random.nextGaussian()
                    #expect(source.knotC(hour: hour) == expected, "\(city) \(hour)")
                }
            }
        }
    }

    @Test("noise depends on the seed and the city, and has about the configured size")
    func seedSensitive() throws {
        let times = try instants()
        let a = try budapest(seed: 42), b = try budapest(seed: 43), c = try budapest(seed: 42, city: "Vienna")
        let clean = try budapest(seed: 42, noiseK: 0)
        let differencesSeed = times.filter { a.sample(at: $0).tempC != b.sample(at: $0).tempC }.count
        let differencesCity = times.filter { a.sample(at: $0).tempC != c.sample(at: $0).tempC }.count
        #expect(differencesSeed > 190)
        #expect(differencesCity > 190)
        // Knot noise is N(0, 0.5²): its sample standard deviation over 500 hours is near 0.5.
        let start = try utc("2026-01-01T00:00Z")
        let hour0 = start.unixMilliseconds / 3_600_000
        let deviations = (0..<500).map { a.knotC(hour: hour0 + Int64($0)) - clean.knotC(hour: hour0 + Int64($0)) }
        let mean = deviations.reduce(0, +) / 500
        let sd = (deviations.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / 499).squareRoot()
        #expect(abs(mean) < 0.1)
        #expect(sd > 0.4 && sd < 0.6)
    }

    @Test("without noise the minimum is at minAtHour local time, daylight saving included",
          arguments: ["2026-01-09", "2026-03-29", "2026-07-15", "2026-10-25"])
    func minimumAtLocalHour(_ day: String) throws {
        let calendar = try budapestCalendar()
        let source = try budapest(seed: 1, noiseK: 0)
        let date = try LocalCalendar.parseDate(day)
        let dayStart = calendar.startOfDay(date)
        let hours = Int64(calendar.lengthOfDay(date).milliseconds / 3_600_000)
        let knots = (0..<hours).map { dayStart + .hours($0) }
        let coldest = try #require(knots.min { source.sample(at: $0).tempC < source.sample(at: $1).tempC })
        #expect(calendar.localDateTime(at: coldest).time.hour == 5)
        #expect(abs(source.sample(at: coldest).tempC - -6) < 1e-12)
        let warmest = try #require(knots.max { source.sample(at: $0).tempC < source.sample(at: $1).tempC })
        #expect(calendar.localDateTime(at: warmest).time.hour == 17)
        #expect(abs(source.sample(at: warmest).tempC - 2) < 1e-12)
    }

    @Test("the minimum moves one UTC hour earlier in summer time")
    func daylightSavingShiftsUTC() throws {
        let source = try budapest(seed: 1, noiseK: 0)
        #expect(abs(source.sample(at: try utc("2026-01-09T04:00Z")).tempC - -6) < 1e-12)  // 05:00 CET
        #expect(abs(source.sample(at: try utc("2026-07-15T03:00Z")).tempC - -6) < 1e-12)  // 05:00 CEST
        #expect(source.sample(at: try utc("2026-07-15T04:00Z")).tempC > -5.9)
    }

    @Test("the curve is linear between hourly knots, and exact against its segments")
    func segments() throws {
        let source = try budapest(seed: 9)
        let t = try utc("2026-01-09T10:20Z")
        let segment = source.outdoorSegment(at: t)
        #expect(segment.start == (try utc("2026-01-09T10:00Z")))
        #expect(segment.end == (try utc("2026-01-09T11:00Z")))
        let hour = (try utc("2026-01-09T10:00Z")).unixMilliseconds / 3_600_000
        #expect(segment.startC == source.knotC(hour: hour))
        #expect(source.sample(at: try utc("2026-01-09T11:00Z")).tempC == source.knotC(hour: hour + 1))
        let wrapped = WeatherSource.diurnal(source)
        try SegmentChecks.assertExact(source: { wrapped.sample(at: $0).tempC }, segment: { wrapped.outdoorSegment(at: $0) },
                                      from: utc("2026-03-28T00:00Z"), to: utc("2026-03-30T00:00Z"))
    }

    @Test("non-temperature fields come from the template")
    func template() throws {
        let template = try WeatherSample(tempC: 0, humidity: 55, condition: .clouds, windMps: 4)
        let source = try DiurnalWeather(meanC: 10, amplitudeK: 5, minAtHour: 4, seed: 0, city: "Budapest",
                                        calendar: budapestCalendar(), template: template)
        let sample = source.sample(at: try utc("2026-05-01T12:34Z"))
        #expect(sample.humidity == 55 && sample.condition == .clouds && sample.windMps == 4)
        #expect(sample.tempC != 0)
    }
}
