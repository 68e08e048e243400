import Foundation
import Simulation
import Testing
@testable import Weather

/// EPW text in the shape EnergyPlus publishes it: the eight header lines of an IWEC file, then one
/// 35-field line per hour. `temperature(day, hour)` gives each hour's dry bulb (day 0 = 1 January).
func epwText(hours: Int = 8760, lineEnd: String = "\n", temperature: (Int, Int) -> Double = { day, hour in
    5 + 10 * sin(Double(day) / 365 * 2 * .pi) + 4 * sin(Double(hour - 9) / 24 * 2 * .pi)
}) -> String {
    var lines = [
        "LOCATION,Budapest,-,HUN,IWEC Data,128430,47.43,19.18,1.0,185.0",
        "DESIGN CONDITIONS,1,Climate Design Data 2009 ASHRAE Handbook,,Heating,1,-11.3,-8.9",
        "TYPICAL/EXTREME PERIODS,6,Summer - Week Nearest Max Temperature For Period,Extreme,7/ 6,7/12",
        "GROUND TEMPERATURES,3,.5,,,,1.25,2.89,7.12,11.88,17.02,20.42,21.23,19.47,15.31,10.20,5.38,2.20",
        "HOLIDAYS/DAYLIGHT SAVINGS,No,0,0,0",
        "COMMENTS 1,IWEC- WMO#128430 - Europe -- Original Source Data (c) 2001 ASHRAE Inc.",
        "COMMENTS 2, -- Ground temps produced with a standard soil diffusivity of 2.3225760E-03 {m**2/day}",
        "DATA PERIODS,1,1,Data,Sunday, 1/ 1,12/31",
    ]
    var day = 0, month = 1, dayOfMonth = 1
    let monthLengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    for index in 0..<hours {
        let hour = index % 24 + 1
        let t = temperature(day, hour)
        let rain = (day % 7 == 3 && (10...14).contains(hour)) ? "1.2" : "0"
        lines.append("1995,\(month),\(dayOfMonth),\(hour),60,C9C9C9C9*0?9?9?9?9?9?9?9A7A7B8B8A7*0*0E8*0*0,\(String(format: "%.1f", t)),"
                     + "-3.0,80,101300,0,0,290,0,0,0,0,0,0,0,\(180 + hour),\(String(format: "%.1f", 2 + Double(hour % 5))),\(hour % 11),5,"
                     + "20.0,77777,9,999999999,0,0.0430,0,88,0.000,\(rain),1.0")
        if hour == 24 {
            day += 1
            dayOfMonth += 1
            if dayOfMonth > monthLengths[month - 1] { dayOfMonth = 1; month += 1 }
        }
    }
    return lines.joined(separator: lineEnd) + lineEnd
}

@Suite("EPW weather files")
struct EPWFileTests {
    @Test func aTypicalYearParsesWithItsLocationAndEveryHour() throws {
        let file = try EPWFile(text: epwText(), name: "BUD.epw")
        #expect(file.location == EPWFile.Location(city: "Budapest", country: "HUN", latitude: 47.43, longitude: 19.18,
                                                  timeZoneHours: 1, elevationM: 185))
        #expect(file.hours.count == 8760)
        let first = try #require(file.hours.first)
        #expect((first.month, first.day, first.hour) == (1, 1, 1))
        let expected = try #require(Double(String(format: "%.1f", 5 + 4 * sin(Double(1 - 9) / 24 * 2 * .pi))))
        #expect(first.sample.tempC == expected)
        #expect(first.sample.humidity == 80 && first.sample.pressureHPa == 1013 && first.sample.windDeg == 181)
        #expect(first.sample.windMps == 3 && first.sample.cloudsPercent == 10 && first.sample.condition == .clear)
        let last = try #require(file.hours.last)
        #expect((last.month, last.day, last.hour) == (12, 31, 24))
        // Day 3 (4 January) 10:00–14:00 has 1.2 mm of rain an hour.
        let rainy = try #require(file.hours.first { $0.month == 1 && $0.day == 4 && $0.hour == 12 })
        #expect(rainy.sample.condition == .rain && rainy.sample.precipitationMmPerHour == 1.2)
    }

    @Test func crlfLineEndsReadTheSame() throws {
        #expect(try EPWFile(text: epwText(hours: 48, lineEnd: "\r\n"), name: "a") == EPWFile(text: epwText(hours: 48), name: "a"))
    }

    @Test func missingValuesTakeTheDefaultsButAMissingTemperatureIsAnError() throws {
        var text = epwText(hours: 24)
        text = text.replacingOccurrences(of: ",80,101300,", with: ",999,999999,")
        let file = try EPWFile(text: text, name: "a.epw")
        #expect(file.hours.allSatisfy { $0.sample.humidity == 70 && $0.sample.pressureHPa == 1013 })
        let lines = epwText(hours: 24).split(separator: "\n").map(String.init)
        var broken = lines
        var fields = broken[12].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[6] = "99.9"
        broken[12] = fields.joined(separator: ",")
        #expect(throws: WeatherError.self) { try EPWFile(text: broken.joined(separator: "\n"), name: "a.epw") }
        do { _ = try EPWFile(text: broken.joined(separator: "\n"), name: "a.epw") } catch {
            #expect(error.message == "a.epw line 13: field 7 (dry-bulb temperature) is missing (99.9); the twin needs a temperature every hour.")
        }
    }

    @Test("a malformed file names its line and field", arguments: [
        ("nothing here", "x.epw line 1: does not start with a LOCATION line"),
        ("LOCATION,Budapest,-,HUN", "x.epw line 1: LOCATION has 4 fields"),
        ("LOCATION,Budapest,-,HUN,IWEC Data,128430,147.43,19.18,1.0,185.0", "x.epw line 1: LOCATION field 7 (latitude) is \"147.43\""),
    ])
    func malformedHeader(text: String, message: String) {
        do {
            _ = try EPWFile(text: text, name: "x.epw")
            Issue.record("accepted")
        } catch {
            #expect(error.code == .invalidSource)
            #expect(error.message.hasPrefix(message), "\(error.message)")
        }
    }

    @Test("a malformed data line names its line and field", arguments: [
        (6, "abc", "x.epw line 10: field 7 (dry-bulb temperature) is \"abc\", not a number."),
        (1, "13", "x.epw line 10: field 2 (month) is \"13\"; it must be a whole number from 1 to 12."),
        (2, "31", nil as String?),
    ])
    func malformedData(field: Int, value: String, message: String?) {
        var lines = epwText(hours: 24).split(separator: "\n").map(String.init)
        var fields = lines[9].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[field] = value
        if field == 2 { fields[1] = "2" }  // 31 February
        lines[9] = fields.joined(separator: ",")
        do {
            _ = try EPWFile(text: lines.joined(separator: "\n"), name: "x.epw")
            Issue.record("accepted")
        } catch {
            #expect(error.message == (message ?? "x.epw line 10: has the date 2/31, which no year has."))
        }
        lines[9] = "1995,1,1,2,60"
        #expect(throws: WeatherError.self) { try EPWFile(text: lines.joined(separator: "\n"), name: "x.epw") }
    }

    /// Issue 26: values outside the manual's range are named as out of range (not as missing), a NUL
    /// inside a number is not a number, more than 35 fields and impossible pressure or wind are refused.
    @Test("a hostile data line is refused, located", arguments: [
        (6, "9999", "x.epw line 10: field 7 (dry-bulb temperature) is \"9999\" °C, out of range: EPW allows -70 to 70 °C, or 99.9 for missing."),
        (6, "1e308", "x.epw line 10: field 7 (dry-bulb temperature) is \"1e308\" °C, out of range"),
        (6, "99.90", "x.epw line 10: field 7 (dry-bulb temperature) is missing (99.9)"),
        (6, "-1.\u{0}7", "x.epw line 10: field 7 (dry-bulb temperature) is \"-1.\u{0}7\", not a number."),
        (6, "0x10", "x.epw line 10: field 7 (dry-bulb temperature) is \"0x10\", not a number."),
        (9, "-1", "x.epw line 10: field 10 (station pressure) is \"-1\" Pa, out of range: EPW allows 31000 to 120000 Pa"),
        (21, "9999", "x.epw line 10: field 22 (wind speed) is \"9999\" m/s, out of range: EPW allows 0 to 40 m/s"),
        (20, "-5", "x.epw line 10: field 21 (wind direction) is \"-5\"°, out of range"),
        (8, "250", "x.epw line 10: field 9 (relative humidity) is \"250\" %, out of range"),
        (22, "11", "x.epw line 10: field 23 (total sky cover) is \"11\" tenths, out of range"),
    ])
    func hostileValues(field: Int, value: String, message: String) {
        var lines = epwText(hours: 24).split(separator: "\n").map(String.init)
        var fields = lines[9].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[field] = value
        lines[9] = fields.joined(separator: ",")
        do {
            _ = try EPWFile(text: lines.joined(separator: "\n"), name: "x.epw")
            Issue.record("accepted \(value)")
        } catch {
            #expect(error.code == .invalidSource)
            #expect(error.message.hasPrefix(message), "\(error.message)")
        }
    }

    @Test func tooManyFieldsAndReversedOrRepeatedRowsAreRefused() {
        let lines = epwText(hours: 24).split(separator: "\n").map(String.init)
        var wide = lines
        wide[9] += String(repeating: ",0", count: 1000)
        #expect(throws: WeatherError.self) { try EPWFile(text: wide.joined(separator: "\n"), name: "x.epw") }
        do { _ = try EPWFile(text: wide.joined(separator: "\n"), name: "x.epw") } catch {
            #expect(error.message.hasPrefix("x.epw line 10: has 1035 fields; an EPW data line has 35"), "\(error.message)")
        }
        let reversed = Array(lines[..<8]) + lines[8...].reversed()
        do {
            _ = try EPWFile(text: reversed.joined(separator: "\n"), name: "x.epw")
            Issue.record("reversed rows accepted")
        } catch {
            #expect(error.message.hasPrefix("x.epw line 10: is 1/1 hour 23, not after the line before (1/1 hour 24)"), "\(error.message)")
        }
        var repeated = lines
        repeated.insert(lines[12], at: 13)
        do {
            _ = try EPWFile(text: repeated.joined(separator: "\n"), name: "x.epw")
            Issue.record("a repeated row accepted")
        } catch {
            #expect(error.message.hasPrefix("x.epw line 14: is 1/1 hour 5, not after the line before (1/1 hour 5)"), "\(error.message)")
        }
    }

    @Test func theTypicalYearIsLaidOnTheScenarioYearsInLocalStandardTime() throws {
        let file = try EPWFile(text: epwText(), name: "BUD.epw")
        let calendar = try LocalCalendar(identifier: "Europe/Budapest")
        let start = try calendar.instant(for: LocalDateTime(date: #require(CivilDate(year: 2027, month: 12, day: 30)), time: .midnight))
        let end = start + .days(70)
        let series = try file.series(from: start, to: end, fieldPath: "weather.Budapest.epw")
        func record(_ month: Int, _ day: Int, _ hour: Int) throws -> Double {
            try #require(file.hours.first { $0.month == month && $0.day == day && $0.hour == hour }).sample.tempC
        }
        // 9 January 12:00 local standard time (UTC+1) is 11:00Z, in both years of the span.
        for year in [2028] {
            let noon = SimInstant(unixMilliseconds: try #require(CivilDate(year: year, month: 1, day: 9)).daysSinceEpoch * 86_400_000 + 11 * 3_600_000)
            #expect(abs(series.sample(at: noon).tempC - (try record(1, 9, 12))) < 1e-12)
        }
        let late = SimInstant(unixMilliseconds: try #require(CivilDate(year: 2027, month: 12, day: 31)).daysSinceEpoch * 86_400_000 + 22 * 3_600_000)
        #expect(abs(series.sample(at: late).tempC - (try record(12, 31, 23))) < 1e-12)
        // 2028 is a leap year the file has no 29 February for: the day is interpolated from 28 Feb 24:00 to 1 Mar 01:00.
        let feb28End = try record(2, 28, 24), mar1First = try record(3, 1, 1)
        let feb29Noon = SimInstant(unixMilliseconds: try #require(CivilDate(year: 2028, month: 2, day: 29)).daysSinceEpoch * 86_400_000 + 11 * 3_600_000)
        let fraction = 12.0 / 25.0
        #expect(abs(series.sample(at: feb29Noon).tempC - (feb28End + (mar1First - feb28End) * fraction)) < 1e-9)
        #expect(series.points.count == 2 * 8760)
    }
}
