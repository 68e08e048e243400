import Simulation
import Testing
@testable import SmartHome

/// openHAB's delivery order: events reach subscribers after the publishing call has returned, in
/// publish order, and what a subscriber causes comes after everything already published.
@Suite("Event delivery order")
struct EventDeliveryOrderTests {
    @Test func aRuleCommandingAnotherItemIsHeardAfterTheTriggeringEventsOtherDeliveries() async throws {
        let world = try await TestWorld()
        let setpoint = try ItemName("flat_1_heating_setpoint")
        let runtime = world.runtime
        // The rule subscribes before the observer, so it hears each event first.
        runtime.events.subscribe(EventFilter(topics: ["openhab/items/flat_1_heating_switch/statechanged"])) { event in
            guard case .itemStateChanged(_, .onOff(.on), _, _, _) = event.kind else { return }
            try? await runtime.sendCommand(.decimal(DecimalNumber(25)), to: setpoint)
        }
        let seen = EventLog()
        runtime.events.subscribe { seen.add($0) }

        _ = try await world.api.sendCommand("flat_1_heating_switch", "ON")
        #expect(seen.all.isEmpty)  // nothing is delivered inside the publishing call
        try await world.settle()

        let topics = seen.all.map { String($0.prefix { $0 != " " }) }
        // The switch's own events, the device's confirming report included, all come first: the
        // rule's command is published when the statechanged event reaches it, behind them.
        let switchEvents = [
            "openhab/items/flat_1_heating_switch/command",
            "openhab/items/flat_1_heating_switch/statepredicted",
            "openhab/items/flat_1_heating_switch/state",
            "openhab/items/flat_1_heating_switch/stateupdated",
            "openhab/items/flat_1_heating_switch/statechanged",
            "openhab/items/flat_1_heating_switch/state",
            "openhab/items/flat_1_heating_switch/stateupdated",
        ]
        #expect(Array(topics.prefix(switchEvents.count)) == switchEvents)
        #expect(topics.dropFirst(switchEvents.count).first == "openhab/items/flat_1_heating_setpoint/command")
        #expect(topics.dropFirst(switchEvents.count).allSatisfy { $0.hasPrefix("openhab/items/flat_1_heating_setpoint/") })
        #expect(topics.contains("openhab/items/flat_1_heating_setpoint/statechanged"))
        #expect(try await world.state("flat_1_heating_setpoint") == "25 °C")
    }

    @Test func deliveriesAreKernelEventsAtThePublishingInstantInPublishOrder() async throws {
        let world = try await TestWorld()
        let kernel = world.kernel
        let trace = EventLog()
        let at = kernel.now + .minutes(5)
        kernel.schedule(at: at, label: "command") { _ in
            _ = try? await world.api.sendCommand("flat_1_heating_switch", "ON")
        }
        kernel.schedule(at: at, label: "queued before the deliveries") { _ in
            trace.add(OpenHABEvent(.itemState(try! ItemName("marker"), .string("queued"))))
        }
        world.runtime.events.subscribe { event in
            #expect(kernel.now == at)
            trace.add(event)
        }
        try await kernel.run(until: at + .minutes(1))
        let topics = trace.all.map { String($0.prefix { $0 != " " }) }
        #expect(topics == [
            "openhab/items/marker/state",  // an event already queued for the instant runs before the deliveries
            "openhab/items/flat_1_heating_switch/command",
            "openhab/items/flat_1_heating_switch/statepredicted",
            "openhab/items/flat_1_heating_switch/state",
            "openhab/items/flat_1_heating_switch/stateupdated",
            "openhab/items/flat_1_heating_switch/statechanged",
            "openhab/items/flat_1_heating_switch/state",
            "openhab/items/flat_1_heating_switch/stateupdated",
        ])
    }
}
