import Simulation
import Testing
@testable import SmartHome

/// `DateTimeType` text and parsing, rows from openhab-core's `DateTimeTypeTest` (the default zone is the
/// twin's calendar).
@Suite("DateTime states")
struct DateTimeValueTests {
    static let utc = LocalCalendar.utc
    static func zone(_ id: String) throws -> LocalCalendar { try LocalCalendar(identifier: id) }

    @Test(arguments: [
        ("UTC", "2014-03-30T10:58:47.23", "2014-03-30T10:58:47.230+0000"),
        ("Europe/Berlin", "2014-03-30T10:58:47.033", "2014-03-30T10:58:47.033+0200"),
        ("Etc/GMT-5", "2014-03-30T10:58:47.000Z", "2014-03-30T15:58:47.000+0500"),
        ("UTC", "2014-03-30", "2014-03-30T00:00:00.000+0000"),
        ("UTC", "2024-09-05 15:30Z", "2024-09-05T15:30:00.000+0000"),
        ("UTC", "2024-09-05 16:30+0100", "2024-09-05T15:30:00.000+0000"),
        ("UTC", "2024-09-05T17:30:00.000+02:00", "2024-09-05T15:30:00.000+0000"),
        ("Europe/Budapest", "2026-01-09T15:00", "2026-01-09T15:00:00.000+0100"),
        ("UTC", "1700000000", "2023-11-14T22:13:20.000+0000"),
        ("UTC", "1700000000123", "2023-11-14T22:13:20.123+0000"),
    ])
    func parsesAndPrintsAsDateTimeType(zone: String, text: String, full: String) throws {
        let value = try #require(DateTimeValue(parsing: text, in: try Self.zone(zone)))
        #expect(value.description == full)
        #expect(DateTimeValue(parsing: full, in: try Self.zone(zone)) == value)
    }

    @Test(arguments: ["", "yesterday", "2026-13-01T00:00", "2026-01-09T25:00", "2026-01-09T15:00+1"])
    func refusesWhatDateTimeTypeRefuses(_ text: String) {
        #expect(DateTimeValue(parsing: text, in: Self.utc) == nil)
    }

    @Test func aDateTimeItemTakesDateTimeStatesAndCommands() throws {
        #expect(ItemType(rawValue: "DateTime") == .dateTimeItem)
        let state = try #require(ItemType.dateTimeItem.parseState("2026-01-09T15:00", in: try Self.zone("Europe/Budapest")))
        #expect(state.description == "2026-01-09T15:00:00.000+0100" && state.typeName == "DateTime")
        #expect(ItemType.dateTimeItem.accepting(state) == state)
        #expect(ItemType.dateTimeItem.parseCommand("ON") == nil)
        #expect(ItemType.dateTimeItem.parseCommand("2026-01-09T15:00Z")?.description == "2026-01-09T15:00:00.000+0000")
    }
}
