import Rules
import Simulation
import Testing

/// One row of the fire-time table: an expression, a start instant and the fires that follow it.
struct CronCase: CustomTestStringConvertible, Sendable {
    let zone: String
    let start: String
    let expression: String
    /// Consecutive fire times as `2026-03-29T03:00:00+02:00`; `"never"` means `nextFire` returns `nil`.
    let fires: [String]

    init(_ zone: String, _ start: String, _ expression: String, _ fires: [String]) {
        self.zone = zone
        self.start = start
        self.expression = expression
        self.fires = fires
    }

    var testDescription: String { "\(expression) from \(start) in \(zone)" }
}

@Suite("Cron fire times on the local wall clock")
struct CronExpressionTests {
    static let cases: [CronCase] = [
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2015-01-01T00:00:00Z", "@hourly", ["2015-01-01T01:00:00Z", "2015-01-01T02:00:00Z", "2015-01-01T03:00:00Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2015-01-01T00:00:00Z", "@daily", ["2015-01-02T00:00:00Z", "2015-01-03T00:00:00Z", "2015-01-04T00:00:00Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2015-01-01T00:00:00Z", "@weekly", ["2015-01-05T00:00:00Z", "2015-01-12T00:00:00Z", "2015-01-19T00:00:00Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2015-01-20T23:59:59Z", "@monthly", ["2015-02-01T00:00:00Z", "2015-03-01T00:00:00Z", "2015-04-01T00:00:00Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2015-01-01T00:00:00Z", "@yearly", ["2016-01-01T00:00:00Z", "2017-01-01T00:00:00Z", "2018-01-01T00:00:00Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2015-01-01T00:00:00Z", "0 15 10 LW * ?", ["2015-01-30T10:15:00Z", "2015-02-27T10:15:00Z", "2015-03-31T10:15:00Z", "2015-04-30T10:15:00Z", "2015-05-29T10:15:00Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2015-01-01T00:00:00Z", "0 15 10 3W * ?", ["2015-01-02T10:15:00Z", "2015-02-03T10:15:00Z", "2015-03-03T10:15:00Z", "2015-04-03T10:15:00Z", "2015-05-04T10:15:00Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2015-01-01T00:00:00Z", "0 15 10 1/10 * ?", ["2015-01-01T10:15:00Z", "2015-01-11T10:15:00Z", "2015-01-21T10:15:00Z", "2015-01-31T10:15:00Z", "2015-02-01T10:15:00Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2015-01-01T00:00:00Z", "0 0 0 ? * MON#1", ["2015-01-05T00:00:00Z", "2015-02-02T00:00:00Z", "2015-03-02T00:00:00Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2015-01-01T00:00:00Z", "0 0 0 ? * 2#1", ["2015-01-05T00:00:00Z", "2015-02-02T00:00:00Z", "2015-03-02T00:00:00Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2015-01-01T00:00:00Z", "0 0 0 ? * 1#1", ["2015-01-04T00:00:00Z", "2015-02-01T00:00:00Z", "2015-03-01T00:00:00Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2015-01-01T00:00:00Z", "0 15 10 ? * 6#2", ["2015-01-09T10:15:00Z", "2015-02-13T10:15:00Z", "2015-03-13T10:15:00Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2015-01-01T00:00:00Z", "0 15 10 ? * 6L", ["2015-01-30T10:15:00Z", "2015-02-27T10:15:00Z", "2015-03-27T10:15:00Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2015-01-01T00:00:00Z", "0 15 10 L * ?", ["2015-01-31T10:15:00Z", "2015-02-28T10:15:00Z", "2015-03-31T10:15:00Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2015-01-01T00:00:00Z", "0 15 10 ? * MON-WED", ["2015-01-05T10:15:00Z", "2015-01-06T10:15:00Z", "2015-01-07T10:15:00Z", "2015-01-12T10:15:00Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2015-01-01T00:00:00Z", "0 10,44 14 ? 1 4", ["2015-01-07T14:10:00Z", "2015-01-07T14:44:00Z", "2015-01-14T14:10:00Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2015-01-01T00:00:00Z", "0 0/15 14,18 * * ?", ["2015-01-01T14:00:00Z", "2015-01-01T14:15:00Z", "2015-01-01T14:30:00Z", "2015-01-01T14:45:00Z", "2015-01-01T18:00:00Z", "2015-01-01T18:15:00Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2015-01-01T00:00:00Z", "0 0-2 14 * * ?", ["2015-01-01T14:00:00Z", "2015-01-01T14:01:00Z", "2015-01-01T14:02:00Z", "2015-01-02T14:00:00Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2015-01-01T00:00:00Z", "0 0 0 ? * SUN-MON", ["2015-01-04T00:00:00Z", "2015-01-05T00:00:00Z", "2015-01-11T00:00:00Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2015-01-01T00:00:00Z", "0 0 0 ? * MON-SUN", ["2015-01-02T00:00:00Z", "2015-01-03T00:00:00Z", "2015-01-04T00:00:00Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2000-01-01T00:00:00Z", "14-02/2 * * * * *", ["2000-01-01T00:00:02Z", "2000-01-01T00:00:14Z", "2000-01-01T00:00:16Z", "2000-01-01T00:00:18Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2000-01-01T00:00:00Z", "1/15,3/15 * * * * *", ["2000-01-01T00:00:01Z", "2000-01-01T00:00:03Z", "2000-01-01T00:00:16Z", "2000-01-01T00:00:18Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2000-01-01T00:00:00Z", "0 0 0 1 FEB,APR,JUN ?", ["2000-02-01T00:00:00Z", "2000-04-01T00:00:00Z", "2000-06-01T00:00:00Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2000-01-01T00:00:00Z", "3-13/5 * * * * *", ["2000-01-01T00:00:03Z", "2000-01-01T00:00:08Z", "2000-01-01T00:00:13Z", "2000-01-01T00:01:03Z"]),
        // CronAdjusterTest.testCronExpression (same expression and start; LocalDateTime there, UTC here)
        CronCase("UTC", "2000-01-01T00:00:00Z", "15 2 * * * * 2001", ["2001-01-01T00:02:15Z", "2001-01-01T01:02:15Z", "2001-01-01T02:02:15Z"]),
        // CronAdjusterTest.testCronExpression: after 2022 CronAdjuster returns its 2200-01-01 "done" sentinel
        CronCase("UTC", "2019-10-10T00:00:00Z", "0 0 0 1 1 * 2020-2022", ["2020-01-01T00:00:00Z", "2021-01-01T00:00:00Z", "2022-01-01T00:00:00Z", "never"]),
        // java.time reasoning on the CronAdjuster rules; cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("UTC", "2026-01-01T00:00:00Z", "0 0 0 29 2 ? *", ["2028-02-29T00:00:00Z", "2032-02-29T00:00:00Z", "2036-02-29T00:00:00Z"]),
        // java.time reasoning on the CronAdjuster rules; cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("UTC", "2026-01-01T00:00:00Z", "0 0 8 ? * 2-6", ["2026-01-01T08:00:00Z", "2026-01-02T08:00:00Z", "2026-01-03T08:00:00Z", "2026-01-06T08:00:00Z"]),
        // java.time reasoning on the CronAdjuster rules; cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("UTC", "2026-01-01T00:00:00Z", "0 0 8 ? * 2,6", ["2026-01-02T08:00:00Z", "2026-01-05T08:00:00Z", "2026-01-09T08:00:00Z"]),
        // java.time reasoning on the CronAdjuster rules; cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("UTC", "2026-01-01T00:00:00Z", "0 0 0 ? * L", ["2026-01-04T00:00:00Z", "2026-01-11T00:00:00Z", "2026-01-18T00:00:00Z"]),
        // java.time reasoning on the CronAdjuster rules; cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("UTC", "2026-01-01T00:00:00Z", "0 0 12 1W * ?", ["2026-01-01T12:00:00Z", "2026-02-02T12:00:00Z", "2026-03-02T12:00:00Z"]),
        // java.time reasoning on the CronAdjuster rules; cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("UTC", "2026-06-01T00:00:00Z", "0 0 12 31W * ?", ["2026-07-31T12:00:00Z", "2026-08-31T12:00:00Z", "2026-10-30T12:00:00Z"]),
        // java.time reasoning on the CronAdjuster rules; cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("UTC", "2026-01-01T00:00:00Z", "0 0 7 ? * 5L", ["2026-01-29T07:00:00Z", "2026-02-26T07:00:00Z", "2026-03-26T07:00:00Z"]),
        // java.time reasoning on the CronAdjuster rules; cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("UTC", "2026-01-01T00:00:00Z", "0 0 0 1 * MON", ["2026-06-01T00:00:00Z", "2027-02-01T00:00:00Z", "2027-03-01T00:00:00Z"]),
        // java.time reasoning on the CronAdjuster rules; cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("UTC", "2026-01-01T00:00:00Z", "0 50-10/5 9 * * ?", ["2026-01-01T09:00:00Z", "2026-01-01T09:05:00Z", "2026-01-01T09:10:00Z", "2026-01-01T09:50:00Z"]),
        // java.time reasoning on the CronAdjuster rules; cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("UTC", "2026-01-01T00:00:00Z", "0 0 22-2 * * ?", ["2026-01-01T01:00:00Z", "2026-01-01T02:00:00Z", "2026-01-01T22:00:00Z", "2026-01-01T23:00:00Z"]),
        // java.time reasoning on the CronAdjuster rules; cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("UTC", "2026-01-01T00:00:00Z", "0 0 12 ? JAN/5 *", ["2026-01-01T12:00:00Z", "2026-01-02T12:00:00Z", "2026-01-03T12:00:00Z"]),
        // java.time reasoning (instant-based second/minute/hour steps); cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("Europe/Budapest", "2026-03-29T00:30:00+01:00", "0 0 * * * ?", ["2026-03-29T01:00:00+01:00", "2026-03-29T03:00:00+02:00", "2026-03-29T04:00:00+02:00"]),
        // java.time reasoning (instant-based second/minute/hour steps); cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("Europe/Budapest", "2026-03-29T01:30:00+01:00", "0 */15 * * * ?", ["2026-03-29T01:45:00+01:00", "2026-03-29T03:00:00+02:00", "2026-03-29T03:15:00+02:00"]),
        // java.time reasoning (instant-based second/minute/hour steps); cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("Europe/Budapest", "2026-03-28T12:00:00+01:00", "0 30 2 * * ?", ["2026-03-30T02:30:00+02:00", "2026-03-31T02:30:00+02:00", "2026-04-01T02:30:00+02:00"]),
        // java.time reasoning (instant-based second/minute/hour steps); cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("Europe/Budapest", "2026-03-28T12:00:00+01:00", "0 0 3 * * ?", ["2026-03-29T03:00:00+02:00", "2026-03-30T03:00:00+02:00", "2026-03-31T03:00:00+02:00"]),
        // java.time reasoning (instant-based second/minute/hour steps); cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("Europe/Budapest", "2026-03-28T12:00:00+01:00", "0 59 1 * * ?", ["2026-03-29T01:59:00+01:00", "2026-03-30T01:59:00+02:00"]),
        // java.time reasoning (instant-based second/minute/hour steps); cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("Europe/Budapest", "2026-03-28T12:00:00+01:00", "@daily", ["2026-03-29T00:00:00+01:00", "2026-03-30T00:00:00+02:00", "2026-03-31T00:00:00+02:00"]),
        // java.time reasoning (instant-based second/minute/hour steps); cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("Europe/Budapest", "2026-03-29T01:59:59+01:00", "* * * * * ?", ["2026-03-29T03:00:00+02:00", "2026-03-29T03:00:01+02:00"]),
        // java.time reasoning (instant-based second/minute/hour steps); cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("Europe/Budapest", "2026-10-25T01:30:00+02:00", "0 0 * * * ?", ["2026-10-25T02:00:00+02:00", "2026-10-25T02:00:00+01:00", "2026-10-25T03:00:00+01:00", "2026-10-25T04:00:00+01:00"]),
        // java.time reasoning (instant-based second/minute/hour steps); cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("Europe/Budapest", "2026-10-25T02:40:00+02:00", "0 */15 * * * ?", ["2026-10-25T02:45:00+02:00", "2026-10-25T02:00:00+01:00", "2026-10-25T02:15:00+01:00"]),
        // java.time reasoning (instant-based second/minute/hour steps); cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("Europe/Budapest", "2026-10-24T12:00:00+02:00", "0 30 2 * * ?", ["2026-10-25T02:30:00+02:00", "2026-10-25T02:30:00+01:00", "2026-10-26T02:30:00+01:00"]),
        // java.time reasoning (instant-based second/minute/hour steps); cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("Europe/Budapest", "2026-10-25T02:45:00+02:00", "0 30 2 * * ?", ["2026-10-25T02:30:00+01:00", "2026-10-26T02:30:00+01:00"]),
        // java.time reasoning (instant-based second/minute/hour steps); cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("Europe/Budapest", "2026-10-25T02:45:00+01:00", "0 30 2 * * ?", ["2026-10-26T02:30:00+01:00", "2026-10-27T02:30:00+01:00"]),
        // java.time reasoning (instant-based second/minute/hour steps); cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("Europe/Budapest", "2026-10-25T02:10:00+01:00", "0 0/30 * * * ?", ["2026-10-25T02:30:00+01:00", "2026-10-25T03:00:00+01:00", "2026-10-25T03:30:00+01:00"]),
        // java.time reasoning (instant-based second/minute/hour steps); cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("Europe/Budapest", "2026-10-18T00:00:00+02:00", "0 15 2 ? * SUN", ["2026-10-18T02:15:00+02:00", "2026-10-25T02:15:00+02:00", "2026-10-25T02:15:00+01:00"]),
        // java.time reasoning (instant-based second/minute/hour steps); cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("Europe/Budapest", "2026-10-25T02:59:59+02:00", "* * * * * ?", ["2026-10-25T02:00:00+01:00", "2026-10-25T02:00:01+01:00"]),
        // java.time reasoning (instant-based second/minute/hour steps); cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("Europe/Budapest", "2026-01-01T00:00:00+01:00", "0 0 0 * * ? 2025", ["never"]),
        // java.time reasoning (instant-based second/minute/hour steps); cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("Europe/Budapest", "2026-01-01T00:00:00+01:00", "0 30 6 ? * MON-FRI", ["2026-01-01T06:30:00+01:00", "2026-01-02T06:30:00+01:00", "2026-01-05T06:30:00+01:00"]),
        // java.time reasoning (instant-based second/minute/hour steps); cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("Europe/Budapest", "2026-12-24T18:00:00+01:00", "0 0 0 25 DEC ?", ["2026-12-25T00:00:00+01:00", "2027-12-25T00:00:00+01:00"]),
        // java.time reasoning (instant-based second/minute/hour steps); cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("America/New_York", "2026-03-07T12:00:00-05:00", "0 30 2 * * ?", ["2026-03-09T02:30:00-04:00", "2026-03-10T02:30:00-04:00"]),
        // java.time reasoning (instant-based second/minute/hour steps); cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("America/New_York", "2026-10-31T12:00:00-04:00", "0 30 1 * * ?", ["2026-11-01T01:30:00-04:00", "2026-11-01T01:30:00-05:00", "2026-11-02T01:30:00-05:00"]),
        // java.time reasoning (instant-based second/minute/hour steps); cross-checked by running CronAdjuster on a ZonedDateTime
        CronCase("America/New_York", "2026-11-01T00:30:00-04:00", "0 0 * * * ?", ["2026-11-01T01:00:00-04:00", "2026-11-01T01:00:00-05:00", "2026-11-01T02:00:00-05:00"]),
    ]

    /// `2026-03-29T03:00:00+02:00`: the zoned text without the `[zone]` suffix.
    static func text(_ instant: SimInstant, _ calendar: LocalCalendar) -> String {
        let zoned = calendar.isoZonedText(at: instant)
        return String(zoned.prefix { $0 != "[" })
    }

    @Test("Consecutive fires match CronAdjuster", arguments: cases)
    func consecutiveFires(_ row: CronCase) throws {
        let calendar = try LocalCalendar(identifier: row.zone)
        let cron = try CronExpression(row.expression)
        var now = try calendar.parseInstant(row.start)
        var seen: [String] = []
        for _ in row.fires {
            guard let next = cron.nextFire(after: now, in: calendar) else {
                seen.append("never")
                break
            }
            #expect(next > now)
            seen.append(Self.text(next, calendar))
            now = next
        }
        #expect(seen == row.fires)
    }

    @Test("The table covers at least 40 rows, both Budapest 2026 change days and New York")
    func tableCoverage() {
        #expect(Self.cases.count >= 40)
        #expect(Self.cases.contains { $0.zone == "Europe/Budapest" && $0.start.hasPrefix("2026-03-29") })
        #expect(Self.cases.contains { $0.zone == "Europe/Budapest" && $0.start.hasPrefix("2026-10-25") })
        #expect(Self.cases.contains { $0.zone == "America/New_York" })
    }

    @Test("A fire instant itself is not returned again; a start between seconds rounds up")
    func strictlyAfter() throws {
        let cron = try CronExpression("0 0 12 * * ?")
        let noon = try LocalCalendar.utc.parseInstant("2026-05-01T12:00:00Z")
        let next = try #require(cron.nextFire(after: noon, in: .utc))
        #expect(Self.text(next, .utc) == "2026-05-02T12:00:00Z")
        let everySecond = try CronExpression("* * * * * ?")
        let fraction = noon + .milliseconds(400)
        #expect(everySecond.nextFire(after: fraction, in: .utc) == noon + .seconds(1))
    }

    @Test("An every-minute expression walks 25 hours across the Budapest fall-back without gaps or repeats")
    func denseWalkAcrossFallBack() throws {
        let calendar = try LocalCalendar(identifier: "Europe/Budapest")
        let cron = try CronExpression("0 * * * * ?")
        var now = try calendar.parseInstant("2026-10-25T00:00:00+02:00")
        var fires = 0
        let end = try calendar.parseInstant("2026-10-26T00:00:00+01:00")
        while let next = cron.nextFire(after: now, in: calendar), next < end {
            #expect(next - now == .seconds(60))
            now = next
            fires += 1
        }
        #expect(fires == 25 * 60 - 1)
    }

    @Test("Sparse expressions are answered by jumping, up to the year-2200 horizon")
    func sparseAndHorizon() throws {
        let leap = try CronExpression("0 0 0 29 2 ? *")
        var now = try LocalCalendar.utc.parseInstant("2026-01-01T00:00:00Z")
        var count = 0
        while let next = leap.nextFire(after: now, in: .utc) {
            now = next
            count += 1
        }
        // Leap days 2028 … 2196 (2100 is not a leap year).
        #expect(count == (2196 - 2028) / 4 + 1 - 1)
        #expect(Self.text(now, .utc) == "2196-02-29T00:00:00Z")
    }

    @Test("Extreme instants neither crash nor search forever")
    func extremeInstants() throws {
        let calendar = try LocalCalendar(identifier: "Europe/Budapest")
        let cron = try CronExpression("0 0 0 1 1 ?")
        #expect(cron.nextFire(after: SimInstant(unixMilliseconds: .max), in: calendar) == nil)
        #expect(cron.nextFire(after: try LocalCalendar.utc.parseInstant("2199-12-31T23:00:00Z"), in: calendar) == nil)
        let first = try #require(cron.nextFire(after: SimInstant(unixMilliseconds: .min), in: .utc))
        #expect(Self.text(first, .utc) == "0001-01-01T00:00:00Z")
    }

    @Test("TimeOfDayTrigger times are cron 0 m h * * *")
    func timeOfDay() throws {
        let calendar = try LocalCalendar(identifier: "Europe/Budapest")
        let cron = try CronExpression.timeOfDay("07:30")
        let start = try calendar.parseInstant("2026-03-28T08:00:00+01:00")
        let next = try #require(cron.nextFire(after: start, in: calendar))
        #expect(Self.text(next, calendar) == "2026-03-29T07:30:00+02:00")
        #expect(try CronExpression.timeOfDay("7:5:59").text == "0 5 7 * * *")
        #expect(throws: RulesError.self) { try CronExpression.timeOfDay("7.30") }
        #expect(throws: RulesError.self) { try CronExpression.timeOfDay("25:00") }
    }
}
