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
}
