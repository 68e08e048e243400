import Reports
import Simulation
import Testing

@Suite("The energy ledger: exact differences of recorded snapshots")
struct EnergyLedgerTests {
    private func snapshot(_ seconds: Int64, listing: String = "flat-1", energyKWh: Double, indoorC: Double = 20,
                          integralKs: Double = 0, discomfortKs: Double = 0) -> MeterSnapshot {
        MeterSnapshot(at: SimInstant(unixSeconds: seconds), listing: listing, indoorC: indoorC, outdoorC: 0, guests: 0,
                      temperatureIntegralKs: integralKs, discomfortKs: discomfortKs, occupiedSeconds: 0,
                      devices: [
                          DeviceMeter(id: "plug", type: "smartPlug", isOn: true, powerW: 60, energyKWh: 1, activeSeconds: 600),
                          DeviceMeter(id: "heating", type: "heating", isOn: true, powerW: 2_000, energyKWh: energyKWh,
                                      activeSeconds: energyKWh * 1_800),
                      ])
    }

    @Test func queriesAreDifferencesOfTheTwoEnds() throws {
        var ledger = EnergyLedger()
        ledger.record(snapshot(0, energyKWh: 1, integralKs: 0, discomfortKs: 0))
        ledger.record(snapshot(7_200, energyKWh: 5, integralKs: 7_200 * 21, discomfortKs: 3_600 * 1.5))
        let a = SimInstant(unixSeconds: 0), b = SimInstant(unixSeconds: 7_200)
        #expect(try ledger.energyKWh(listing: "flat-1", device: "heating", from: a, to: b) == 4)
        #expect(try ledger.energyKWh(listing: "flat-1", device: "plug", from: a, to: b) == 0)
        #expect(try ledger.energyKWh(listing: "flat-1", device: nil, from: a, to: b) == 4)
        #expect(try ledger.runtimeHours(listing: "flat-1", device: "heating", from: a, to: b) == 2)
        #expect(try ledger.discomfortKh(listing: "flat-1", from: a, to: b) == 1.5)
        #expect(try ledger.meanIndoorC(listing: "flat-1", from: a, to: b) == 21)
        #expect(try ledger.meanIndoorC(listing: "flat-1", from: b, to: b) == 20)
        #expect(try ledger.energyKWh(listing: "flat-1", device: nil, from: b, to: b) == 0)
    }

    @Test func snapshotsAreSortedAndARepeatedInstantKeepsTheLaterRecord() throws {
        var ledger = EnergyLedger()
        ledger.record(snapshot(300, energyKWh: 3))
        ledger.record(snapshot(100, energyKWh: 1))
        ledger.record(snapshot(200, energyKWh: 2))
        ledger.record(snapshot(200, energyKWh: 2.5))
        ledger.record(snapshot(100, listing: "loft", energyKWh: 9))
        #expect(ledger.snapshots(listing: "flat-1").map(\.at.unixSeconds) == [100, 200, 300])
        #expect(try ledger.snapshot(listing: "flat-1", at: SimInstant(unixSeconds: 200)).device("heating")?.energyKWh == 2.5)
        #expect(ledger.listings == ["flat-1", "loft"])
        #expect(ledger.snapshots(listing: "nowhere").isEmpty)
    }

    @Test func compactStorageGivesBackExactlyWhatWasRecorded() throws {
        var ledger = EnergyLedger(), reference: [SimInstant: MeterSnapshot] = [:]
        var energy = 0.1
        for i in 0..<500 {
            energy += Double(i % 7) * 0.013_7
            var s = snapshot(Int64(i * 900), energyKWh: energy, indoorC: 20 + Double(i % 11) / 3, integralKs: Double(i) * 1.5)
            s.guests = i % 3
            if i >= 300 { s.devices.append(DeviceMeter(id: "lock", type: "lock", isOn: false, powerW: 0, energyKWh: 0, activeSeconds: 0)) }
            s.devices.sort { $0.id < $1.id }
            ledger.record(s)
            reference[s.at] = s
        }
        ledger.record(snapshot(900 * 10, energyKWh: 42))  // a replaced record
        reference[SimInstant(unixSeconds: 9_000)] = snapshot(900 * 10, energyKWh: 42)
        #expect(ledger.snapshots(listing: "flat-1") == reference.values.sorted { $0.at < $1.at })
        let start = SimInstant(unixSeconds: 0)
        for i in [0, 10, 299, 300, 301, 499] {
            let at = SimInstant(unixSeconds: Int64(i * 900))
            // A timeseries row's energy, from the two snapshots, is the ledger's, also across a change of devices (300).
            let s = try ledger.snapshot(listing: "flat-1", at: at)
            #expect(s.energyKWh(since: try ledger.snapshot(listing: "flat-1", at: start))
                        == (try ledger.energyKWh(listing: "flat-1", device: nil, from: start, to: at)), "at \(i)")
        }
        let points = ledger.energyPoints(listing: "flat-1", from: SimInstant(unixSeconds: 900), to: SimInstant(unixSeconds: 2_700))
        #expect(points.map(\.at.unixSeconds) == [900, 1_800, 2_700])
        #expect(points.map(\.totalEnergyKWh) == [900, 1_800, 2_700].map { reference[SimInstant(unixSeconds: $0)]?.totalEnergyKWh ?? -1 })
        #expect(ledger.snapshotCount(listing: "flat-1") == 500 && ledger.firstInstant(listing: "flat-1") == start)
    }

    @Test func snapshotDevicesAreSortedById() {
        let s = snapshot(0, energyKWh: 0)
        #expect(s.devices.map(\.id) == ["heating", "plug"])
        #expect(s.totalPowerW == 2_060)
    }

    @Test func transitionsKeepTimeOrderAndEqualTimesKeepRecordingOrder() {
        var ledger = EnergyLedger()
        let t = { (s: Int64, w: Double) in PowerTransition(at: SimInstant(unixSeconds: s), listing: "flat-1", device: "heating", powerW: w) }
        ledger.record(t(10, 2_000))
        ledger.record(t(30, 0))
        ledger.record(t(20, 1))
        ledger.record(t(20, 2))
        #expect(ledger.transitions(listing: "flat-1").map(\.powerW) == [2_000, 1, 2, 0])
        #expect(ledger.transitions(listing: "loft").isEmpty)
    }

    @Test func aMissingSnapshotIsATypedErrorWithASentence() {
        var ledger = EnergyLedger()
        ledger.record(snapshot(0, energyKWh: 0))
        ledger.record(snapshot(3_600, energyKWh: 1))
        #expect {
            try ledger.energyKWh(listing: "flat-1", device: nil, from: SimInstant(unixSeconds: 0), to: SimInstant(unixSeconds: 1_800))
        } throws: { error in
            guard let error = error as? ReportsError else { return false }
            return error.code == .noSnapshot && error.code.rawValue == "ledger.noSnapshot"
                && error.message == "The energy ledger has no snapshot of \"flat-1\" at 1970-01-01T00:30:00Z (it has 2, from 1970-01-01T00:00:00Z to 1970-01-01T01:00:00Z); the runner must record meters at every instant a report or expectation asks about."
        }
    }

    @Test("each misuse has its own stable code", arguments: [
        ("unknown listing", ReportsError.Code.unknownListing),
        ("unknown device", .unknownDevice),
        ("backwards window", .invalidWindow),
        ("missing snapshot", .noSnapshot),
    ])
    func errorCodes(case name: String, code: ReportsError.Code) {
        var ledger = EnergyLedger()
        ledger.record(snapshot(0, energyKWh: 0))
        ledger.record(snapshot(60, energyKWh: 1))
        let a = SimInstant(unixSeconds: 0), b = SimInstant(unixSeconds: 60)
        do {
            switch name {
            case "unknown listing": _ = try ledger.discomfortKh(listing: "loft", from: a, to: b)
            case "unknown device": _ = try ledger.runtimeHours(listing: "flat-1", device: "ac", from: a, to: b)
            case "backwards window": _ = try ledger.meanIndoorC(listing: "flat-1", from: b, to: a)
            default: _ = try ledger.snapshot(listing: "flat-1", at: SimInstant(unixSeconds: 30))
            }
            Issue.record("\(name) did not throw")
        } catch {
            #expect(error.code == code)
            #expect(error.description.hasPrefix("\(code.rawValue): "))
            #expect(error.message.hasSuffix("."))
        }
    }

    @Test("deviceFigures gives each device's energyKWh and runtimeHours, and their errors")
    func deviceFiguresAreThePerDeviceQueries() throws {
        let fixture = try ReportsFixture()
        var windows = 0
        for listing in fixture.ledger.listings {
            let instants = fixture.ledger.snapshots(listing: listing).map(\.at)
            for (from, to) in zip(instants, instants.dropFirst(2)) {
                let figures = try fixture.ledger.deviceFigures(listing: listing, from: from, to: to)
                let devices = try fixture.ledger.snapshot(listing: listing, at: from).devices
                #expect(figures.map(\.device) == devices)
                for entry in figures {
                    #expect(entry.energyKWh == (try fixture.ledger.energyKWh(listing: listing, device: entry.device.id, from: from, to: to)))
                    #expect(entry.runtimeHours == (try fixture.ledger.runtimeHours(listing: listing, device: entry.device.id, from: from, to: to)))
                }
                windows += 1
            }
        }
        #expect(windows > 10)
        // A device gone by the window's end, a missing end and a backwards window throw what the per-device queries throw.
        var ledger = EnergyLedger()
        ledger.record(snapshot(0, energyKWh: 0))
        var later = snapshot(60, energyKWh: 1)
        later.devices.removeAll { $0.id == "plug" }
        ledger.record(later)
        let a = SimInstant(unixSeconds: 0), b = SimInstant(unixSeconds: 60)
        for (from, to) in [(a, b), (a, SimInstant(unixSeconds: 30)), (b, a)] {
            var expected: ReportsError?
            do { _ = try ledger.energyKWh(listing: "flat-1", device: "plug", from: from, to: to) } catch { expected = error }
            do {
                _ = try ledger.deviceFigures(listing: "flat-1", from: from, to: to)
                Issue.record("no error from \(from) to \(to)")
            } catch {
                #expect(error.code == expected?.code && error.message == expected?.message)
            }
        }
    }

    @Test func recordingOrderDoesNotChangeTheLedger() throws {
        let fixture = try ReportsFixture()
        #expect(fixture.shuffledLedger(seed: 7) == fixture.ledger)
        #expect(fixture.shuffledLedger(seed: 8) == fixture.ledger)
    }
}
