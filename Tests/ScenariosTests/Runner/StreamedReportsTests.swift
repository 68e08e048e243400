import Foundation
import Reports
@testable import ScenarioFormat
@testable import Scenarios
import Simulation
import Testing
@testable import Twin

/// Reports gathered while the run goes: the ledger keeps only what they ask about at the end, a stay
/// booked after its own check-in moment still counts from that moment, and the spooled timeseries
/// reads back as written.
@Suite("Streamed reports")
struct StreamedReportsTests {
    /// A week in Budapest with a 0.3/kWh tariff and the heater on throughout; r1 is booked at 18:00 on
    /// its own check-in day (check-in 15:00), r2 well ahead.
    static let week: String = {
        var text = scenario(timeline: """
            { "at": "2026-01-09T00:00", "command": { "item": "flat-1/heating/switch", "value": "ON" } },
            { "at": "2026-01-09T12:00", "book": { "id": "r2", "guest": "guest", "listing": "flat-1", "checkIn": "2026-01-13", "checkOut": "2026-01-15", "guests": 1 } },
            { "at": "2026-01-10T18:00", "book": { "id": "r1", "guest": "guest", "listing": "flat-1", "checkIn": "2026-01-10", "checkOut": "2026-01-12", "guests": 2 } }
            """, expect: "")
        text = text.replacingOccurrences(of: #""end": "2026-01-10T00:00""#, with: #""end": "2026-01-16T00:00""#)
        return text.replacingOccurrences(of: #""users": ["#, with: #""tariff": { "perKWh": 0.3 }, "users": ["#)
    }()

    static func rows(_ csv: String) -> [[String]] {
        csv.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test func aWeekKeepsOnlyTheSnapshotsItsReportsAskAboutAtTheEnd() async throws {
        let scenario = try ScenarioDecoder.decode(Self.week, file: "week.json")
        let result = try await ScenarioRunner.run(scenario, options: World.Options(recordTimeseries: .minutes(15)))
        #expect(result.passed, "\(result.failures)")
        // 673 ticks were recorded; the ledger kept the run's ends, the 6 midnights and the 4 stay ends,
        // r1's check-in moment among them though it was past when r1 was booked.
        let kept = result.ledger.snapshots(listing: "flat-1").map { scenario.calendar.timestamp(at: $0.at) }
        #expect(kept == ["2026-01-09T00:00+01:00", "2026-01-10T00:00+01:00", "2026-01-10T15:00+01:00", "2026-01-11T00:00+01:00",
                         "2026-01-12T00:00+01:00", "2026-01-12T10:00+01:00", "2026-01-13T00:00+01:00", "2026-01-13T15:00+01:00",
                         "2026-01-14T00:00+01:00", "2026-01-15T00:00+01:00", "2026-01-15T10:00+01:00", "2026-01-16T00:00+01:00"])
        let files = Dictionary(uniqueKeysWithValues: try ReportWriter.render(result).map { ($0.name, $0.text) })
        let timeseries = Self.rows(try #require(files["timeseries.csv"]))
        #expect(timeseries.count == 7 * 96 + 1)
        // The daily energies add up to the run's, and the run's to the timeseries' last cumulative figure.
        let kpi = Self.rows(try #require(files["kpi.csv"]))
        let run = try #require(kpi.first { $0[0] == "listing" })
        #expect(run[5] == timeseries.last?[6])
        // Every stay's cost is its energy at the flat price: no piece of its window is missing, the late one's included.
        let stays = Self.rows(try #require(files["stays.csv"]))
        for id in ["r1", "r2"] {
            let row = try #require(kpi.first { $0[0] == "stay" && $0[1] == id })
            let energy = try #require(Double(row[5])), cost = try #require(Double(row[6]))
            #expect(energy > 10 && abs(cost - energy * 0.3) < 0.001, "\(id): \(row)")
            #expect(stays.first { $0[0] == id }?[7] == row[5])
            #expect(Double(row[8]).map { $0 > 1.9 && $0 <= 2.0 } == true, "\(id): peak \(row[8]) kW of a 2 kW heater")
        }
        #expect(kpi.first { $0[1] == "r1" }?[3] == "2026-01-10T15:00+01:00")
    }

    @Test func recentTicksKeepTheirOrderThroughGrowingWrappingAndForgetting() {
        func tick(_ minute: Int) -> MeterSnapshot {
            var devices = [DeviceMeter(id: "heating", type: "heating", isOn: minute % 30 == 0, powerW: Double(minute % 7),
                                       energyKWh: Double(minute) / 3, activeSeconds: Double(minute) * 1.5)]
            // Now and then a snapshot with another device list (kept whole by the ring).
            if minute % 105 == 0, minute > 0 { devices.append(DeviceMeter(id: "plug", type: "smartPlug", isOn: true, powerW: 60, energyKWh: 0.1, activeSeconds: 9)) }
            return MeterSnapshot(at: SimInstant(unixSeconds: Int64(minute) * 60), listing: "flat-1", indoorC: Double(minute), outdoorC: -Double(minute) / 7,
                                 guests: minute % 4, temperatureIntegralKs: Double(minute) * 11, discomfortKs: Double(minute) / 13,
                                 occupiedSeconds: Double(minute) * 17, devices: devices)
        }
        var ring = RecentTicks()
        var held: [Int] = []
        // Every third reading is kept whole (as the recorder keeps a listing's check-in and check-out moments).
        let whole = { (minute: Int) in minute % 45 == 0 }
        let point = { (minute: Int) in tick(minute).at.unixSeconds }
        // Forget the oldest while appending, so the stores wrap, and let them grow while wrapped.
        for minute in stride(from: 0, through: 600, by: 15) {
            ring.append(tick(minute), whole: whole(minute))
            held.append(minute)
            if minute % 90 == 0 {
                let horizon = minute - (minute < 300 ? 60 : 200)
                ring.forget(before: SimInstant(unixSeconds: Int64(horizon) * 60))
                held.removeAll { $0 < horizon }
            }
            // Every figure of every whole snapshot comes back as it went in, and every reading's point.
            #expect((0..<ring.wholeCount).map { ring[$0] } == held.filter(whole).map(tick), "after minute \(minute)")
            #expect(ring.count == held.count)
            let points = ring.points(from: .epoch, to: SimInstant(unixSeconds: 10_000 * 60))
            #expect(points.map(\.at.unixSeconds) == held.map(point) && points.map(\.totalEnergyKWh) == held.map { tick($0).totalEnergyKWh },
                    "after minute \(minute)")
        }
        let at = { (minute: Int) in SimInstant(unixSeconds: Int64(minute) * 60) }
        #expect(ring.snapshots(from: at(540), to: at(540)).map(\.indoorC) == [540])
        #expect(ring.snapshots(from: at(525), to: at(525)).isEmpty, "not kept whole")
        #expect(ring.points(from: at(525), to: at(525)).map(\.totalEnergyKWh) == [tick(525).totalEnergyKWh])
        #expect(ring.snapshots(from: at(541), to: at(554)).isEmpty && ring.points(from: at(541), to: at(554)).isEmpty)
        #expect(ring.snapshots(from: at(0), to: at(340)).isEmpty && ring.points(from: at(0), to: at(340)).isEmpty, "forgotten before minute 340")
        #expect(ring.snapshots(from: at(500), to: at(590)).map(\.indoorC) == [540, 585])
        #expect(ring.points(from: at(500), to: at(555)).map(\.at) == [510, 525, 540, 555].map(at))
        ring.forget(before: SimInstant(unixSeconds: 10_000 * 60))
        #expect(ring.count == 0 && ring.wholeCount == 0 && ring.snapshots(from: .epoch, to: at(10_000)).isEmpty)
        // Emptied, it takes readings again, with either device list.
        ring.append(tick(10_005), whole: true)
        ring.append(tick(10_020), whole: false)
        ring.append(tick(10_080), whole: true)
        #expect((0..<ring.wholeCount).map { ring[$0] } == [tick(10_005), tick(10_080)])
        #expect(ring.points(from: at(10_000), to: at(10_100)).map(\.at) == [10_005, 10_020, 10_080].map(at))
    }

    @Test func theSpoolReadsBackItsPiecesWholeFromMemoryOrFromItsFile() throws {
        let pieces = ["time,listing\n", "2026-01-09T00:00+01:00,lakás-ő\n", String(repeating: "é", count: 700) + "\n", "z\n"]
        for limit in [1 << 20, 16] {  // all in memory; to the file after the first piece
            let spool = TextSpool(memoryLimit: limit)
            pieces.forEach(spool.append)
            var read: [String] = []
            try spool.read(for: "timeseries.csv") { read.append($0) }
            #expect(read == pieces, "memory limit \(limit)")
        }
    }

    @Test func aSpoolThatCannotBeWrittenFailsWhenReadNamingTheFileAndTheFix() throws {
        let spool = TextSpool(memoryLimit: 4, directory: "/nonexistent-rental-twin-directory")
        spool.append("time,listing\n")
        do {
            try spool.read(for: "out/timeseries.csv") { _ in Issue.record("a piece was handed out") }
            Issue.record("no error")
        } catch {
            #expect(error.code == .writeFailed)
            #expect(error.message.contains("out/timeseries.csv") && error.message.contains("TMPDIR") && error.message.contains("no such file"),
                    "\(error.message)")
        }
    }
}
