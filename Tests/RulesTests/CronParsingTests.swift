import Rules
import Simulation
import Testing

/// One bad expression, the code it must raise and a fragment of the message people read.
struct CronErrorCase: CustomTestStringConvertible, Sendable {
    let expression: String
    let code: String
    let fragment: String

    init(_ expression: String, _ code: String, _ fragment: String) {
        self.expression = expression
        self.code = code
        self.fragment = fragment
    }

    var testDescription: String { "\"\(expression)\" → \(code)" }
}

@Suite("Reading cron expressions")
struct CronParsingTests {
    static let errors: [CronErrorCase] = [
        // CronAdjusterMiscTest.testToShort / testToLong / CronAdjusterTest.testInvalidCronExpression ("* * *")
        CronErrorCase("* * *", "rules.cronFieldCount", "has 3 fields; openHAB expects 6 or 7"),
        CronErrorCase("* * * * *", "rules.cronFieldCount", "has 5 fields"),
        CronErrorCase("* * * * * * * *", "rules.cronFieldCount", "has 8 fields"),
        CronErrorCase("", "rules.cronFieldCount", "has 0 fields"),
        // CronAdjusterTest.testInvalidCronExpression ("80 * * * * *"), CronAdjusterMiscTest.testAboveMax
        CronErrorCase("80 * * * * *", "rules.cronOutOfRange", "field 1 (seconds) \"80\" is out of range 0–59"),
        CronErrorCase("0 60 * * * ?", "rules.cronOutOfRange", "field 2 (minutes) \"60\" is out of range 0–59"),
        CronErrorCase("0 0 25 * * ?", "rules.cronOutOfRange", "field 3 (hours) \"25\" is out of range 0–23"),
        // CronAdjusterMiscTest.testBelowMin
        CronErrorCase("0 0 0 0 0 0", "rules.cronOutOfRange", "field 4 (day-of-month) \"0\" is out of range 1–31"),
        CronErrorCase("0 0 0 1 13 ?", "rules.cronOutOfRange", "field 5 (month) \"13\" is out of range 1–12"),
        // CronAdjusterMiscTest.testAboveWeekday
        CronErrorCase("* * * * * 8", "rules.cronOutOfRange", "field 6 (day-of-week) \"8\" is out of range 1–7"),
        CronErrorCase("0 0 8 ? * 0-6", "rules.cronOutOfRange", "field 6 (day-of-week) \"0\" in \"0-6\" is out of range 1–7"),
        // CronAdjusterMiscTest.testDayInWeek
        CronErrorCase("* * * * * FRI#X", "rules.cronInvalid", "field 6 (day-of-week) \"FRI#X\" is not a number or a weekday name"),
        // CronAdjusterMiscTest.testIllegalDayInWeek
        CronErrorCase("* * * * * NO", "rules.cronInvalid", "\"NO\" is not a number or a weekday name"),
        CronErrorCase("0 0 0 ? * JAN", "rules.cronInvalid", "\"JAN\" is not a number or a weekday name"),
        // CronAdjusterMiscTest.testMonthName
        CronErrorCase("* * * * FXB *", "rules.cronInvalid", "field 5 (month) \"FXB\" is not a number or a month name. Did you mean FEB?"),
        // CronAdjusterMiscTest.testWeekNumber
        CronErrorCase("* * * XW * *", "rules.cronInvalid", "field 4 (day-of-month) \"XW\" is not a number"),
        // CronAdjusterMiscTest.testBeforeSlash / testAfterSlash
        CronErrorCase("* * * 1/X * *", "rules.cronInvalid", "field 4 (day-of-month) \"1/X\" is not a number"),
        CronErrorCase("* * * X/10 * *", "rules.cronInvalid", "field 4 (day-of-month) \"X/10\" is not a number"),
        // CronAdjusterMiscTest.testRangeLeftSideError / testRangeRightSideError
        CronErrorCase("X-3 * * * * *", "rules.cronInvalid", "field 1 (seconds) \"X-3\" is not a number"),
        CronErrorCase("3-X * * * * *", "rules.cronInvalid", "field 1 (seconds) \"3-X\" is not a number"),
        // CronAdjusterTest.testInvalidCronExpression ("0 0 0 31 2 *")
        CronErrorCase("0 0 0 31 2 *", "rules.cronNeverFires", "can never fire: no date matches"),
        CronErrorCase("0 0 0 30 FEB ?", "rules.cronNeverFires", "can never fire"),
        CronErrorCase("0 0 0 ? * MON#6", "rules.cronNeverFires", "can never fire"),
        CronErrorCase("71-0/7 * * * * ?", "rules.cronNeverFires", "field 1 (seconds) matches no value"),
        // CronAdjuster has no L-n (its day-of-month reads L, LW and nW only).
        CronErrorCase("0 0 0 L-3 * ?", "rules.cronInvalid", "field 4 (day-of-month) \"L-3\" (days before the last) is not"),
        // A step of 0 makes CronAdjuster divide by zero.
        CronErrorCase("*/0 * * * * ?", "rules.cronInvalid", "field 1 (seconds) \"*/0\" has a step of 0"),
        CronErrorCase("@daly", "rules.cronUnknownPreset", "Did you mean \"@daily\"?"),
        // Presets are matched before upper-casing, so they are lower case only.
        CronErrorCase("@DAILY", "rules.cronUnknownPreset", "\"@DAILY\" is not a preset word"),
        CronErrorCase("0 0 12 1,,15 * ?", "rules.cronInvalid", "field 4 (day-of-month) \"1,,15\" has an empty item"),
        CronErrorCase("0 0 12 1-2-3 * ?", "rules.cronInvalid", "\"1-2-3\" is not a value, a range a-b or a step a/n"),
        CronErrorCase("0 0 12 * * ? 20x6", "rules.cronInvalid", "field 7 (year) \"20x6\" is not a number"),
    ]

    @Test("Bad expressions raise a coded error naming the field", arguments: errors)
    func badExpression(_ row: CronErrorCase) {
        do {
            let cron = try CronExpression(row.expression)
            Issue.record("\"\(row.expression)\" was accepted as \(cron)")
        } catch {
            #expect(error.codeName == row.code)
            #expect(error.message.contains(row.fragment), "message was: \(error.message)")
            #expect(error.hint?.isEmpty == false)
        }
    }

    @Test("The error table has at least 15 rows and uses every cron code")
    func errorCoverage() {
        #expect(Self.errors.count >= 15)
        let codes = Set(Self.errors.map(\.code))
        for code in RulesError.Code.allCases where code.rawValue.hasPrefix("rules.cron") {
            #expect(codes.contains(code.rawValue))
        }
    }

    @Test("What users see: code, message and hint in one description")
    func description() {
        #expect(throws: RulesError.self) { try CronExpression("0 0 25 * * ?") }
        do {
            _ = try CronExpression("0 0 25 * * ?")
        } catch {
            #expect(error.description == "rules.cronOutOfRange: Cron expression \"0 0 25 * * ?\": field 3 (hours) \"25\" is out of range 0–23. Hours run from 0 to 23.")
        }
    }

    @Test("Names are case-insensitive, blanks may be tabs, and only the last line counts")
    func lenientForms() throws {
        let calendar = LocalCalendar.utc
        let start = try calendar.parseInstant("2026-01-01T00:00:00Z")
        let reference = try CronExpression("0 15 10 ? JAN MON-FRI")
        for variant in ["0 15 10 ? jan mon-fri", " 0\t15  10 ? Jan Mon-Fri ", "TZ=Europe/Budapest\n0 15 10 ? JAN MON-FRI\n"] {
            let cron = try CronExpression(variant)
            #expect(cron.nextFire(after: start, in: calendar) == reference.nextFire(after: start, in: calendar))
        }
    }

    @Test("Garbled input never crashes: every text is either an error or an expression whose fires match it")
    func garbage() throws {
        var random = SplitMix64(seed: 20_261_123)
        let calendar = try LocalCalendar(identifier: "Europe/Budapest")
        let starts = try ["2026-03-29T01:59:00+01:00", "2026-10-25T02:30:00+02:00", "2026-06-15T12:00:00+02:00"]
            .map { try calendar.parseInstant($0) }
        let alphabet = Array("0123456789012345 *?,-/LW#@ \t\nMONTUEWEDTHUFRISATSUNJANFEBDECLWxé€+٣")
        let seeds = ["0 30 2 * * ?", "0 */15 * * * ?", "0 15 10 ? * 6L", "0 0 12 LW * ? 2027", "0 0 0 29 2 ? *", "@daily"]
        var accepted = 0, rejected = 0
        for round in 0..<600 {
            var text: [Character]
            if round % 2 == 0 {
                // Random characters from cron's own alphabet and a few strangers.
                text = (0..<Int(random.next() % 40)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            } else {
                // A valid expression with a few characters replaced, deleted or inserted.
                text = Array(seeds[Int(random.next() % UInt64(seeds.count))])
                for _ in 0..<(1 + Int(random.next() % 3)) {
                    let position = text.isEmpty ? 0 : Int(random.next() % UInt64(text.count))
                    let character = alphabet[Int(random.next() % UInt64(alphabet.count))]
                    switch random.next() % 3 {
                    case 0 where !text.isEmpty: text[position] = character
                    case 1 where !text.isEmpty: text.remove(at: position)
                    default: text.insert(character, at: position)
                    }
                }
            }
            do {
                let cron = try CronExpression(String(text))
                accepted += 1
                for start in starts {
                    if let next = cron.nextFire(after: start, in: calendar) {
                        #expect(next > start)
                        #expect(cron.matches(calendar.localDateTime(at: next)), "\(cron) fired at \(next)")
                    }
                }
            } catch {
                rejected += 1
                #expect(RulesError.Code.allCases.contains(error.code))
                #expect(error.message.hasPrefix("Cron expression \""), "\(error.message)")
            }
        }
        // Both outcomes must occur, or the generator is not exercising the parser.
        #expect(accepted > 20)
        #expect(rejected > 100)
    }
}
