import Foundation
import Testing
@testable import RentalTwinCLI

/// Scenario expectations read Item states as openHAB 5 prints them, and compare quantities by value.
@Suite("openHAB state text in scenario runs", .serialized)
struct OpenHABTextCommandTests {
    /// A `22` command to the setpoint, then an expectation of a different value: the failure shows
    /// the state as openHAB 5 prints it (`22 °C`, whole number narrowed), while the example's own
    /// `"21.0 °C"`-style expectations, compared by value, still pass.
    @Test func aFailedExpectationPrintsTheOpenHABText() async throws {
        let (file, reports) = try mutatedExample("03-back-to-back-fixed-preheat.json", [
            (#"{ "at": "2026-02-06T00:00", "command": { "item": "flat-1/heating/switch", "value": "ON" } },"#,
             #"{ "at": "2026-02-06T00:00", "command": { "item": "flat-1/heating/switch", "value": "ON" } }, { "at": "2026-02-06T01:00", "command": { "item": "flat-1/heating/setpoint", "value": "22" } },"#),
            (#""expect": ["#, #""expect": [ { "at": "2026-02-06T01:01", "item": "flat-1/heating/setpoint", "state": "23 °C" },"#),
        ])
        let outcome = await RentalTwinCommand.main(["run", file, "--report", reports])
        let out = outcome.standardOutput
        #expect(outcome.exitCode == .failure, "\(out)\(outcome.standardError)")
        #expect(out.contains(#"expected flat-1/heating/setpoint = "23 °C"; actual "22 °C""#), "\(out)")
        // The file's "21.0 °C" expectations after the preheat (which sets 21) still match `21 °C` by value.
        #expect(!out.contains("expected flat-1/heating/setpoint = \"21.0 °C\""), "\(out)")
    }
}
