@testable import ScenarioFormat
@testable import Scenarios
import Testing
import Twin

/// Issue 41: the Java and openHAB calls real rule files make, run as JDK 17 and openHAB run them. Every expected
/// line was printed by `jshell` (JDK 17) for the same expressions — the jshell line is in the comment above it —
/// with `ZoneId.of("Europe/Budapest")`, the scenarios' zone, where a ZonedDateTime is made.
@Suite("Rules DSL: the Java rules reach")
struct DSLJavaTests {
    static func run(_ body: String, globals: String = "", items: String = #"[{ "name": "Go", "type": "Switch", "state": "OFF" }]"#,
                    extra: String = "") async throws -> (ScenarioResult, [String]) {
        try await DSLLanguageTests.scenario(body, items: items, globals: globals, extra: extra).run()
    }

    static func logged(_ rules: [String]) -> [String] { DSLRuleTests.logged(rules) }

    /// ChronoUnit.between across the spring DST change: HOURS on the time line (23), DAYS on the local date-time (1).
    @Test func chronoUnitBetweenAndDSTArithmetic() async throws {
        let (result, rules) = try await Self.run("""
            val a = ZonedDateTime.parse("2026-03-28T12:00:00+01:00")
            val b = ZonedDateTime.parse("2026-03-29T12:00:00+02:00")
            logInfo("test", "" + ChronoUnit.HOURS.between(a, b) + " " + ChronoUnit.DAYS.between(a, b) + " " + ChronoUnit.MINUTES.between(b, a) + " " + a.until(b, ChronoUnit.HALF_DAYS))
            logInfo("test", b.with(LocalTime.MIDNIGHT).format(DateTimeFormatter.ISO_ZONED_DATE_TIME) + " " + b.with(ChronoField.HOUR_OF_DAY, 2).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME))
            logInfo("test", a.plus(1, ChronoUnit.WEEKS).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME) + " " + a.with(TemporalAdjusters.lastInMonth(DayOfWeek.SUNDAY)).toLocalDate + " " + b.with(TemporalAdjusters.next(DayOfWeek.MONDAY)).toLocalDate + " " + b.with(TemporalAdjusters.firstDayOfMonth()).toLocalDate)
            logInfo("test", b.format(DateTimeFormatter.RFC_1123_DATE_TIME) + " | " + b.format(DateTimeFormatter.ISO_WEEK_DATE) + " " + b.format(DateTimeFormatter.BASIC_ISO_DATE) + " " + b.format(DateTimeFormatter.ISO_INSTANT) + " " + b.format(DateTimeFormatter.ISO_ORDINAL_DATE))
            logInfo("test", "" + b.toLocalDateTime + " " + b.toLocalDateTime.atZone(ZoneId.systemDefault()).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME) + " " + b.getMonth + " " + b.get(ChronoField.MINUTE_OF_DAY) + " " + b.getOffset)
            """)
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == [
            // ChronoUnit.HOURS.between(a, b) + " " + ChronoUnit.DAYS.between(a, b) + " " + ChronoUnit.MINUTES.between(b, a) + " " + a.until(b, ChronoUnit.HALF_DAYS)
            "23 1 -1380 1",
            // b.with(LocalTime.MIDNIGHT).format(ISO_ZONED_DATE_TIME) + " " + b.with(ChronoField.HOUR_OF_DAY, 2).format(ISO_OFFSET_DATE_TIME): 02:00 is in the gap
            "2026-03-29T00:00:00+01:00[Europe/Budapest] 2026-03-29T03:00:00+02:00",
            // a.plus(1, WEEKS) keeps the wall time; TemporalAdjusters.lastInMonth(SUNDAY), next(MONDAY), firstDayOfMonth()
            "2026-04-04T12:00:00+02:00 2026-03-29 2026-03-30 2026-03-01",
            // b.format(RFC_1123_DATE_TIME), ISO_WEEK_DATE, BASIC_ISO_DATE, ISO_INSTANT, ISO_ORDINAL_DATE
            "Sun, 29 Mar 2026 12:00:00 +0200 | 2026-W13-7+02:00 20260329+0200 2026-03-29T10:00:00Z 2026-088+02:00",
            // b.toLocalDateTime() + " " + b.toLocalDateTime().atZone(zone).format(ISO_OFFSET_DATE_TIME) + " " + b.getMonth() + " " + b.get(MINUTE_OF_DAY) + " " + b.getOffset()
            "2026-03-29T12:00 2026-03-29T12:00:00+02:00 MARCH 720 +02:00",
        ], "\(rules)")
    }

    @Test func localDateTimeDatesTimesAndDurations() async throws {
        let (result, rules) = try await Self.run("""
            logInfo("test", "" + LocalDateTime.of(2026, 1, 31, 10, 0).plusMonths(1) + " " + ChronoUnit.MONTHS.between(LocalDate.of(2026, 1, 31), LocalDate.of(2026, 2, 28)) + " " + ChronoUnit.DAYS.between(LocalDateTime.of(2026, 1, 1, 10, 0), LocalDateTime.of(2026, 1, 3, 9, 0)) + " " + ChronoUnit.WEEKS.between(LocalDate.of(2026, 1, 1), LocalDate.of(2026, 3, 1)) + " " + ChronoUnit.YEARS.between(LocalDate.of(2020, 2, 29), LocalDate.of(2026, 2, 28)) + " " + LocalDateTime.of(2026, 1, 9, 10, 0, 5))
            logInfo("test", "" + LocalDate.of(2026, 3, 29).atStartOfDay + " " + LocalDate.of(2026, 2, 10).lengthOfMonth + " " + LocalDate.of(2026, 3, 29).atTime(7, 5) + " " + LocalTime.of(23, 50).plusSeconds(700) + " " + ChronoUnit.HOURS.between(LocalDateTime.of(2026, 3, 29, 7, 0), LocalDate.of(2026, 3, 29).atStartOfDay.plusHours(12)) + " " + LocalDateTime.parse("2026-01-09T10:00:30").second + " " + LocalDateTime.of(2026, 1, 9, 10, 0).truncatedTo(ChronoUnit.HOURS).isBefore(LocalDateTime.of(2026, 1, 9, 10, 0, 1)))
            logInfo("test", "" + Duration.ofMinutes(135).toHoursPart + " " + Duration.ofMinutes(135).toMinutesPart + " " + Duration.ofMinutes(-135).toMinutesPart + " " + Duration.ofHours(1).minusMinutes(10).toMinutes + " " + Duration.ofMinutes(10).multipliedBy(3).toMinutes + " " + Duration.ofMinutes(-5).abs.toMinutes + " " + Duration.between(LocalDateTime.of(2026, 3, 29, 1, 0), LocalDateTime.of(2026, 3, 29, 4, 0)).toHours)
            logInfo("test", "" + Month.of(2).length(false) + " " + LocalDate.of(2026, 1, 9).month + " " + DayOfWeek.of(3) + " " + Instant.ofEpochMilli(0).atZone(ZoneId.systemDefault()).hour + " " + ChronoUnit.HOURS.between(LocalTime.of(10, 0), LocalTime.of(8, 30)))
            """)
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == [
            // LocalDateTime.of(2026,1,31,10,0).plusMonths(1) … MONTHS/DAYS/WEEKS/YEARS.between … LocalDateTime.of(2026,1,9,10,0,5)
            "2026-02-28T10:00 0 1 8 5 2026-01-09T10:00:05",
            // atStartOfDay(), lengthOfMonth(), atTime(7, 5), LocalTime.of(23, 50).plusSeconds(700), HOURS.between(…), parse(…).getSecond(), truncatedTo(HOURS).isBefore(…)
            "2026-03-29T00:00 28 2026-03-29T07:05 00:01:40 5 30 true",
            // Duration parts (negative parts are negative), minusMinutes, multipliedBy, abs; Duration.between local date-times is wall-clock (PT3H)
            "2 15 -15 50 30 5 3",
            // Month.of(2).length(false), getMonth(), DayOfWeek.of(3), Instant.ofEpochMilli(0).atZone(Budapest).getHour(), HOURS.between(10:00, 08:30)
            "28 JANUARY WEDNESDAY 1 -1",
        ], "\(rules)")
    }

    /// `new Random(seed)` is Java's generator; `new Random()`, `Math.random` and `UUID.randomUUID` draw from the
    /// scenario's seed, so a run repeats exactly.
    @Test func randomIsJavasGeneratorAndSeeded() async throws {
        let (result, rules) = try await Self.run("""
            logInfo("test", "" + new Random(42).nextInt(100) + " " + new Random(42).nextInt() + " " + new Random(42).nextDouble() + " " + new Random(42).nextLong() + " " + new Random(42).nextInt(5, 10) + " " + new Random(7).nextBoolean() + " " + new Random(7).nextInt(7))
            val r = new Random()
            logInfo("test", "" + r.nextInt(1000) + " " + Math.random() + " " + UUID.randomUUID())
            """)
        #expect(result.failures.isEmpty, "\(result.failures)")
        let lines = Self.logged(rules)
        // jshell: new Random(42).nextInt(100), nextInt(), nextDouble(), nextLong(), nextInt(5, 10); new Random(7).nextBoolean(), nextInt(7)
        #expect(lines.first == "30 -1170105035 0.7275636800328681 -5025562857975149833 5 true 3", "\(lines)")
        let (again, rulesAgain) = try await Self.run("""
            logInfo("test", "" + new Random(42).nextInt(100) + " " + new Random(42).nextInt() + " " + new Random(42).nextDouble() + " " + new Random(42).nextLong() + " " + new Random(42).nextInt(5, 10) + " " + new Random(7).nextBoolean() + " " + new Random(7).nextInt(7))
            val r = new Random()
            logInfo("test", "" + r.nextInt(1000) + " " + Math.random() + " " + UUID.randomUUID())
            """)
        #expect(again.failures.isEmpty)
        #expect(Self.logged(rulesAgain) == lines, "the same scenario and seed give the same numbers")
        let uuid = lines.last?.split(separator: " ").last.map(String.init) ?? ""
        #expect(uuid.count == 36 && uuid.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12] && Array(uuid)[14] == "4", "\(uuid)")
    }

    @Test func textNumbersAndURLs() async throws {
        let (result, rules) = try await Self.run("""
            logInfo("test", "" + new Double("1.5") + " " + new Integer(5) + " " + Double.parseDouble("2.5d") + " " + URLEncoder.encode("a b&c=ü/€", "UTF-8") + " " + URLDecoder.decode("a+b%26c%3D%C3%BC", StandardCharsets.UTF_8) + " " + "abc".contentEquals("abc") + " " + "a".compareToIgnoreCase("B"))
            logInfo("test", "" + Math.floorMod(-7, 3) + " " + Math.floorDiv(-7, 3) + " " + Math.toDegrees(Math.PI) + " " + Math.toRadians(180) + " " + Math.atan2(1, 1) + " " + Math.hypot(3, 4) + " " + Integer.toString(5) + " " + Double.toString(0.1 + 0.2) + " " + Double.isNaN(Double.NaN) + " " + Integer.compare(3, 5))
            logInfo("test", "" + UUID.fromString("123e4567-e89b-12d3-a456-426614174000") + " " + "x=%d".formatted(5))
            """)
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == [
            // new Double("1.5"), new Integer(5), Double.parseDouble("2.5d"), URLEncoder.encode("a b&c=ü/€", "UTF-8"), URLDecoder.decode(…, UTF_8), contentEquals, compareToIgnoreCase
            "1.5 5 2.5 a+b%26c%3D%C3%BC%2F%E2%82%AC a b&c=ü true -1",
            // Math.floorMod(-7, 3), floorDiv(-7, 3), toDegrees(PI), toRadians(180), atan2(1, 1), hypot(3, 4), Integer.toString(5), Double.toString(0.1 + 0.2), Double.isNaN(Double.NaN), Integer.compare(3, 5)
            "2 -3 180.0 3.141592653589793 0.7853981633974483 5.0 5 0.30000000000000004 true -1",
            // UUID.fromString(…), "x=%d".formatted(5)
            "123e4567-e89b-12d3-a456-426614174000 x=5",
        ], "\(rules)")
    }

    /// ZonedDateTime.of in the spring gap moves forward; in the autumn overlap it keeps the earlier offset.
    @Test func zonedDateTimeOfAndTheRareUnits() async throws {
        let (result, rules) = try await Self.run("""
            val z = ZoneId.systemDefault()
            logInfo("test", ZonedDateTime.of(2026, 3, 29, 2, 30, 0, 0, z).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME) + " " + ZonedDateTime.of(LocalDateTime.of(2026, 10, 25, 2, 30), z).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME) + " " + ZonedDateTime.of(2026, 1, 9, 10, 0, 0, 0, z).plus(2, ChronoUnit.DECADES).year + " " + LocalTime.of(10, 47, 30).truncatedTo(ChronoUnit.HOURS).minute + " " + ZonedDateTime.of(2026, 1, 9, 10, 0, 0, 0, z).toInstant.epochSecond)
            """)
        #expect(result.failures.isEmpty, "\(result.failures)")
        // ZonedDateTime.of(2026,3,29,2,30,0,0,z), ZonedDateTime.of(LocalDateTime.of(2026,10,25,2,30), z) (ISO_OFFSET_DATE_TIME),
        // plus(2, DECADES).getYear(), LocalTime.of(10,47,30).truncatedTo(HOURS).getMinute(), toInstant().getEpochSecond()
        #expect(Self.logged(rules) == ["2026-03-29T03:30:00+02:00 2026-10-25T02:30:00+02:00 2046 0 1767949200"], "\(rules)")
    }

    @Test func displayNamesInTheLocalesTheTwinKnows() async throws {
        let (result, rules) = try await Self.run("""
            val d = LocalDate.of(2026, 1, 9)
            logInfo("test", d.dayOfWeek.getDisplayName(TextStyle.FULL, Locale.GERMAN) + " " + d.dayOfWeek.getDisplayName(TextStyle.SHORT, Locale.FRENCH) + " " + d.dayOfWeek.getDisplayName(TextStyle.FULL, Locale.ROOT) + " " + d.month.getDisplayName(TextStyle.SHORT, Locale.GERMAN) + " " + Month.MARCH.getDisplayName(TextStyle.FULL, Locale.FRENCH) + " " + DayOfWeek.SUNDAY.plus(1) + " " + Month.JANUARY.minus(1) + " " + DayOfWeek.MONDAY.minus(8))
            val uk = d.month.getDisplayName(TextStyle.SHORT, Locale.UK)
            """)
        #expect(result.failures.isEmpty, "\(result.failures)")
        // getDisplayName(FULL, GERMAN), (SHORT, FRENCH), (FULL, ROOT), getMonth().getDisplayName(SHORT, GERMAN),
        // Month.MARCH.getDisplayName(FULL, FRENCH), DayOfWeek.SUNDAY.plus(1), Month.JANUARY.minus(1), DayOfWeek.MONDAY.minus(8)
        #expect(Self.logged(rules) == ["Freitag ven. Fri Jan. mars MONDAY DECEMBER SUNDAY"], "\(rules)")
        // Java's UK abbreviations differ from the English the twin keeps ("Sept"): refused, not guessed.
        #expect(rules.joined().contains("UnsupportedOperationException"), "\(rules)")
    }

    @Test func collectionsAsJavaUtil() async throws {
        let (result, rules) = try await Self.run("""
            val l = newArrayList(1, 2, 1, 3)
            val m = newHashMap
            logInfo("test", "" + l.lastIndexOf(1) + " " + l.containsAll(#[1, 3]) + " " + l.retainAll(#[1, 3, 4]) + " " + l + " " + m.putIfAbsent("a", 1) + " " + m.putIfAbsent("a", 2) + " " + m.replace("b", 5) + " " + m.replace("a", 7) + " " + m)
            """)
        #expect(result.failures.isEmpty, "\(result.failures)")
        // l.lastIndexOf(1), containsAll(List.of(1, 3)), retainAll(List.of(1, 3, 4)), l, m.putIfAbsent("a", 1), putIfAbsent("a", 2), replace("b", 5), replace("a", 7), m
        #expect(Self.logged(rules) == ["2 true true [1, 1, 3] null 1 null 1 {a=7}"], "\(rules)")
    }

    @Test func aBadEscapeAndAnotherZoneAreJavaErrors() async throws {
        for (expression, exception) in [("URLDecoder.decode(\"100%\", \"UTF-8\")", "IllegalArgumentException"),
                                        ("URLDecoder.decode(\"%zz\", \"UTF-8\")", "IllegalArgumentException"),
                                        ("URLEncoder.encode(\"x\", \"ISO-8859-1\")", "UnsupportedEncodingException"),
                                        ("new Random().nextInt(0)", "IllegalArgumentException"),
                                        ("LocalDate.of(2026, 1, 1).until(LocalDate.of(2026, 1, 2), ChronoUnit.HOURS)", "UnsupportedTemporalTypeException"),
                                        ("now.toLocalDateTime.atZone(ZoneId.of(\"UTC\"))", "UnsupportedOperationException")] {
            let (result, rules) = try await Self.run("val x = \(expression)\nlogInfo(\"t\", \"not reached \" + x)")
            #expect(result.failures.isEmpty)
            #expect(Self.logged(rules).isEmpty, "\(expression)")
            #expect(rules.contains { $0.contains("error: ") && $0.contains(exception) }, "\(expression): \(rules)")
        }
    }

    /// openHAB's getThingStatusInfo answers from the Thing registry (an unknown UID: null), storeStates and
    /// restoreStates put states back (commands where the state is a Command), GroupItem.addMember/removeMember.
    @Test func thingStatusStoredStatesAndGroupMembers() async throws {
        let items = #"[{ "name": "Go", "type": "Switch", "state": "OFF" }, { "name": "gL", "type": "Group" }, { "name": "L1", "type": "Switch", "state": "ON" }, { "name": "C1", "type": "Contact", "state": "CLOSED" }]"#
        let (result, rules) = try await Self.run("""
            val info = getThingStatusInfo("twin:thermostat:flat-1:heating")
            logInfo("test", "" + info + " " + info.status + " " + info.getStatusDetail() + " " + info.description + " " + (info.status == ThingStatus.ONLINE) + " " + getThingStatusInfo("mqtt:topic:none:x"))
            gL.addMember(L1)
            logInfo("test", "members " + gL.members.size)
            val m = storeStates(L1, C1)
            L1.postUpdate(OFF)
            C1.postUpdate(OPEN)
            restoreStates(m)
            gL.removeMember(L1)
            logInfo("test", "members " + gL.members.size)
            """, items: items)
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["ONLINE ONLINE NONE null true null", "members 1", "members 0"], "\(rules)")
        let run = rules.joined(separator: "\n")
        // restoreStates: ON is a Command (sent), CLOSED is not (updated), as openHAB's BusEventImpl.restoreStates.
        #expect(run.contains("L1 ← ON") && run.contains("C1 := CLOSED"), "\(run)")
    }

    /// Any binding's Thing action lands in the outbox with its scope, Thing, method and arguments, and answers the
    /// scripted result or null; an expectation matches on scope, method and arguments (and fails when they differ).
    @Test func anyBindingsActionsLandInTheOutbox() async throws {
        let body = """
            val mqtt = getActions("mqtt", "mqtt:broker:home")
            logInfo("test", "" + mqtt.publishMQTT("home/door", "OPEN", true) + " " + getActions("hue", "hue:bridge:1").activateScene("evening") + " " + getActions("telegram", "telegram:telegramBot:b").sendTelegramAnswer(1L, "ok") + " " + getActions("telegram", "telegram:telegramBot:b").deleteTelegramQuery(5L))
            """
        let responses = #""responses": [{"scope": "mqtt", "method": "publish*", "result": "sent"}, {"scope": "telegram", "method": "deleteTelegramQuery", "thing": "telegram:*", "result": 1}]"#
        let expect = #"{ "action": { "scope": "mqtt", "method": "publishMQTT", "recipient": "mqtt:broker:home", "arguments": ["home/door", "OPEN", "true"] }, "count": 1 }"#
        var s = DSLLanguageTests.scenario(body, extra: responses)
        s.expect = expect
        let (result, rules) = try await s.run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["sent null true 1"], "\(rules)")
        let run = rules.joined(separator: "\n")
        #expect(run.contains("→ action mqtt.publishMQTT to mqtt:broker:home: home/door, OPEN, true"), "\(run)")
        #expect(run.contains("→ action hue.activateScene to hue:bridge:1: evening"), "\(run)")
        #expect(run.contains("→ telegram sendTelegramAnswer to 1: ok"), "the telegram kind keeps its own row: \(run)")
        let actions = result.outbox.filter { $0.channel == .action }
        #expect(actions.map(\.scope) == ["mqtt", "hue", "telegram"] && actions.map(\.arguments) == [["home/door", "OPEN", "true"], ["evening"], ["5"]])
        // Negative controls: other arguments, another scope.
        for wrong in [#"{ "action": { "method": "publishMQTT", "arguments": ["home/door", "CLOSED", "true"] } }"#,
                      #"{ "action": { "scope": "http", "method": "publishMQTT" } }"#] {
            var bad = DSLLanguageTests.scenario(body, extra: responses)
            bad.expect = wrong
            let (failed, _) = try await bad.run()
            #expect(failed.failures.count == 1, "\(wrong)")
        }
    }

    @Test func theLanguageSlips() async throws {
        // 3 | W, 0 | °, 5 | "°" are quantity literals as Xbase reads them; a call with arguments is the action
        // even where a local variable has its name.
        let (result, rules) = try await Self.run("""
            var sendNotification = false
            val p = 3 | W
            val a = 0 | °
            val b = 5 | "°"
            val c = 21.5|°C
            logInfo("test", "" + p + " " + a + " " + b + " " + c + " " + (p + 2 | W) + " " + sendNotification)
            sendNotification("host@example.com", "hello")
            """)
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(Self.logged(rules) == ["3 W 0 ° 5 ° 21.5 °C 5 W false"], "\(rules)")
        #expect(rules.joined().contains("→ notification sendNotification to host@example.com: hello"))
    }

    /// `LocalTime.MIN` (00:00) runs; `LocalTime.MAX` (nanoseconds) is refused with its reason; a Player's
    /// `NextPreviousType`/`RewindFastforwardType` constants, bare and qualified, are commands and print their names.
    @Test func localTimeMinAndPlayerCommands() async throws {
        let (result, rules) = try await Self.run("""
            val start = LocalTime::MIN
            logInfo("test", "" + start + " " + start.isBefore(LocalTime.NOON) + " " + LocalTime.MIN.equals(LocalTime.MIDNIGHT) + " " + LocalTime.of(8, 0) + " " + LocalTime.of(8, 0, 5) + " " + NextPreviousType::NEXT + " " + PREVIOUS + " " + RewindFastforwardType.REWIND + " " + (FASTFORWARD == RewindFastforwardType::FASTFORWARD))
            Tuner.sendCommand(NextPreviousType::PREVIOUS)
            """, items: #"[{ "name": "Go", "type": "Switch", "state": "OFF" }, { "name": "Tuner", "type": "Player" }]"#)
        #expect(result.failures.isEmpty, "\(result.failures)")
        // jshell: "" + LocalTime.MIN + " " + LocalTime.MIN.isBefore(LocalTime.NOON) + " " + LocalTime.MIN.equals(LocalTime.MIDNIGHT) + " " + LocalTime.of(8, 0) + " " + LocalTime.of(8, 0, 5)
        #expect(Self.logged(rules) == ["00:00 true true 08:00 08:00:05 NEXT PREVIOUS REWIND true"], "\(rules)")
        #expect(rules.joined(separator: "\n").contains("Tuner"), "\(rules)")
        let problems = DSLLanguageTests.scenario("val end = LocalTime::MAX").problems()
        #expect(problems.contains { $0.contains("rules.dslUnsupported") && $0.contains("keep milliseconds") }, "\(problems)")
    }

    /// `new PointType(text)`, a cast to it, and `distanceFrom` (openHAB's haversine on the WGS84 radius, in metres).
    @Test func pointTypeDistance() async throws {
        let (result, rules) = try await Self.run("""
            var PointType home = new PointType("47.5,19.04")
            val Object seen = new PointType("47.4979,19.0402")
            val PointType here = seen as PointType
            logInfo("test", "" + here.distanceFrom(home) + " " + home.distanceFrom(here).intValue + " " + here.latitude + " " + (seen instanceof PointType))
            """)
        #expect(result.failures.isEmpty, "\(result.failures)")
        // jshell, PointType.distanceFrom's lines with lat1=47.5, lon1=19.04, lat2=47.4979, lon2=19.0402:
        // 6378137 * c → 234.25434238068084, its intValue 234
        #expect(Self.logged(rules) == ["234.25434238068084 234 47.4979 true"], "\(rules)")
    }

    /// openHAB 2's MQTT1 `publish` is refused as openHAB 3+ refuses it; a JDK member the twin does not run is
    /// refused by `validate` with the table's reason.
    @Test func refusalsSayWhy() {
        for (body, words) in [("publish(\"broker\", \"t\", \"v\")", "openHAB 2's MQTT1 action"),
                              ("val p = Period.ofDays(2)", "java.time.Period is not run"),
                              ("val s = \"abc\".codePointAt(0)", "code points"),
                              ("val c = Character.isDigit(\"5\")", "no char kind")] {
            let problems = DSLLanguageTests.scenario(body).problems()
            #expect(problems.contains { $0.contains("rules.dslUnsupported") && $0.contains(words) }, "\(body): \(problems)")
        }
    }
}
