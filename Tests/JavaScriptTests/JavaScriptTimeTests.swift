import Foundation
import JavaScript
import Scenarios
import Testing

extension JavaScriptSuite {
    /// `time` in the child against java.time on the same instants, DST days of Europe/Budapest included. The
    /// expected texts were printed by JDK 17's java.time (`jshell`) for the same calls.
    @Suite struct JavaScriptTimeTests {
        static let cases: [(expression: String, java: String)] = [
            ("time.ZonedDateTime.of(2026, 3, 28, 12, 0, 0, 0, 'Europe/Budapest').plusDays(1)", "2026-03-29T12:00+02:00[Europe/Budapest]"),
            ("time.ZonedDateTime.of(2026, 3, 29, 2, 30, 0, 0, 'Europe/Budapest')", "2026-03-29T03:30+02:00[Europe/Budapest]"),
            ("time.ZonedDateTime.of(2026, 10, 25, 2, 30, 0, 0, 'Europe/Budapest')", "2026-10-25T02:30+02:00[Europe/Budapest]"),
            ("time.ZonedDateTime.of(2026, 10, 25, 2, 30, 0, 0, 'Europe/Budapest').plusHours(1)", "2026-10-25T02:30+01:00[Europe/Budapest]"),
            ("time.ChronoUnit.HOURS.between(time.ZonedDateTime.of(2026, 3, 29, 0, 0, 0, 0, 'Europe/Budapest'), time.ZonedDateTime.of(2026, 3, 30, 0, 0, 0, 0, 'Europe/Budapest'))", "23"),
            ("time.ChronoUnit.DAYS.between(time.ZonedDateTime.of(2026, 3, 29, 0, 0, 0, 0, 'Europe/Budapest'), time.ZonedDateTime.of(2026, 3, 30, 0, 0, 0, 0, 'Europe/Budapest'))", "1"),
            ("time.ZonedDateTime.of(2026, 3, 29, 12, 0, 0, 0, 'Europe/Budapest').truncatedTo(time.ChronoUnit.DAYS)", "2026-03-29T00:00+01:00[Europe/Budapest]"),
            ("time.ZonedDateTime.of(2026, 3, 29, 12, 5, 0, 0, 'Europe/Budapest').format(time.DateTimeFormatter.ofPattern('EEE dd MMM yyyy HH:mm'))", "Sun 29 Mar 2026 12:05"),
            ("time.ZonedDateTime.of(2026, 10, 24, 2, 30, 0, 0, 'Europe/Budapest').plusDays(1)", "2026-10-25T02:30+02:00[Europe/Budapest]"),
            ("time.ZonedDateTime.of(2026, 1, 31, 9, 0, 0, 0, 'Europe/Budapest').plusMonths(1)", "2026-02-28T09:00+01:00[Europe/Budapest]"),
            ("time.Duration.ofMinutes(90)", "PT1H30M"),
            ("time.ZonedDateTime.of(2026, 3, 29, 12, 0, 0, 0, 'Europe/Budapest').toLocalTime().isAfter(time.LocalTime.of(11, 59))", "true"),
        ]

        @Test func timeAgreesWithJavaTimeAcrossDaylightSavingChanges() async throws {
            let s = JSScenario()
            s.items = "[" + Self.cases.indices.map { "{ \"name\": \"T\($0)\", \"type\": \"String\", \"state\": \"-\" }" }.joined(separator: ", ") + "]"
            s.files["automation/js/time.js"] = "rules.JSRule({ name: 'Time', triggers: [triggers.TimeOfDayTrigger('12:00')], execute: () => {\n"
                + Self.cases.enumerated().map { "  items.T\($0.offset).postUpdate(String(\($0.element.expression)));" }.joined(separator: "\n")
                + "\n} });\n"
            s.expect = Self.cases.enumerated().map { "{ \"item\": \"T\($0.offset)\", \"state\": \"\($0.element.java)\" }" }.joined(separator: ",\n")
            let result = try await s.run()
            #expect(result.failures.map(\.description) == [])
        }

        @Test func virtualNowAndToZDTFollowTheScenarioClock() async throws {
            let s = JSScenario()
            s.items = "[{ \"name\": \"Now\", \"type\": \"String\", \"state\": \"-\" }]"
            s.files["automation/js/now.js"] = """
            rules.JSRule({ name: 'Now', triggers: [triggers.TimeOfDayTrigger('18:45')], execute: () => {
              const now = time.ZonedDateTime.now();
              items.Now.postUpdate([now, time.toZDT('PT15M'), time.toZDT('07:30'), time.toZDT(60000), now.isBetweenTimes('18:00', '06:00'),
                now.isBetweenTimes('06:00', '18:00'), time.toZDT('8:15 pm').hour(), new Date().getTime() === now.toInstant().toEpochMilli()].join(' '));
            } });
            """
            s.expect = "{ \"item\": \"Now\", \"state\": \"2026-01-09T18:45+01:00[Europe/Budapest] 2026-01-09T19:00+01:00[Europe/Budapest] 2026-01-09T07:30+01:00[Europe/Budapest] 2026-01-09T18:46+01:00[Europe/Budapest] true false 20 true\" }"
            let result = try await s.run()
            #expect(result.failures.map(\.description) == [])
        }

        @Test func scriptsCannotReachNodesOwnRealm() async throws {
            let s = JSScenario()
            s.items = "[{ \"name\": \"Out\", \"type\": \"String\", \"state\": \"-\" }]"
            s.files["automation/js/escape.js"] = """
            const tries = [
              () => Math.random.constructor('return process')(),
              () => this.constructor.constructor('return process')(),
              () => globalThis.__twinHost.now.constructor('return process')(),
              () => { try { require('nope'); } catch (e) { return e.constructor.constructor('return process')(); } },
              () => module.constructor.constructor('return process')(),
              () => setTimeout.constructor('return process')(),
              () => cache.shared.get.constructor('return process')(),
            ];
            const outcome = tries.map((f) => { try { const p = f(); return p && p.pid ? 'escaped' : 'no'; } catch (e) { return 'blocked'; } });
            rules.JSRule({ name: 'Escape', triggers: [triggers.TimeOfDayTrigger('01:00')], execute: () => items.Out.postUpdate(outcome.join(',')) });
            """
            s.expect = "{ \"item\": \"Out\", \"state\": \"blocked,blocked,blocked,blocked,blocked,blocked,blocked\" }"
            let result = try await s.run()
            #expect(result.failures.map(\.description) == [])
        }
    }
}
