import Testing
@testable import Simulation

/// iCalendar text as booking platforms export it (RFC 5545), read and written back.
@Suite("iCalendar text")
struct ICalendarTextTests {
    /// An Airbnb-style export: CRLF, a folded description, all-day reservations and a block, a
    /// VTIMEZONE and a timed event with TZID, a cancelled one.
    static let airbnb = [
        "BEGIN:VCALENDAR", "PRODID:-//Airbnb Inc//Hosting Calendar 0.8.8//EN", "CALSCALE:GREGORIAN", "VERSION:2.0",
        "BEGIN:VTIMEZONE", "TZID:Europe/Budapest", "BEGIN:STANDARD", "DTSTART:19701025T030000", "TZOFFSETFROM:+0200",
        "TZOFFSETTO:+0100", "END:STANDARD", "END:VTIMEZONE",
        "BEGIN:VEVENT", "DTEND;VALUE=DATE:20260111", "DTSTART;VALUE=DATE:20260109", "UID:1418fb94e984-7c2c1a4a3f6b8c1e@airbnb.com",
        "DESCRIPTION:Reservation URL: https://www.airbnb.com/hosting/reservations/details/HMABCDEF12\\nPhone Numb",
        " er (Last 4 Digits): 4821", "SUMMARY:Reserved", "DTSTAMP:20260101T101500Z", "END:VEVENT",
        "BEGIN:VEVENT", "DTEND;VALUE=DATE:20260120", "DTSTART;VALUE=DATE:20260115", "UID:airbnb-block-77@airbnb.com",
        "SUMMARY:Airbnb (Not available)", "END:VEVENT",
        "BEGIN:VEVENT", "DTSTART;TZID=Europe/Budapest:20260123T150000", "DTEND;TZID=\"Europe/Budapest\":20260125T100000",
        "UID:timed-1", "SUMMARY:Reserved\\, late arrival\\; bring keys", "STATUS:CANCELLED", "LAST-MODIFIED:20260105T080000Z",
        "BEGIN:VALARM", "TRIGGER:-PT15M", "ACTION:DISPLAY", "END:VALARM", "END:VEVENT",
        "END:VCALENDAR",
    ].joined(separator: "\r\n") + "\r\n"

    @Test func anAirbnbExportReadsAsItsEvents() throws {
        let events = try ICalendarText.parse(Self.airbnb, name: "flat-1-airbnb.ics")
        #expect(events.map(\.uid) == ["1418fb94e984-7c2c1a4a3f6b8c1e@airbnb.com", "airbnb-block-77@airbnb.com", "timed-1"])
        let reservation = events[0]
        #expect(reservation.start == .date(try #require(CivilDate(year: 2026, month: 1, day: 9))))
        #expect(reservation.end == .date(try #require(CivilDate(year: 2026, month: 1, day: 11))))
        #expect(reservation.summary == "Reserved" && reservation.status == nil && !reservation.isCancelled)
        #expect(reservation.description == "Reservation URL: https://www.airbnb.com/hosting/reservations/details/HMABCDEF12\nPhone Number (Last 4 Digits): 4821")
        #expect(reservation.phoneLastFour == "4821")
        #expect(reservation.stamp == SimInstant(unixMilliseconds: 1_767_262_500_000))
        #expect(events[1].summary == "Airbnb (Not available)" && events[1].phoneLastFour == nil)
        let timed = events[2]
        let local = LocalDateTime(date: try #require(CivilDate(year: 2026, month: 1, day: 23)), time: try #require(LocalTime(hour: 15, minute: 0)))
        #expect(timed.start == .local(local, zone: "Europe/Budapest"))
        #expect(timed.summary == "Reserved, late arrival; bring keys")
        #expect(timed.isCancelled && timed.lastModified == SimInstant(unixMilliseconds: 1_767_600_000_000))
        // LF line ends read the same.
        #expect(try ICalendarText.parse(Self.airbnb.replacingOccurrences(of: "\r\n", with: "\n"), name: "a") == events)
    }

    @Test("a malformed file names its line", arguments: [
        ("BEGIN:VEVENT\r\nEND:VEVENT", "x.ics line 1: does not start with BEGIN:VCALENDAR"),
        ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART;VALUE=DATE:20261301\r\nEND:VEVENT\r\nEND:VCALENDAR",
         "x.ics line 4: DTSTART \"20261301\" is not an iCalendar date"),
        ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20260101\r\nEND:VEVENT\r\nEND:VCALENDAR", "x.ics line 4: a VEVENT has no UID."),
        ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nEND:VEVENT\r\nEND:VCALENDAR", "x.ics line 4: the VEVENT a has no DTSTART."),
        ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20260101\r\nEND:VCALENDAR", "x.ics line 5: END:VCALENDAR does not close the open BEGIN:VEVENT."),
        ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20260101", "x.ics line 4: ends inside BEGIN:VEVENT"),
        ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nno colon here\r\nEND:VEVENT\r\nEND:VCALENDAR", "x.ics line 3: \"no colon here\" has no \":\""),
        ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20260101T250000\r\nEND:VEVENT\r\nEND:VCALENDAR", "x.ics line 4: DTSTART \"20260101T250000\""),
    ])
    func malformed(text: String, message: String) {
        do {
            _ = try ICalendarText.parse(text, name: "x.ics")
            Issue.record("accepted")
        } catch {
            #expect(error.code == .invalidCalendar)
            #expect(error.message.hasPrefix(message), "\(error.message)")
        }
    }

    @Test func writtenTextIsFoldedEscapedAndReadsBackTheSame() throws {
        let long = String(repeating: "Szép lak, ", count: 12) + "vége"
        let events = [
            ICalendarEvent(uid: "r1@flat-1", summary: "Reserved", description: "Line one\nLine; two, \\ three\n" + long,
                           start: .date(try #require(CivilDate(year: 2026, month: 1, day: 9))), end: .date(try #require(CivilDate(year: 2026, month: 1, day: 11))),
                           status: "CONFIRMED", stamp: SimInstant(unixMilliseconds: 1_767_225_600_000)),
            ICalendarEvent(uid: "r2@flat-1", start: .utc(SimInstant(unixMilliseconds: 1_767_225_600_000)), status: "CANCELLED"),
        ]
        let text = ICalendarText.write(events, productID: "-//RentalTwin//Reservations//EN", calendarName: "flat-1")
        let lines = text.components(separatedBy: "\r\n").dropLast()
        #expect(lines.allSatisfy { $0.utf8.count <= 75 }, "\(lines.map { $0.utf8.count })")
        #expect(lines.contains { $0.hasPrefix(" ") })
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
        #expect(text.contains("DTSTART;VALUE=DATE:20260109\r\nDTEND;VALUE=DATE:20260111\r\n"))
        #expect(try ICalendarText.parse(text, name: "out.ics") == events)
    }

    /// One VEVENT with `lines` added, in a calendar.
    static func calendar(_ lines: [String], start: String = "DTSTART;VALUE=DATE:20260105", end: String = "DTEND;VALUE=DATE:20260107") -> String {
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:r", start, end, "SUMMARY:Reserved"] + lines + ["END:VEVENT", "END:VCALENDAR"])
            .joined(separator: "\r\n") + "\r\n"
    }

    static func dates(_ events: [ICalendarEvent]) -> [String] {
        events.map { event in
            let start = ICalendarText.day(event.start), end = event.end.map(ICalendarText.day)
            return "\(start)/\(end.map { "\($0)" } ?? "-")"
        }
    }

    /// Issue 26: RRULE is expanded (bounded), never ignored: each occurrence is a stay of the first one's length.
    @Test func aWeeklyRuleBooksEveryWeekWithItsOwnUID() throws {
        // Monday 5 January 2026, two nights, every week, four times; the third week excluded.
        let events = try ICalendarText.parse(Self.calendar(["RRULE:FREQ=WEEKLY;COUNT=4", "EXDATE;VALUE=DATE:20260119"]), name: "w.ics")
        #expect(Self.dates(events) == ["2026-01-05/2026-01-07", "2026-01-12/2026-01-14", "2026-01-26/2026-01-28"])
        #expect(events.map(\.uid) == ["r#20260105", "r#20260112", "r#20260126"])
        #expect(events.allSatisfy { $0.summary == "Reserved" })
    }

    @Test("RRULE frequencies, INTERVAL, UNTIL and BYDAY", arguments: [
        ("FREQ=DAILY;INTERVAL=3;COUNT=3", ["2026-01-05", "2026-01-08", "2026-01-11"]),
        ("FREQ=WEEKLY;INTERVAL=2;UNTIL=20260202", ["2026-01-05", "2026-01-19", "2026-02-02"]),
        ("FREQ=WEEKLY;BYDAY=MO,FR;COUNT=4", ["2026-01-05", "2026-01-09", "2026-01-12", "2026-01-16"]),
        ("FREQ=WEEKLY;BYDAY=WE;COUNT=3", ["2026-01-05", "2026-01-07", "2026-01-14"]),
        ("FREQ=MONTHLY;COUNT=3", ["2026-01-05", "2026-02-05", "2026-03-05"]),
        ("FREQ=YEARLY;INTERVAL=2;UNTIL=20300101T000000Z", ["2026-01-05", "2028-01-05"]),
    ])
    func recurrence(rule: String, starts: [String]) throws {
        let events = try ICalendarText.parse(Self.calendar(["RRULE:\(rule)"]), name: "r.ics")
        #expect(events.map { "\(ICalendarText.day($0.start))" } == starts)
    }

    @Test func aMonthlyRuleSkipsMonthsWithoutItsDay() throws {
        let events = try ICalendarText.parse(Self.calendar(["RRULE:FREQ=MONTHLY;COUNT=3"], start: "DTSTART;VALUE=DATE:20260131", end: "DTEND;VALUE=DATE:20260201"), name: "m.ics")
        #expect(events.map { "\(ICalendarText.day($0.start))" } == ["2026-01-31", "2026-03-31", "2026-05-31"])
    }

    @Test("hostile calendars are refused with their line", arguments: [
        (["RRULE:FREQ=WEEKLY"], "x.ics line 7: RRULE of \"r\": it has neither COUNT nor UNTIL"),
        (["RRULE:FREQ=HOURLY;COUNT=2"], "x.ics line 7: RRULE of \"r\": FREQ must be one of DAILY, WEEKLY, MONTHLY, YEARLY."),
        (["RRULE:FREQ=MONTHLY;BYDAY=2MO;COUNT=2"], "x.ics line 7: RRULE of \"r\": BYDAY with FREQ=MONTHLY is not read"),
        (["RRULE:FREQ=WEEKLY;BYDAY=XX;COUNT=2"], "x.ics line 7: RRULE of \"r\": BYDAY \"XX\" is not a weekday"),
        (["RRULE:FREQ=DAILY;BYMONTHDAY=3;COUNT=2"], "x.ics line 7: RRULE of \"r\": the rule part BYMONTHDAY is not read"),
        (["RRULE:FREQ=DAILY;COUNT=5000"], "x.ics line 7: RRULE of \"r\": COUNT=5000 is not a whole number from 1 to 1000."),
        (["RRULE:FREQ=DAILY;UNTIL=21991231"], "x.ics line 7: RRULE of \"r\": it expands to more than 1000 stays."),
        (["EXDATE;VALUE=DATE:20260105"], "x.ics line 7: EXDATE without RRULE"),
        (["RDATE;VALUE=DATE:20260110"], "x.ics line 7: the VEVENT \"r\" has RDATE"),
        (["BEGIN:VEVENT", "UID:inner", "END:VEVENT"], "x.ics line 7: BEGIN:VEVENT inside a VEVENT"),
        (["BEGIN:VALARM", "BEGIN:X", "BEGIN:X", "BEGIN:X", "BEGIN:X", "BEGIN:X", "BEGIN:X"], "x.ics line 13: BEGIN:X nests components 9 deep"),
    ])
    func hostile(lines: [String], message: String) {
        do {
            _ = try ICalendarText.parse(Self.calendar(lines), name: "x.ics")
            Issue.record("accepted")
        } catch {
            #expect(error.code == .invalidCalendar)
            #expect(error.message.hasPrefix(message), "\(error.message)")
        }
    }

    @Test("absurd stays and unknown zones are refused", arguments: [
        ("DTSTART;VALUE=DATE:20260105", "DTEND;VALUE=DATE:21260105", "x.ics line 5: the VEVENT \"r\" lasts 36524 nights"),
        ("DTSTART;VALUE=DATE:99990105", "DTEND;VALUE=DATE:99990107", "x.ics line 4: DTSTART \"99990105\" lies in 9999"),
        ("DTSTART;TZID=Mars/Olympus:20260105T150000", "DTEND;TZID=Mars/Olympus:20260107T100000",
         "x.ics line 4: TZID=\"Mars/Olympus\" is neither a VTIMEZONE of this file nor an IANA time zone"),
    ])
    func absurd(start: String, end: String, message: String) {
        do {
            _ = try ICalendarText.parse(Self.calendar([], start: start, end: end), name: "x.ics")
            Issue.record("accepted")
        } catch {
            #expect(error.message.hasPrefix(message), "\(error.message)")
        }
    }

    @Test func aZoneDefinedInTheFileIsAccepted() throws {
        let text = Self.calendar([], start: "DTSTART;TZID=W. Europe Standard Time:20260105T150000", end: "DTEND;VALUE=DATE:20260107")
            .replacingOccurrences(of: "BEGIN:VCALENDAR\r\n", with: "BEGIN:VCALENDAR\r\nBEGIN:VTIMEZONE\r\nTZID:W. Europe Standard Time\r\nEND:VTIMEZONE\r\n")
        #expect(try ICalendarText.parse(text, name: "z.ics").count == 1)
    }
}
