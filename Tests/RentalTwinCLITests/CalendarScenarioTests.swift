import Foundation
import Testing
@testable import RentalTwinCLI

/// Bookings that arrive through a listing's iCalendar feed, as a channel manager syncs them.
@Suite("iCalendar feeds in scenarios", .serialized)
struct CalendarScenarioTests {
    static let devices = #""devices": ["#

    /// An Airbnb-style export (CRLF, folded description, a block, a cancelled booking).
    static let airbnb = [
        "BEGIN:VCALENDAR", "PRODID:-//Airbnb Inc//Hosting Calendar 0.8.8//EN", "VERSION:2.0",
        // Booked on 9 January 10:30 local (09:30Z): the 12:00 sync sees it.
        "BEGIN:VEVENT", "DTSTART;VALUE=DATE:20260111", "DTEND;VALUE=DATE:20260112", "UID:HMA@airbnb.com",
        "DESCRIPTION:Reservation URL: https://www.airbnb.com/hosting/reservations/details/HMA\\nPhone Numb",
        " er (Last 4 Digits): 4821", "SUMMARY:Reserved", "CREATED:20260109T093000Z", "DTSTAMP:20260301T000000Z", "END:VEVENT",
        // Booked on 9 January 09:00 local for a night the scenario's own guest (r1, booked at 08:00) holds.
        "BEGIN:VEVENT", "DTSTART;VALUE=DATE:20260110", "DTEND;VALUE=DATE:20260111", "UID:HMB@airbnb.com",
        "SUMMARY:Reserved", "CREATED:20260109T080000Z", "END:VEVENT",
        // The owner's block: not a stay.
        "BEGIN:VEVENT", "DTSTART;VALUE=DATE:20260114", "DTEND;VALUE=DATE:20260120", "UID:block@airbnb.com",
        "SUMMARY:Airbnb (Not available)", "END:VEVENT",
        // Booked 9 January 01:00 local, cancelled 10 January 13:00 local.
        "BEGIN:VEVENT", "DTSTART;VALUE=DATE:20260113", "DTEND;VALUE=DATE:20260114", "UID:HMC@airbnb.com",
        "SUMMARY:Reserved", "STATUS:CANCELLED", "CREATED:20260109T000000Z", "LAST-MODIFIED:20260110T120000Z", "END:VEVENT",
        "END:VCALENDAR",
    ].joined(separator: "\r\n") + "\r\n"

    func scenario(calendar: String?, entry: String = #"{ "file": "cal/flat-1.ics", "syncEvery": "PT2H" }"#) throws -> String {
        let (file, _) = try mutatedExample("01-winter-weekend.json", [(Self.devices, #""calendars": ["# + entry + "],\n      " + Self.devices)])
        let directory = (file as NSString).deletingLastPathComponent
        if let calendar {
            try FileManager.default.createDirectory(atPath: "\(directory)/cal", withIntermediateDirectories: true)
            try calendar.write(toFile: "\(directory)/cal/flat-1.ics", atomically: true, encoding: .utf8)
        }
        return file
    }

    @Test func bookingsArriveAtTheSyncAfterTheyWereMade() async throws {
        let file = try scenario(calendar: Self.airbnb)
        let reports = (file as NSString).deletingLastPathComponent + "/reports"
        let outcome = await RentalTwinCommand.main(["run", file, "--log", "--report", reports])
        #expect(outcome.exitCode == .success, "\(outcome.standardOutput)\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n").filter { $0.contains(" calendar flat-1: ") }.map(String.init)
        #expect(lines == [
            "  2026-01-09T02:00  calendar flat-1: booked HMC@airbnb.com 2026-01-13 → 2026-01-14 — new in cal/flat-1.ics",
            "  2026-01-09T10:00  calendar flat-1: refused HMB@airbnb.com 2026-01-10 → 2026-01-11 — reservation.overlap: Listing \"flat-1\" "
                + "is already booked for the nights 2026-01-09 → 2026-01-11 (reservation \"r1\"), which overlap 2026-01-10 → 2026-01-11; "
                + "choose other dates (a stay may start on the day another ends).",
            "  2026-01-09T12:00  calendar flat-1: booked HMA@airbnb.com 2026-01-11 → 2026-01-12 — new in cal/flat-1.ics, phone …4821",
            "  2026-01-10T14:00  calendar flat-1: cancelled HMC@airbnb.com — STATUS:CANCELLED in cal/flat-1.ics",
        ], "\(outcome.standardOutput)")
        let stays = try String(contentsOfFile: "\(reports)/stays.csv", encoding: .utf8)
        #expect(stays.contains("HMA@airbnb.com,flat-1,flat-1-calendar-1-4821,2026-01-11,2026-01-12,1,confirmed"), "\(stays)")
        #expect(stays.contains("HMC@airbnb.com,flat-1,flat-1-calendar-1,2026-01-13,2026-01-14,1,cancelled"), "\(stays)")
        #expect(!stays.contains("HMB"))

        // calendar-flat-1.ics read back by the same flat in a fresh run gives the same reservations.
        let exported = try String(contentsOfFile: "\(reports)/calendar-flat-1.ics", encoding: .utf8)
        let (again, _) = try mutatedExample("01-winter-weekend.json", [
            (Self.devices, #""calendars": ["cal/flat-1.ics"],"# + "\n      " + Self.devices),
            (#"{ "at": "2026-01-09T08:00", "book": { "id": "r1", "guest": "guest", "listing": "flat-1", "checkIn": "2026-01-09", "checkOut": "2026-01-11", "guests": 2 } },"#, ""),
        ])
        let againDirectory = (again as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: "\(againDirectory)/cal", withIntermediateDirectories: true)
        try exported.write(toFile: "\(againDirectory)/cal/flat-1.ics", atomically: true, encoding: .utf8)
        let second = await RentalTwinCommand.main(["run", again, "--log", "--report", "\(againDirectory)/reports"])
        let booked = second.standardOutput.split(separator: "\n").filter { $0.contains(" calendar flat-1: booked ") }
        // r1 and HMA live, HMC cancelled: the exported HMC has no CREATED, so it is booked and cancelled at the first sync.
        #expect(booked.count == 3, "\(second.standardOutput)\(second.standardError)")
        #expect(second.standardOutput.contains("  2026-01-09T00:00  calendar flat-1: cancelled HMC@airbnb.com — STATUS:CANCELLED in cal/flat-1.ics"),
                "\(second.standardOutput)")
        let secondStays = try String(contentsOfFile: "\(againDirectory)/reports/stays.csv", encoding: .utf8)
        for row in ["r1,flat-1,flat-1-calendar-1,2026-01-09,2026-01-11", "HMA@airbnb.com,flat-1,flat-1-calendar-1,2026-01-11,2026-01-12",
                    "HMC@airbnb.com,flat-1,flat-1-calendar-1,2026-01-13,2026-01-14,1,cancelled"] {
            #expect(secondStays.contains(row), "\(secondStays)")
        }
    }

    @Test func aMissingOrMalformedCalendarIsALocatedError() async throws {
        let missing = await RentalTwinCommand.main(["run", try scenario(calendar: nil)])
        #expect(missing.exitCode == .invalidInput)
        #expect(missing.standardError.contains("listings[0].calendars[0].file: cannot read "), "\(missing.standardError)")
        let broken = await RentalTwinCommand.main(["run", try scenario(calendar: "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")])
        #expect(broken.standardError.contains("listings[0].calendars[0].file: cal/flat-1.ics line 4: the VEVENT x has no DTSTART."), "\(broken.standardError)")
        let fast = await RentalTwinCommand.main(["run", try scenario(calendar: Self.airbnb, entry: #"{ "file": "cal/flat-1.ics", "syncEvery": "PT10S" }"#)])
        #expect(fast.standardError.contains("listings[0].calendars[0].syncEvery: is PT10S; a calendar is synced at most once a minute."), "\(fast.standardError)")
    }
}
