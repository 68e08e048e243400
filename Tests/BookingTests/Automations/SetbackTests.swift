import Booking
import Simulation
import SmartHome
import Testing

@Suite("Setback: lower setpoints and cooling off at check-out")
struct SetbackTests {
    @Test("at the check-out moment heating setpoints drop and cooling goes OFF; cancelled stays are skipped")
    func setbackAtCheckOut() async throws {
        let twin = try await BookingTwin(outdoorC: 5)
        let log = AutomationLog()
        let setback = Setback(setpointC: 16, scheduler: twin.kernel, stays: twin.reservations, api: twin.api, configurations: twin.store,
                              log: log)
        twin.observe(setback)
        try await twin.book("r1", "2026-01-09", "2026-01-10")
        try await twin.book("r2", "2026-01-11", "2026-01-12")
        #expect(await setback.pendingReservations == ["r1", "r2"])
        try await twin.run(until: "2026-01-09T15:00")
        try await twin.home.setSwitch(configuration: "flat-1/heating", on: true, by: BookingTwin.guest)
        try await twin.home.setSwitch(configuration: "flat-1/ac", on: true, by: BookingTwin.guest)
        try await twin.home.setProperty(configuration: "flat-1/heating", property: "setpoint", value: "22.5 °C", by: BookingTwin.guest)
        try await twin.cancel("r2")
        try await twin.run(until: "2026-01-10T09:59:59")
        #expect(try await twin.state("flat-1/heating/setpoint") == "22.5 °C")
        #expect(try await twin.state("flat-1/ac/switch") == "ON")
        try await twin.run(until: "2026-01-10T10:00")
        #expect(try await twin.state("flat-1/heating/setpoint") == "16 °C")
        #expect(try await twin.state("flat-1/heating/switch") == "ON")
        #expect(try await twin.state("flat-1/ac/switch") == "OFF")
        try await twin.home.setProperty(configuration: "flat-1/heating", property: "setpoint", value: "20", by: BookingTwin.host)
        try await twin.run(until: "2026-01-13T00:00")
        #expect(try await twin.state("flat-1/heating/setpoint") == "20 °C")
        #expect(log.lines == [
            "2026-01-09T14:00:00Z setback flat-1: cancelled — r2 is cancelled; no setback at its check-out",
            "2026-01-10T09:00:00Z setback flat-1: heating setpoint 16.0 °C — check-out of r1",
            "2026-01-10T09:00:00Z setback flat-1: ac switch OFF — check-out of r1",
        ])
        #expect(await setback.pendingReservations.isEmpty)
    }
}
