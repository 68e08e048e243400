import Reports
import Simulation
import Testing

@Suite("stays.csv")
struct StaysReportTests {
    @Test func matchesTheGoldenFile() throws {
        let f = try ReportsFixture()
        try GoldenFile.expectMatches(try StaysReport.csv(ledger: f.ledger, stays: f.stays, end: f.end), "stays.csv")
    }

    @Test func rowsAreSortedQuotedAndClippedToTheRun() throws {
        let f = try ReportsFixture()
        let lines = try StaysReport.csv(ledger: f.ledger, stays: f.stays, start: f.start, end: f.end)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "reservation,listing,guest,check_in,check_out,nights,status,energy_kwh,mean_indoor_c,discomfort_kh")
        #expect(lines.dropFirst().map { $0.prefix(2) } == ["r0", "r1", "r2", "r3", "r4", "r5", ""])
        // Began before the run: clipped to its start (27 h of 1.2 kWh/h, mean 18 + 0.02·27 °C, 0.5 K·27 h).
        #expect(lines[1] == "r0,loft,dave,2026-03-27,2026-03-29,2,checkedOut,32.400,18.54,13.500")
        // Runs past the end: 3 h measured.
        #expect(lines[2].hasPrefix("r1,flat-1,\"Bob \"\"Builder\"\" Smith\",2026-03-30,2026-03-31,1,checkedIn,1.680,"))
        #expect(lines[2].hasSuffix(",0.900"))
        #expect(lines[3] == "r2,loft,carol,2026-03-29,2026-03-30,1,cancelled,,,")
        // Across the clock change: 15:00+01:00 to 10:00+02:00 is 18 h.
        #expect(lines[4].hasPrefix("r3,flat-1,\"Kovács, Anna\",2026-03-28,2026-03-29,1,checkedOut,10.080,"))
        #expect(lines[4].hasSuffix(",5.400"))
        #expect(lines[5] == "r4,loft,erin,2026-04-02,2026-04-04,2,confirmed,,,")
        #expect(lines[6] == "r5,loft,frank,2026-03-25,2026-03-26,1,checkedOut,,,")
    }

    @Test func withoutAnExplicitStartEachListingsFirstSnapshotIsTheStart() throws {
        let f = try ReportsFixture()
        #expect(try StaysReport.csv(ledger: f.ledger, stays: f.stays, end: f.end)
            == StaysReport.csv(ledger: f.ledger, stays: f.stays, start: f.start, end: f.end))
    }

    @Test func aCancelledStayNeedsNoSnapshots() throws {
        let f = try ReportsFixture()
        let cancelled = f.stays.filter(\.isCancelled)
        #expect(try StaysReport.csv(ledger: EnergyLedger(), stays: cancelled, end: f.end)
            == "reservation,listing,guest,check_in,check_out,nights,status,energy_kwh,mean_indoor_c,discomfort_kh\nr2,loft,carol,2026-03-29,2026-03-30,1,cancelled,,,\n")
    }

    @Test func aStayWithoutItsSnapshotsIsAnError() throws {
        let f = try ReportsFixture()
        var ledger = EnergyLedger()
        for s in f.snapshots where s.at == f.start || s.at == f.end { ledger.record(s) }
        do {
            _ = try StaysReport.csv(ledger: ledger, stays: f.stays, end: f.end)
            Issue.record("r1's check-in snapshot is missing, yet the report was written")
        } catch {
            #expect(error.code == .noSnapshot)
        }
    }
}
