import Foundation
import Reports
import Simulation
import Testing

/// The hand-built world of the golden tests, in Europe/Budapest around the 2026-03-29 clock change.
///
/// The run goes from 2026-03-28T06:00+01:00 to 2026-03-30T18:00+02:00 — three local days of
/// 18 h, 23 h and 18 h — so the first and last days are partial and the middle one loses an
/// hour. Meters follow closed forms of the hours `t` since the start, so every figure can be
/// checked by hand:
///
/// - `flat-1`: `door` (lock); `heating` draws 0.5·t kWh, runs 0.25·t h, 2000 W in the first
///   hour of every four; `plug` draws 60 W always (0.06·t kWh, t h). Indoor 20 + 2 sin(2πt/24) °C,
///   outdoor 5 − 3 cos(2πt/24) °C, discomfort 0.3 K while occupied.
/// - `loft`: `ac` (cooling) never runs; `heating` draws 1.2·t kWh, runs 0.6·t h, 2000 W in
///   the first three hours of every five; `plug` reads 0.1 kWh plus 1e-13 at the start only
///   (a −1e-13 kWh day must print `0.000`). Indoor 18 + 0.04·t °C, outdoor 4 °C, discomfort 0.5 K while occupied.
///
/// Stays: `r3` flat-1 (guest `Kovács, Anna`, across the clock change), `r1` flat-1 (guest
/// `Bob "Builder" Smith`, running past the end), `r2` loft cancelled, `r0` loft starting
/// before the run, `r4` loft after the end, `r5` loft before the start. Snapshots are taken,
/// as the runner does, at the start, each local midnight, each stay moment inside the run,
/// every 6 h tick and the end.
struct ReportsFixture {
    let calendar: LocalCalendar
    let start: SimInstant
    let end: SimInstant
    let stays: [StayRecord]
    let snapshots: [MeterSnapshot]
    let transitions: [PowerTransition]
    let tick = SimDuration.hours(6)

    init() throws {
        let calendar = try LocalCalendar(identifier: "Europe/Budapest")
        self.calendar = calendar
        func local(_ text: String) throws -> SimInstant { try calendar.instant(for: try #require(LocalDateTime(iso: text))) }
        start = try local("2026-03-28T06:00")
        end = try local("2026-03-30T18:00")
        func stay(_ id: String, _ listing: String, _ guest: String, _ checkIn: String, _ checkOut: String, _ status: String) throws -> StayRecord {
            let inDate = try #require(CivilDate(iso: checkIn)), outDate = try #require(CivilDate(iso: checkOut))
            return StayRecord(reservation: id, listing: listing, guest: guest, checkIn: inDate, checkOut: outDate,
                              nights: Int(outDate.daysSinceEpoch - inDate.daysSinceEpoch), status: status,
                              windowStart: calendar.instant(on: inDate, at: try #require(LocalTime(iso: "15:00"))),
                              windowEnd: calendar.instant(on: outDate, at: try #require(LocalTime(iso: "10:00"))))
        }
        // Deliberately not in id order.
        let stays = [
            try stay("r3", "flat-1", "Kovács, Anna", "2026-03-28", "2026-03-29", "checkedOut"),
            try stay("r1", "flat-1", "Bob \"Builder\" Smith", "2026-03-30", "2026-03-31", "checkedIn"),
            try stay("r2", "loft", "carol", "2026-03-29", "2026-03-30", "cancelled"),
            try stay("r0", "loft", "dave", "2026-03-27", "2026-03-29", "checkedOut"),
            try stay("r4", "loft", "erin", "2026-04-02", "2026-04-04", "confirmed"),
            try stay("r5", "loft", "frank", "2026-03-25", "2026-03-26", "checkedOut"),
        ]
        self.stays = stays
        let guestsPerStay = ["r3": 2, "r1": 1, "r0": 3]
        let start = self.start, end = self.end, tick = self.tick

        var instants: Set<SimInstant> = [start, end]
        for slice in 1...2 { instants.insert(calendar.startOfDay(calendar.date(at: start).adding(days: slice))) }
        for s in stays where !s.isCancelled {
            for moment in [s.windowStart, s.windowEnd] where moment >= start && moment <= end { instants.insert(moment) }
        }
        var t = start
        while t <= end {
            instants.insert(t)
            t = t + tick
        }

        func hours(_ at: SimInstant) -> Double { Double((at - start).milliseconds) / 3_600_000 }
        func occupancy(_ listing: String, _ at: SimInstant) -> (guests: Int, seconds: Double) {
            var guests = 0, seconds = 0.0
            for s in stays where s.listing == listing && !s.isCancelled {
                if s.windowStart <= at && at < s.windowEnd { guests += guestsPerStay[s.reservation] ?? 1 }
                let from = max(s.windowStart, start), to = min(s.windowEnd, at)
                if from < to { seconds += (to - from).seconds }
            }
            return (guests, seconds)
        }
        let period = 2 * Double.pi / 24
        var snapshots: [MeterSnapshot] = []
        for at in instants.sorted() {
            let h = hours(at), hour = Int(h.rounded(.down))
            let flat = occupancy("flat-1", at)
            snapshots.append(MeterSnapshot(
                at: at, listing: "flat-1", indoorC: 20 + 2 * sin(period * h), outdoorC: 5 - 3 * cos(period * h), guests: flat.guests,
                temperatureIntegralKs: 3_600 * (20 * h + 2 / period * (1 - cos(period * h))),
                discomfortKs: 0.3 * flat.seconds, occupiedSeconds: flat.seconds,
                devices: [
                    DeviceMeter(id: "plug", type: "smartPlug", isOn: true, powerW: 60, energyKWh: 0.06 * h, activeSeconds: 3_600 * h),
                    DeviceMeter(id: "heating", type: "heating", isOn: true, powerW: hour % 4 == 0 ? 2_000 : 0,
                                energyKWh: 0.5 * h, activeSeconds: 0.25 * 3_600 * h),
                    DeviceMeter(id: "door", type: "lock", isOn: false, powerW: 0, energyKWh: 0, activeSeconds: 0),
                ]))
            let loft = occupancy("loft", at)
            snapshots.append(MeterSnapshot(
                at: at, listing: "loft", indoorC: 18 + 0.04 * h, outdoorC: 4, guests: loft.guests,
                temperatureIntegralKs: 3_600 * (18 * h + 0.02 * h * h),
                discomfortKs: 0.5 * loft.seconds, occupiedSeconds: loft.seconds,
                devices: [
                    DeviceMeter(id: "heating", type: "heating", isOn: true, powerW: hour % 5 < 3 ? 2_000 : 0,
                                energyKWh: 1.2 * h, activeSeconds: 0.6 * 3_600 * h),
                    DeviceMeter(id: "ac", type: "cooling", isOn: false, powerW: 0, energyKWh: 0, activeSeconds: 0),
                    DeviceMeter(id: "plug", type: "smartPlug", isOn: false, powerW: 0.5,
                                energyKWh: at == start ? 0.1 + 1e-13 : 0.1, activeSeconds: 0),
                ]))
        }
        self.snapshots = snapshots

        var transitions = [PowerTransition(at: start, listing: "flat-1", device: "plug", powerW: 60)]
        for (listing, on) in [("flat-1", { (h: Int) in h % 4 == 0 }), ("loft", { (h: Int) in h % 5 < 3 })] {
            for h in 0..<59 where h == 0 || on(h) != on(h - 1) {
                transitions.append(PowerTransition(at: start + .hours(Int64(h)), listing: listing, device: "heating",
                                                   powerW: on(h) ? 2_000 : 0))
            }
        }
        self.transitions = transitions
    }

    /// A ledger with every snapshot and transition, recorded in time order.
    var ledger: EnergyLedger {
        var ledger = EnergyLedger()
        for s in snapshots { ledger.record(s) }
        for t in transitions { ledger.record(t) }
        return ledger
    }

    /// The same ledger, with snapshots recorded in a seeded random order (transitions in order).
    func shuffledLedger(seed: UInt64) -> EnergyLedger {
        var generator = SplitMix64(seed: seed)
        var ledger = EnergyLedger()
        for s in snapshots.shuffled(using: &generator) { ledger.record(s) }
        for t in transitions { ledger.record(t) }
        return ledger
    }

    /// The instant `hours` after the start.
    func at(hours: Int64) -> SimInstant { start + .hours(hours) }
}
