import Testing
@testable import Simulation

@Suite("Civil dates, times and ISO durations")
struct CivilDateTests {
    @Test("days since the epoch match known dates", arguments: [
        ("1970-01-01", Int64(0)), ("2000-03-01", 11_017), ("1969-12-31", -1),
        ("2026-01-09", 20_462), ("2024-02-29", 19_782), ("0000-03-01", -719_468),
    ])
    func daysSinceEpoch(text: String, days: Int64) throws {
        let date = try #require(CivilDate(iso: text))
        #expect(date.daysSinceEpoch == days)
        #expect(CivilDate(daysSinceEpoch: days) == date)
        #expect(date.description == text)
    }

    @Test("impossible or malformed dates are rejected", arguments: ["2026-02-29", "2026-13-01", "2026-00-10", "2026-1-9", "26-01-09", "2026/01/09", ""])
    func rejectsBadDates(text: String) {
        #expect(CivilDate(iso: text) == nil)
    }

    @Test func weekdays() throws {
        #expect(try #require(CivilDate(iso: "2026-01-09")).isoWeekday == 5)  // a Friday
        #expect(try #require(CivilDate(iso: "1970-01-01")).isoWeekday == 4)
    }

    @Test func timesOfDay() throws {
        #expect(try #require(LocalTime(iso: "15:00")).millisecondOfDay == 54_000_000)
        #expect(try #require(LocalTime(iso: "10:30:15")).description == "10:30:15")
        #expect(LocalTime(iso: "24:00") == nil)
        #expect(LocalTime(iso: "9:00") == nil)
    }

    @Test("ISO durations parse", arguments: [
        ("PT2H", Int64(7_200_000)), ("PT90M", 5_400_000), ("P1DT6H", 108_000_000), ("PT0M", 0),
        ("PT0.5S", 500), ("P1W", 604_800_000), ("-PT15M", -900_000),
    ])
    func durations(text: String, ms: Int64) throws {
        #expect(try ISODuration.parse(text).milliseconds == ms)
    }

    @Test("durations print canonically", arguments: [
        (Int64(7_200_000), "PT2H"), (5_400_000, "PT1H30M"), (108_000_000, "P1DT6H"), (0, "PT0S"), (1_500, "PT1.500S"),
    ])
    func durationText(ms: Int64, text: String) {
        #expect(SimDuration(milliseconds: ms).description == text)
    }

    @Test("bad durations say why", arguments: ["2H", "P", "PT", "P1M", "P1Y", "PT1H2H", "PT1M1H", "PTH", "P1H"])
    func badDurations(text: String) {
        #expect(throws: SimulationError.self) { try ISODuration.parse(text) }
        do { _ = try ISODuration.parse(text) } catch {
            #expect(error.code == .invalidDuration)
            #expect(error.message.contains(text))
        }
    }

    @Test func instantText() {
        #expect(SimInstant(unixSeconds: 1_767_913_200).description == "2026-01-08T23:00:00Z")
        #expect(SimInstant(unixMilliseconds: -1).description == "1969-12-31T23:59:59.999Z")
        #expect(SimInstant(unixMilliseconds: -1).unixSeconds == -1)
    }

    @Test func secondsRoundUp() throws {
        #expect(try #require(SimDuration.seconds(roundingUp: 1.0001)).milliseconds == 1_001)
        #expect(SimDuration.seconds(roundingUp: -1.0) == nil)
        #expect(SimDuration.seconds(roundingUp: Double.nan) == nil)
    }
}

@Suite("Local calendar across daylight-saving changes (Europe/Budapest, 2026)")
struct LocalCalendarTests {
    let budapest: LocalCalendar
    init() throws { budapest = try LocalCalendar(identifier: "Europe/Budapest") }

    func date(_ text: String) throws -> CivilDate { try #require(CivilDate(iso: text)) }
    func local(_ text: String) throws -> LocalDateTime { try #require(LocalDateTime(iso: text)) }

    @Test("15:00 local is right on and around both change days", arguments: [
        ("2026-03-28", "2026-03-28T14:00:00Z"), ("2026-03-29", "2026-03-29T13:00:00Z"),
        ("2026-10-24", "2026-10-24T13:00:00Z"), ("2026-10-25", "2026-10-25T14:00:00Z"),
        ("2026-01-09", "2026-01-09T14:00:00Z"),
    ])
    func checkInMoments(day: String, utc: String) throws {
        let time = try #require(LocalTime(iso: "15:00"))
        #expect(budapest.instant(on: try date(day), at: time).description == utc)
    }

    @Test func dayLengths() throws {
        #expect(budapest.lengthOfDay(try date("2026-03-29")) == .hours(23))
        #expect(budapest.lengthOfDay(try date("2026-10-25")) == .hours(25))
        #expect(budapest.lengthOfDay(try date("2026-06-01")) == .hours(24))
    }

    @Test func gapIsRejectedOrShifted() throws {
        let gap = try local("2026-03-29T02:30")
        #expect(budapest.instants(for: gap).isEmpty)
        do {
            _ = try budapest.instant(for: gap)
            Issue.record("02:30 on the spring-forward day must not exist")
        } catch {
            #expect(error.code == .nonexistentLocalTime)
            #expect(error.message.contains("2026-03-29T02:30"))
        }
        // java.time: shifted later by the gap's length → 03:30 CEST = 01:30Z
        #expect(budapest.resolvedInstant(for: gap).description == "2026-03-29T01:30:00Z")
    }

    @Test func overlapIsRejectedOrEarlier() throws {
        let overlap = try local("2026-10-25T02:30")
        let both = budapest.instants(for: overlap).map(\.description)
        #expect(both == ["2026-10-25T00:30:00Z", "2026-10-25T01:30:00Z"])
        do {
            _ = try budapest.instant(for: overlap)
            Issue.record("02:30 on the fall-back day is ambiguous")
        } catch {
            #expect(error.code == .ambiguousLocalTime)
            #expect(error.message.contains("+02:00"))
        }
        #expect(budapest.resolvedInstant(for: overlap).description == "2026-10-25T00:30:00Z")
    }

    @Test func parsesScenarioDateTimes() throws {
        #expect(try budapest.parseInstant("2026-01-09T16:00").description == "2026-01-09T15:00:00Z")
        #expect(try budapest.parseInstant("2026-01-09T16:00:30").description == "2026-01-09T15:00:30Z")
        #expect(try budapest.parseInstant("2026-01-09T15:00Z").description == "2026-01-09T15:00:00Z")
        #expect(try budapest.parseInstant("2026-10-25T02:30+01:00").description == "2026-10-25T01:30:00Z")
        #expect(throws: SimulationError.self) { try budapest.parseInstant("2026-01-09 16:00") }
        #expect(throws: SimulationError.self) { try budapest.parseInstant("2026-10-25T02:30") }
    }

    @Test func unknownZone() {
        do {
            _ = try LocalCalendar(identifier: "Europe/Atlantis")
            Issue.record("unknown zone accepted")
        } catch {
            #expect(error.code == .unknownTimeZone)
            #expect(error.message.contains("Europe/Atlantis"))
        }
    }

    @Test func hourlyAtMinuteFiveOverSpringForward() throws {
        var t = try budapest.parseInstant("2026-03-29T00:00")
        let end = try budapest.parseInstant("2026-03-30T00:00")
        var seen: [String] = []
        while true {
            t = try budapest.nextRecurrence(after: t, everyMinutes: 60, atMinute: 5)
            guard t < end else { break }
            seen.append(budapest.localDateTime(at: t).time.description)
        }
        #expect(seen.count == 23)
        #expect(seen.prefix(3) == ["00:05", "01:05", "03:05"])
    }

    @Test func hourlyAtMinuteFiveOverFallBack() throws {
        var t = try budapest.parseInstant("2026-10-25T00:00")
        let end = try budapest.parseInstant("2026-10-26T00:00")
        var seen: [String] = []
        while true {
            t = try budapest.nextRecurrence(after: t, everyMinutes: 60, atMinute: 5)
            guard t < end else { break }
            seen.append(t.description)
        }
        #expect(seen.count == 25)
        #expect(Array(seen[1...3]) == ["2026-10-24T23:05:00Z", "2026-10-25T00:05:00Z", "2026-10-25T01:05:00Z"])
    }

    @Test func quarterHours() throws {
        let start = try budapest.parseInstant("2026-01-09T10:06")
        let next = try budapest.nextRecurrence(after: start, everyMinutes: 15, atMinute: 5)
        #expect(budapest.localDateTime(at: next).description == "2026-01-09T10:20")
    }

    @Test("bad recurrences are rejected", arguments: [(7, 0), (60, 60), (60, -1), (0, 0), (2_880, 0)])
    func badRecurrence(every: Int, at: Int) {
        #expect(throws: SimulationError.self) { try LocalCalendar.validateRecurrence(everyMinutes: every, atMinute: at) }
    }
}
