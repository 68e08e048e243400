import Testing
@testable import SmartHome

/// Topic patterns against every kind of event.
@Suite struct EventFilterTests {
    static let events: [OpenHABEvent] = {
        do {
            let name = try ItemName("flat_1_heating_switch")
            let uid = try ThingUID("twin:thermostat:flat-1:heating")
            return [
                OpenHABEvent(.itemCommand(name, .onOff(.on))),
                OpenHABEvent(.itemState(name, .onOff(.on))),
                OpenHABEvent(.itemStateChanged(name, state: .onOff(.on), oldState: .null, lastStateUpdate: nil, lastStateChange: nil)),
                OpenHABEvent(.thingStatusChanged(uid, status: .uninitialized, oldStatus: .uninitialized)),
            ]
        } catch {
            Issue.record("bad fixture: \(error)")
            return []
        }
    }()

    static let patterns = [
        "**", "openhab/**", "openhab/items/**", "openhab/things/**", "openhab/items/*/statechanged",
        "openhab/items/*/state", "openhab/items/flat_1_heating_switch/*", "openhab/items/other/*",
        "openhab/*/*/*", "openhab/*/*", "openhab/*/*/*/*", "openhab/items/*/command/**", "*/items/*/command",
        "openhab/things/twin:thermostat:flat-1:heating/statuschanged", "openhab/things/*", "", "openhab//*/state",
        "smarthome/items/*/state", "openhab/items/flat_1_heating_switch/statechanged", "openhab/items/flat_1_heating_switch/command",
        "openhab/items/other/statechanged", "openhab/things/flat_1_heating_switch/statechanged",
    ]

    @Test("in-place matching agrees with matching the topic text", arguments: patterns)
    func agreesWithTheTopicText(pattern: String) {
        let filter = EventFilter(topics: [pattern])
        for event in Self.events {
            #expect(filter.matches(event) == filter.matchesTopicText(event.topic), "\(pattern) vs \(event.topic)")
        }
    }

    @Test func manyExactTopicsMatchByNameAsTheGeneralMatcherDoes() {
        let exact = EventFilter(topics: ["openhab/items/other/statechanged", "openhab/items/flat_1_heating_switch/statechanged",
                                         "openhab/things/twin:thermostat:flat-1:heating/statuschanged"])
        #expect(Self.events.map { exact.matches($0) } == [false, false, true, true])
        #expect(Self.events.map { exact.matches($0) } == Self.events.map { exact.matchesTopicText($0.topic) })
        #expect(exact == EventFilter(topics: ["openhab/items/other/statechanged", "openhab/items/flat_1_heating_switch/statechanged",
                                              "openhab/things/twin:thermostat:flat-1:heating/statuschanged"]))
        #expect(exact != EventFilter(topics: ["openhab/items/other/statechanged"]))
    }

    @Test func patternsSelectTheDocumentedEvents() {
        let matched = { (pattern: String) in Self.events.filter { EventFilter(topics: [pattern]).matches($0) }.map(\.type) }
        #expect(matched("openhab/items/*/statechanged") == ["ItemStateChangedEvent"])
        #expect(matched("openhab/things/**") == ["ThingStatusInfoChangedEvent"])
        #expect(matched("openhab/*/*/*").count == 4)
        #expect(matched("openhab/*/*").isEmpty)
        #expect(matched("openhab/items/*/command/**") == ["ItemCommandEvent"])
        #expect(EventFilter(topics: ["openhab/items/*/state", "openhab/items/*/command"]).matches(Self.events[0]))
        #expect(EventFilter.all.matches(Self.events[3]))
    }
}
