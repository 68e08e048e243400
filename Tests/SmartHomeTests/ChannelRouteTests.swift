import Simulation
import Testing
@testable import SmartHome

/// A channel's handle keeps its linked Items resolved to slots; links and Items made, removed or
/// made again after the handle was handed out must still be what a report reaches.
@Suite struct ChannelRouteTests {
    static func temperature(_ celsius: Double) -> State { .quantity(Quantity(DecimalNumber(celsius, fractionDigits: 1), .celsius)) }

    @Test func aReportByHandleReachesTheItemsLinkedNowNotThoseLinkedWhenTheHandleWasMade() async throws {
        let (runtime, device, _) = try await EventBusTests.world()
        let channel = await device.channel("temperature")
        let handle = runtime.handle(for: channel)
        #expect(runtime.handle(for: channel) == handle)  // one handle per channel
        let first = try ItemName("flat_1_heating_temperature")
        await runtime.statesUpdated([(handle, Self.temperature(20.1))])
        #expect(await runtime.state(of: first) == Self.temperature(20.1))

        // A second Item linked after the handle was made.
        let second = try ItemName("room_temperature")
        await runtime.putItem(Item(name: second, type: .numberItem(.temperature)))
        try await runtime.link(ItemChannelLink(itemName: second, channelUID: channel))
        await runtime.statesUpdated([(handle, Self.temperature(20.2))])
        #expect(await runtime.state(of: first) == Self.temperature(20.2))
        #expect(await runtime.state(of: second) == Self.temperature(20.2))

        // Unlinked: the first Item keeps its state.
        try await runtime.unlink(first, channel)
        await runtime.statesUpdated([(handle, Self.temperature(20.3))])
        #expect(await runtime.state(of: first) == Self.temperature(20.2))
        #expect(await runtime.state(of: second) == Self.temperature(20.3))

        // Removed and made again under the same name (a new slot), then linked again.
        try await runtime.removeItem(second)
        await runtime.putItem(Item(name: second, type: .numberItem(.temperature)))
        await runtime.statesUpdated([(handle, Self.temperature(20.4))])
        #expect(await runtime.state(of: second) == .null)
        try await runtime.link(ItemChannelLink(itemName: second, channelUID: channel))
        let before = await runtime.state(of: second)
        await runtime.statesUpdated([(handle, Self.temperature(20.5))])
        #expect(before != Self.temperature(20.5))
        #expect(await runtime.state(of: second) == Self.temperature(20.5))
        #expect(await runtime.state(of: first) == Self.temperature(20.2))
    }

    /// A route remembers whether anybody hears about its Items; a subscription made or ended after the route
    /// was resolved must be what the next report goes by.
    @Test func aReportGoesByTheSubscriptionsOfNowNotThoseWhenItsRouteWasResolved() async throws {
        let (runtime, device, kernel) = try await EventBusTests.world()
        let handle = runtime.handle(for: await device.channel("temperature"))
        let name = try ItemName("flat_1_heating_temperature")
        runtime.statesUpdatedNow([(handle, Self.temperature(20.1))], at: kernel.now)  // resolved with nobody listening
        let changes = EventLog()
        let subscription = runtime.events.subscribe(EventFilter(topics: ["openhab/items/flat_1_heating_temperature/statechanged"])) {
            changes.add($0)
        }
        runtime.statesUpdatedNow([(handle, Self.temperature(20.2))], at: kernel.now)
        try await kernel.run(until: kernel.now)
        #expect(changes.all.count == 1 && changes.all.first?.contains("20.2") == true)
        #expect(await runtime.state(of: name) == Self.temperature(20.2))

        runtime.events.unsubscribe(subscription)
        let published = runtime.events.publishedCount
        runtime.statesUpdatedNow([(handle, Self.temperature(20.3))], at: kernel.now)
        try await kernel.run(until: kernel.now)
        #expect(changes.all.count == 1)  // not delivered, yet counted as published: state, stateupdated, statechanged
        #expect(runtime.events.publishedCount == published + 3)
        #expect(await runtime.state(of: name) == Self.temperature(20.3))
    }

    /// The plain call and the async one do the same to the Items and count the same events.
    @Test func statesUpdatedNowIsStatesUpdated() async throws {
        let (plain, plainDevice, plainKernel) = try await EventBusTests.world()
        let (awaited, awaitedDevice, _) = try await EventBusTests.world()
        let plainHandle = plain.handle(for: await plainDevice.channel("temperature"))
        let awaitedHandle = awaited.handle(for: await awaitedDevice.channel("temperature"))
        for states in [[Self.temperature(20.04)], [Self.temperature(20.01), .undef], [Self.temperature(21.5)], [Self.temperature(21.5)]] {
            plain.statesUpdatedNow(states.map { (plainHandle, $0) }, at: plainKernel.now)
            await awaited.statesUpdated(states.map { (awaitedHandle, $0) })
        }
        #expect(await plain.items.all() == (await awaited.items.all()))
        #expect(plain.events.publishedCount == awaited.events.publishedCount)
        #expect(await plain.state(of: try ItemName("flat_1_heating_temperature")) == Self.temperature(21.5))
    }

    /// A route the reporter keeps (``OpenHABRuntime/stateReported(_:from:route:at:)``) is resolved again once Items,
    /// links or subscriptions changed: each report reaches the Items linked now and goes by the subscriptions of now.
    @Test func aRouteTheReporterKeepsFollowsLinksItemsAndSubscriptions() async throws {
        let (runtime, device, kernel) = try await EventBusTests.world()
        let channel = await device.channel("temperature")
        let handle = runtime.handle(for: channel)
        var route = ChannelRoute()
        let first = try ItemName("flat_1_heating_temperature"), second = try ItemName("room_temperature")
        runtime.stateReported(Self.temperature(20.1), from: handle, route: &route, at: kernel.now)
        #expect(await runtime.state(of: first) == Self.temperature(20.1))

        await runtime.putItem(Item(name: second, type: .numberItem(.temperature)))
        try await runtime.link(ItemChannelLink(itemName: second, channelUID: channel))
        runtime.stateReported(Self.temperature(20.2), from: handle, route: &route, at: kernel.now)
        #expect(await runtime.state(of: first) == Self.temperature(20.2))
        #expect(await runtime.state(of: second) == Self.temperature(20.2))

        try await runtime.unlink(first, channel)
        runtime.stateReported(Self.temperature(20.3), from: handle, route: &route, at: kernel.now)
        #expect(await runtime.state(of: first) == Self.temperature(20.2))
        #expect(await runtime.state(of: second) == Self.temperature(20.3))

        let changes = EventLog()
        let subscription = runtime.events.subscribe(EventFilter(topics: ["openhab/items/room_temperature/statechanged"])) { changes.add($0) }
        runtime.stateReported(Self.temperature(20.4), from: handle, route: &route, at: kernel.now)
        try await kernel.run(until: kernel.now)
        #expect(changes.all.count == 1 && changes.all.first?.contains("20.4") == true)
        runtime.events.unsubscribe(subscription)
        let published = runtime.events.publishedCount
        runtime.stateReported(Self.temperature(20.5), from: handle, route: &route, at: kernel.now)
        try await kernel.run(until: kernel.now)
        #expect(changes.all.count == 1)
        #expect(runtime.events.publishedCount == published + 3)
        #expect(await runtime.state(of: second) == Self.temperature(20.5))
    }

    @Test func aHandleThatCarriesOnlyTheUIDReachesTheSameItems() async throws {
        let (runtime, device, _) = try await EventBusTests.world()
        let channel = await device.channel("setpoint")
        let name = try ItemName("flat_1_heating_setpoint")
        await runtime.statesUpdated([(ChannelHandle(channel), Self.temperature(23.5))])
        #expect(await runtime.state(of: name) == Self.temperature(23.5))
        await runtime.statesUpdated([(runtime.handle(for: channel), Self.temperature(24.5))])
        #expect(await runtime.state(of: name) == Self.temperature(24.5))
    }
}
