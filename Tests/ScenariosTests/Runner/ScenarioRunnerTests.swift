@testable import ScenarioFormat
@testable import Scenarios
import Simulation
import Testing
@_spi(TwinParts) import Twin

/// Runs `text` (a scenario) and returns the result.
func run(_ text: String) async throws -> ScenarioResult {
    try await ScenarioRunner.run(try ScenarioDecoder.decode(text, file: "test.json"))
}

/// The minimal scenario with its timeline and expectations replaced.
func scenario(timeline: String, expect: String, automations: String = "") -> String {
    let start = minimalScenario.range(of: "  \"timeline\": [")!.lowerBound
    return String(minimalScenario[..<start]) + automations + """
          "timeline": [
        \(timeline)
          ],
          "expect": [
        \(expect)
          ]
        }
        """
}

let bookR1 = """
    { "at": "2026-01-09T12:00", "book": { "id": "r1", "guest": "guest", "listing": "flat-1", "checkIn": "2026-01-09", "checkOut": "2026-01-10", "guests": 2 } }
    """

@Suite("Running scenarios")
struct ScenarioRunnerTests {
    @Test func theMinimalScenarioPasses() async throws {
        let result = try await run(minimalScenario)
        #expect(result.passed, "\(result.failures)")
        #expect(result.stepsRun == 2 && result.expectationsChecked == 1)
        #expect(result.stays.map(\.reservation) == ["r1"])
    }

    @Test func stepsRunInTimeOrderThenFileOrderFromOneQueuedEvent() async throws {
        func cancel(_ at: String, _ id: String) -> String {
            "{ \"at\": \"2026-01-09T\(at)\", \"cancel\": { \"reservation\": \"\(id)\" }, \"expectError\": \"reservation.notFound\" }"
        }
        let text = scenario(timeline: [cancel("15:00", "a"), bookR1, cancel("15:00", "b"), cancel("13:00", "c")].joined(separator: ",\n"),
                            expect: "")
        let result = try await run(text)
        #expect(result.passed, "\(result.failures)")
        let order = result.log.compactMap { line in line.range(of: "(timeline[").map { line[$0.upperBound...].prefix { $0 != "]" } } }
        #expect(order == ["1", "3", "0", "2"], "\(result.log)")
        // The kernel holds one event for the whole timeline, however long it is.
        func pendingAfterPreparing(_ steps: Int) async throws -> Int {
            let many = scenario(timeline: ([bookR1] + (0..<steps).map { cancel("15:00", "x\($0)") }).joined(separator: ",\n"), expect: "")
            let (world, _) = try await ScenarioRunner.prepare(try ScenarioDecoder.decode(many, file: "test.json"), options: World.Options())
            let pending = world.kernel.pendingCount
            await world.close()
            return pending
        }
        #expect(try await pendingAfterPreparing(1) == (try await pendingAfterPreparing(40)))
    }

    @Test func aStepThatShouldFailButSucceedsIsAFailure() async throws {
        let result = try await run(scenario(timeline: bookR1 + """
            ,
                { "at": "2026-01-09T15:00", "unlock": { "item": "flat-1/door/lock", "by": "guest" }, "expectError": "lock.accessDenied" }
            """, expect: ""))
        #expect(result.failures.map(\.path) == ["timeline[1]"])
        #expect(result.failures.first?.description.hasSuffix(
            ", timeline[1] at 2026-01-09T15:00: expected error lock.accessDenied; actual success") == true)
    }

    @Test func aStepFailingWithAnotherCodeReportsBoth() async throws {
        let result = try await run(scenario(timeline: bookR1 + """
            ,
                { "at": "2026-01-09T15:00", "unlock": { "item": "flat-1/door/lock", "by": "host" }, "expectError": "thing.offline" },
                { "at": "2026-01-09T15:01", "cancel": { "reservation": "nope" }, "expectError": "reservation.notFound" },
                { "at": "2026-01-09T15:02", "book": { "id": "r2", "guest": "guest", "listing": "flat-1", "checkIn": "2026-01-09", "checkOut": "2026-01-10", "guests": 1 } }
            """, expect: ""))
        #expect(result.failures.map(\.path) == ["timeline[1]", "timeline[3]"])
        #expect(result.failures[0].expected == "error thing.offline" && result.failures[0].actual == "success")
        #expect(result.failures[1].expected == "book to succeed")
        #expect(result.failures[1].actual.hasPrefix("reservation.overlap: "), "\(result.failures[1].actual)")
    }

    @Test func timedChecksSeeAutomationsOfTheSameInstant() async throws {
        // The watcher runs at 00:05 (scheduled while the run goes on); a check at 00:05 sees its effect.
        let result = try await run(scenario(
            timeline: bookR1,
            expect: """
                { "at": "2026-01-09T00:04", "item": "flat-1/heating/switch", "state": "OFF" },
                { "at": "2026-01-09T00:05", "item": "flat-1/heating/switch", "state": "ON" },
                { "at": "2026-01-09T12:00", "reservation": "r1", "status": "confirmed" }
            """,
            automations: "  \"automations\": { \"weatherWatcher\": { \"heatOnBelowC\": 15 } },\n"))
        #expect(result.passed, "\(result.failures)")
        #expect(result.log.contains { $0.hasPrefix("2026-01-09T00:05  weatherWatcher flat-1: ") })
    }

    @Test func energyAndDiscomfortChecksReportTheFigure() async throws {
        // Heating ON at 21 °C for the whole day at −2 °C: far more than 1 kWh; 16 °C start means discomfort.
        let result = try await run(scenario(
            timeline: bookR1 + """
            ,
                { "at": "2026-01-09T00:00", "command": { "item": "flat-1/heating/switch", "value": "ON" } },
                { "at": "2026-01-09T13:00", "arrive": { "reservation": "r1" } }
            """,
            expect: """
                { "energy": { "listing": "flat-1", "device": "heating" }, "from": "2026-01-09T00:00", "to": "2026-01-09T12:00", "atMostKWh": 1 },
                { "discomfort": { "listing": "flat-1" }, "atMostKh": 0 }
            """))
        #expect(result.failures.map(\.path) == ["expect[0]", "expect[1]"])
        // 2000 W for 12 h, never reaching the setpoint from 16 °C: exactly 24 kWh.
        #expect(result.failures[0].actual == "24.000 kWh")
        #expect(result.failures[0].expected == "energy of flat-1/heating over 2026-01-09T00:00 … 2026-01-09T12:00 ≤ 1 kWh")
        #expect(result.failures[1].actual.hasSuffix("K·h"))
    }

    @Test func sameFileSameSeedSameResult() async throws {
        let a = try await run(minimalScenario), b = try await run(minimalScenario)
        #expect(a.ledger == b.ledger)
        #expect(a.log == b.log)
    }
}
