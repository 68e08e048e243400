import Reports
import Simulation
import Testing

@Suite("energy-daily.csv")
struct EnergyDailyReportTests {
    @Test func matchesTheGoldenFile() throws {
        let f = try ReportsFixture()
        try GoldenFile.expectMatches(try EnergyDailyReport.csv(ledger: f.ledger, calendar: f.calendar, start: f.start, end: f.end),
                                     "energy-daily.csv")
    }

    @Test func theSpringForwardDayHas23HoursAndPartialDaysTheirShare() throws {
        let f = try ReportsFixture()
        let rows = try EnergyDailyReport.csv(ledger: f.ledger, calendar: f.calendar, start: f.start, end: f.end)
            .split(separator: "\n").map(String.init)
        #expect(rows.first == "date,listing,device,type,energy_kwh,runtime_h")
        #expect(rows.count == 1 + 3 * 6)
        #expect(rows.contains("2026-03-28,flat-1,heating,heating,9.000,4.500"))   // 06:00 → midnight: 18 h
        #expect(rows.contains("2026-03-29,flat-1,heating,heating,11.500,5.750"))  // 23 h
        #expect(rows.contains("2026-03-30,flat-1,heating,heating,9.000,4.500"))   // midnight → 18:00
        #expect(rows.contains("2026-03-29,flat-1,door,lock,0.000,0.000"))
        #expect(rows.contains("2026-03-28,loft,plug,smartPlug,0.000,0.000"))      // −1e-13 kWh
    }

    @Test func sameInputGivesSameBytesWhateverTheRecordingOrder() throws {
        let f = try ReportsFixture()
        let a = try EnergyDailyReport.csv(ledger: f.ledger, calendar: f.calendar, start: f.start, end: f.end)
        let b = try EnergyDailyReport.csv(ledger: f.shuffledLedger(seed: 42), calendar: f.calendar, start: f.start, end: f.end)
        #expect(Array(a.utf8) == Array(b.utf8))
    }

    @Test func anEmptyRangeIsTheHeaderOnlyAndABackwardRangeIsAnError() throws {
        let f = try ReportsFixture()
        #expect(try EnergyDailyReport.csv(ledger: f.ledger, calendar: f.calendar, start: f.start, end: f.start)
            == "date,listing,device,type,energy_kwh,runtime_h\n")
        #expect(throws: ReportsError(.invalidRange, "The daily energy report range ends at \(f.start), before it starts at \(f.end); pass the scenario start and end.")) {
            try EnergyDailyReport.csv(ledger: f.ledger, calendar: f.calendar, start: f.end, end: f.start)
        }
    }

    @Test func midnightToMidnightGivesWholeDaysOnly() throws {
        let f = try ReportsFixture()
        let midnight = f.calendar.startOfDay(try #require(CivilDate(iso: "2026-03-29")))
        let next = f.calendar.startOfDay(try #require(CivilDate(iso: "2026-03-30")))
        let csv = try EnergyDailyReport.csv(ledger: f.ledger, calendar: f.calendar, start: midnight, end: next)
        let dates = Set(csv.split(separator: "\n").dropFirst().map { $0.prefix(10) })
        #expect(dates == ["2026-03-29"])
    }

    @Test func aMissingMidnightSnapshotIsReportedNotGuessed() throws {
        let f = try ReportsFixture()
        let midnight = f.calendar.startOfDay(try #require(CivilDate(iso: "2026-03-29")))
        var ledger = EnergyLedger()
        for s in f.snapshots where s.at != midnight { ledger.record(s) }
        #expect(throws: ReportsError.self) {
            try EnergyDailyReport.csv(ledger: ledger, calendar: f.calendar, start: f.start, end: f.end)
        }
        do {
            _ = try EnergyDailyReport.csv(ledger: ledger, calendar: f.calendar, start: f.start, end: f.end)
        } catch {
            #expect(error.code == .noSnapshot)
        }
    }
}
