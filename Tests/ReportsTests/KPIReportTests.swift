import Simulation
import Testing
@testable import Reports

/// `kpi.csv` on a synthetic trace whose every KPI is computed by hand.
@Suite("kpi.csv")
struct KPIReportTests {
    /// One listing, snapshots every 15 minutes from 21:00 to 23:00 UTC on 9 January 2026 (22:00–24:00
    /// in Budapest).
    /// Energy per quarter hour (kWh): 0.5, 0.25, 1.0, 0.0, 0.75, 0.5, 0.25, 0.125; discomfort grows
    /// by 360 K·s a quarter; the heater switches on at 21:05, off at 21:40, on at 22:10, off at 22:50.
    static let start = SimInstant(unixMilliseconds: 1_767_992_400_000)  // 2026-01-09T21:00Z
    static let quarter = SimDuration.minutes(15)
    static let steps = [0.5, 0.25, 1.0, 0.0, 0.75, 0.5, 0.25, 0.125]

    static func ledger() -> EnergyLedger {
        var ledger = EnergyLedger()
        var energy = 0.0
        for i in 0...steps.count {
            if i > 0 { energy += steps[i - 1] }
            ledger.record(MeterSnapshot(at: start + SimDuration.milliseconds(quarter.milliseconds * Int64(i)), listing: "flat-1", indoorC: 20,
                                        outdoorC: 0, guests: 1, temperatureIntegralKs: 0, discomfortKs: 360 * Double(i), occupiedSeconds: 900 * Double(i),
                                        devices: [DeviceMeter(id: "heating", type: "heating", isOn: false, powerW: 0, energyKWh: energy, activeSeconds: 0)]))
        }
        for (minutes, watts) in [(5, 2000.0), (40, 0), (70, 2000), (110, 0)] {
            ledger.record(PowerTransition(at: start + .minutes(Int64(minutes)), listing: "flat-1", device: "heating", powerW: watts))
        }
        ledger.record(PowerTransition(at: start + .minutes(20), listing: "flat-1", device: "plug", powerW: 60))
        return ledger
    }

    @Test func everyKPIEqualsTheHandComputedValue() throws {
        let budapest = try LocalCalendar(identifier: "Europe/Budapest")
        // Night from 23:00 local (22:00Z): quarters 0–3 at the day price 0.4, quarters 4–7 at night 0.1.
        let tariff = Tariff.dayNight(day: 0.4, night: 0.1, nightFrom: try #require(LocalTime(hour: 23, minute: 0)),
                                     nightTo: try #require(LocalTime(hour: 6, minute: 0)))
        let end = Self.start + .hours(2)
        let k = try KPIReport.kpis(ledger: Self.ledger(), listing: "flat-1", heaters: ["heating"], tariff: tariff, co2KgPerKWh: 0.25,
                                   interval: Self.quarter, origin: Self.start, from: Self.start, to: end, calendar: budapest)
        let energy = Self.steps.reduce(0, +)  // 3.375 kWh
        #expect(abs(k.energyKWh - energy) < 1e-9)
        let dayKWh: Double = 0.5 + 0.25 + 1.0 + 0.0
        let nightKWh: Double = 0.75 + 0.5 + 0.25 + 0.125
        let cost = try #require(k.cost)
        #expect(abs(cost - (dayKWh * 0.4 + nightKWh * 0.1)) < 1e-9)
        #expect(abs(try #require(k.emissionsKg) - energy * 0.25) < 1e-9)
        #expect(abs(try #require(k.peakKW) - 1.0 / 0.25) < 1e-9)  // 1 kWh in a quarter hour is 4 kW
        let discomfort: Double = 360.0 * 8 / 3_600
        #expect(abs(k.discomfortKh - discomfort) < 1e-9)
        #expect(k.heaterCycles == 2)  // the plug's switching does not count
        // Over the second hour only: one switch-on (22:10), the night price, a peak of 3 kW.
        let late = try KPIReport.kpis(ledger: Self.ledger(), listing: "flat-1", heaters: ["heating"], tariff: .flat(perKWh: 0.3),
                                      co2KgPerKWh: nil, interval: Self.quarter, origin: Self.start, from: Self.start + .hours(1), to: end,
                                      calendar: budapest)
        #expect(late.heaterCycles == 1 && late.emissionsKg == nil)
        #expect(abs(try #require(late.cost) - 1.625 * 0.3) < 1e-9)
        #expect(abs(try #require(late.peakKW) - 3) < 1e-9)
    }

    @Test func aPriceSeriesHoldsEachPriceUntilTheNext() throws {
        let s = Self.start
        let series = Tariff.series([(s + .minutes(30), 0.2), (s + .minutes(60), 0.5)])
        #expect(series.price(at: s, calendar: .utc) == 0.2)  // before the first: the first
        #expect(series.price(at: s + .minutes(59), calendar: .utc) == 0.2)
        #expect(series.price(at: s + .minutes(60), calendar: .utc) == 0.5)
        let k = try KPIReport.kpis(ledger: Self.ledger(), listing: "flat-1", heaters: [], tariff: series, co2KgPerKWh: nil,
                                   interval: Self.quarter, origin: s, from: s, to: s + .hours(2), calendar: .utc)
        #expect(abs(try #require(k.cost) - (1.75 * 0.2 + 1.625 * 0.5)) < 1e-9)
    }

    @Test func theCSVHasAListingRowAndAStayRowWithEmptyCostWithoutATariff() throws {
        let s = Self.start
        let stays = [StayRecord(reservation: "r1", listing: "flat-1", guest: "g", checkIn: try #require(CivilDate(year: 2026, month: 1, day: 9)),
                                checkOut: try #require(CivilDate(year: 2026, month: 1, day: 10)), nights: 1, status: "confirmed",
                                windowStart: s + .minutes(30), windowEnd: s + .hours(3))]
        let text = try KPIReport.csv(ledger: Self.ledger(), listings: ["flat-1"], stays: stays, heaters: ["flat-1": ["heating"]], tariff: nil,
                                     co2KgPerKWh: nil, interval: Self.quarter, start: s, end: s + .hours(2), calendar: .utc)
        #expect(text == """
            scope,id,listing,from,to,ener_tot_kwh,cost_tot,emis_tot_kg,pele_tot_kw,tdis_tot_kh,heater_cycles
            listing,flat-1,flat-1,2026-01-09T21:00+00:00,2026-01-09T23:00+00:00,3.375,,,4.000,0.800,2
            stay,r1,flat-1,2026-01-09T21:30+00:00,2026-01-09T23:00+00:00,2.625,,,4.000,0.600,1

            """)
    }
}
