import Reports
import Simulation
import Testing

@Suite("timeseries.csv")
struct TimeseriesReportTests {
    @Test func matchesTheGoldenFile() throws {
        let f = try ReportsFixture()
        try GoldenFile.expectMatches(try TimeseriesReport.csv(ledger: f.ledger, listings: ["loft", "flat-1", "loft"], interval: f.tick,
                                                              start: f.start, end: f.end, calendar: f.calendar),
                                     "timeseries.csv")
    }

    @Test func timesAreLocalWithTheirOffsetAcrossTheSpringChange() throws {
        let f = try ReportsFixture()
        let times = try TimeseriesReport.csv(ledger: f.ledger, listings: ["flat-1"], interval: f.tick, start: f.start, end: f.end,
                                             calendar: f.calendar)
            .split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[0]) }
        #expect(times == ["2026-03-28T06:00+01:00", "2026-03-28T12:00+01:00", "2026-03-28T18:00+01:00", "2026-03-29T00:00+01:00",
                          "2026-03-29T07:00+02:00", "2026-03-29T13:00+02:00", "2026-03-29T19:00+02:00", "2026-03-30T01:00+02:00",
                          "2026-03-30T07:00+02:00", "2026-03-30T13:00+02:00"])
    }

    @Test("the tick timestamps reuse their parts and write what timestamp(at:) writes, through both clock changes")
    func tickTimestampsAreTheCalendarsTimestamps() throws {
        for zone in ["Europe/Budapest", "America/St_Johns", "UTC"] {
            let calendar = try LocalCalendar(identifier: zone)
            var timestamps = LocalCalendar.Timestamps(calendar: calendar)
            // 2026-03-27 to 2026-11-02 at 7 min 13.5 s: odd times of day, seconds and milliseconds, both changes of St John's and Budapest.
            var instant = SimInstant(unixSeconds: 1_774_569_600)
            var checked = 0
            while instant < SimInstant(unixSeconds: 1_793_577_600) {
                #expect(timestamps.timestamp(at: instant) == calendar.timestamp(at: instant), "\(zone) \(instant)")
                instant = instant + .milliseconds(433_500)
                checked += 1
            }
            #expect(checked > 40_000)
            // Back in time, too (a new ledger-built report may start anywhere).
            #expect(timestamps.timestamp(at: SimInstant(unixSeconds: 0)) == calendar.timestamp(at: SimInstant(unixSeconds: 0)))
        }
        let budapest = try LocalCalendar(identifier: "Europe/Budapest")
        var timestamps = LocalCalendar.Timestamps(calendar: budapest)
        #expect(timestamps.timestamp(at: SimInstant(unixSeconds: 1_792_888_200)) == "2026-10-25T02:30+02:00")
        #expect(timestamps.timestamp(at: SimInstant(unixSeconds: 1_792_891_800)) == "2026-10-25T02:30+01:00")
    }

    @Test func theRepeatedAutumnHourIsTellApartByItsOffset() throws {
        let calendar = try LocalCalendar(identifier: "Europe/Budapest")
        let start = SimInstant(unixSeconds: 1_792_886_400)  // 2026-10-25T00:00:00Z = 02:00+02:00
        #expect(start.description == "2026-10-25T00:00:00Z")
        var ledger = EnergyLedger()
        for k in Int64(0)...4 {
            ledger.record(MeterSnapshot(at: start + .minutes(30 * k), listing: "flat-1", indoorC: -0.001, outdoorC: 0, guests: 0,
                                        temperatureIntegralKs: 0, discomfortKs: 0, occupiedSeconds: 0, devices: []))
        }
        let csv = try TimeseriesReport.csv(ledger: ledger, listings: ["flat-1"], interval: .minutes(30), start: start,
                                           end: start + .minutes(120), calendar: calendar)
        #expect(csv == """
            time,listing,indoor_c,outdoor_c,guests,power_w,energy_kwh
            2026-10-25T02:00+02:00,flat-1,0.00,0.00,0,0.0,0.000
            2026-10-25T02:30+02:00,flat-1,0.00,0.00,0,0.0,0.000
            2026-10-25T02:00+01:00,flat-1,0.00,0.00,0,0.0,0.000
            2026-10-25T02:30+01:00,flat-1,0.00,0.00,0,0.0,0.000
            2026-10-25T03:00+01:00,flat-1,0.00,0.00,0,0.0,0.000

            """)
    }

    @Test func aNonPositiveIntervalIsRefused() throws {
        let f = try ReportsFixture()
        for interval in [SimDuration.zero, .minutes(-5)] {
            do {
                _ = try TimeseriesReport.csv(ledger: f.ledger, listings: ["flat-1"], interval: interval, start: f.start, end: f.end,
                                             calendar: f.calendar)
                Issue.record("interval \(interval) was accepted")
            } catch {
                #expect(error.code == .invalidInterval)
            }
        }
    }

    @Test func aTickWithoutASnapshotIsAnError() throws {
        let f = try ReportsFixture()
        do {
            _ = try TimeseriesReport.csv(ledger: f.ledger, listings: ["flat-1"], interval: .hours(5), start: f.start, end: f.end,
                                         calendar: f.calendar)
            Issue.record("ticks without snapshots were accepted")
        } catch {
            #expect(error.code == .noSnapshot)
        }
    }

    /// A row as ``CSVWriter`` writes the same seven fields: what the byte-level row must equal.
    private static func writerRow(time: String, _ snapshot: MeterSnapshot, since start: MeterSnapshot) throws(ReportsError) -> String {
        CSVWriter.line([time, snapshot.listing, try CSVWriter.decimal(snapshot.indoorC, places: 2),
                        try CSVWriter.decimal(snapshot.outdoorC, places: 2), String(snapshot.guests),
                        try CSVWriter.decimal(snapshot.totalPowerW, places: 1),
                        try CSVWriter.decimal(snapshot.energyKWh(since: start), places: 3)])
    }

    @Test("a row written byte by byte is the row CSVWriter writes from the same figures")
    func byteRowsMatchTheWriter() throws {
        var random = SplitMix64(seed: 2031)
        func figure(_ scale: Double) -> Double {
            let value = Double(random.next() % 2_000_001) / 1_000_000 - 1  // −1…1 in millionths: many halves at 2 and 3 places
            return value * scale
        }
        let at = SimInstant(unixSeconds: 1_767_225_600)
        let start = MeterSnapshot(at: at, listing: "flat-1", indoorC: 20, outdoorC: 0, guests: 0, temperatureIntegralKs: 0, discomfortKs: 0,
                                  occupiedSeconds: 0, devices: [DeviceMeter(id: "heating", type: "thermostat", isOn: false, powerW: 0,
                                                                            energyKWh: 0.25, activeSeconds: 0)])
        for (index, listing) in ["flat-1", "loft, top floor", "the \"blue\" flat", "Zürich-3"].enumerated() {
            for _ in 0..<2_000 {
                let snapshot = MeterSnapshot(at: at + .minutes(15), listing: listing, indoorC: figure(40), outdoorC: figure(30),
                                             guests: Int(random.next() % 7) - (index == 3 ? 3 : 0), temperatureIntegralKs: 0,
                                             discomfortKs: 0, occupiedSeconds: 0,
                                             devices: [DeviceMeter(id: "heating", type: "thermostat", isOn: true, powerW: figure(2_000).magnitude,
                                                                   energyKWh: figure(5_000).magnitude, activeSeconds: 0),
                                                       DeviceMeter(id: "plug", type: "plug", isOn: true, powerW: figure(60).magnitude,
                                                                   energyKWh: figure(3).magnitude, activeSeconds: 0)])
                var bytes: [UInt8] = []
                try TimeseriesReport.appendRow(&bytes, time: .init("2026-01-01T00:15+01:00"), listing: .init(listing), snapshot, since: start)
                #expect(String(decoding: bytes, as: UTF8.self) == (try Self.writerRow(time: "2026-01-01T00:15+01:00", snapshot, since: start)))
            }
        }
    }

    @Test("a broken meter throws report.nonFinite and leaves no part of its row")
    func aNonFiniteFigureWritesNothing() {
        let at = SimInstant(unixSeconds: 1_767_225_600)
        for broken in [Double.nan, .infinity, -.infinity] {
            let snapshot = MeterSnapshot(at: at, listing: "flat-1", indoorC: 21, outdoorC: broken, guests: 1, temperatureIntegralKs: 0,
                                         discomfortKs: 0, occupiedSeconds: 0, devices: [])
            var bytes = Array("kept\n".utf8)
            do {
                try TimeseriesReport.appendRow(&bytes, time: .init("t"), listing: .init(snapshot.listing), snapshot, since: snapshot)
                Issue.record("\(broken) was written")
            } catch {
                #expect(error.code == .nonFiniteNumber)
            }
            #expect(bytes == Array("kept\n".utf8))
        }
    }
}
