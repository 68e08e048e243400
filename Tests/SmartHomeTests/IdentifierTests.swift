import Testing
@testable import SmartHome

@Suite("UIDs and Item names")
struct IdentifierTests {
    @Test("valid Thing UIDs", arguments: ["twin:thermostat:flat-1", "twin:thermostat:bridge:flat_1", "a:b:c", "a::c"])
    func validThingUIDs(text: String) throws {
        #expect(try ThingUID(text).rawValue == text)
    }

    @Test("invalid Thing UIDs say why", arguments: [
        ("twin:thermostat", "needs at least 3"), ("twin:thermo stat:x", "\" \""), ("twin:ä:x", "\"ä\""), ("", "needs at least 3"),
    ])
    func invalidThingUIDs(text: String, reason: String) {
        do {
            _ = try ThingUID(text)
            Issue.record("\(text) accepted")
        } catch {
            #expect(error.code == .invalidUID)
            #expect(error.message.contains(reason), "\(error.message)")
            #expect(error.httpStatus == .badRequest)
        }
    }

    @Test func channelUIDParts() throws {
        let uid = try ChannelUID("twin:thermostat:flat-1:heating:setpoint")
        #expect(uid.id == "setpoint")
        #expect(uid.thingUID.rawValue == "twin:thermostat:flat-1:heating")
        #expect(try ChannelUID("twin:x:y:group#channel").id == "group#channel")
        #expect(throws: SmartHomeError.self) { try ChannelUID("twin:thermostat:flat-1") }
        #expect(throws: SmartHomeError.self) { try ChannelUID("twin:x:y:a#b#c") }
        #expect(try ThingUID("twin:thermostat:flat-1").thingTypeUID.rawValue == "twin:thermostat")
    }

    @Test("Item names follow [a-zA-Z_][a-zA-Z0-9_]*", arguments: ["flat_1_heating_switch", "_x", "A9"])
    func validNames(text: String) throws {
        #expect(try ItemName(text).rawValue == text)
    }

    @Test("bad Item names are rejected", arguments: ["", "1abc", "flat-1", "a b", "ü"])
    func invalidNames(text: String) {
        #expect(throws: SmartHomeError.self) { try ItemName(text) }
    }

    @Test func namesAndUIDsMadeFromSeparateTextsAreEqualKeys() throws {
        let parts = ["flat_12", "heating", "temperature"]
        let name = try ItemName(parts.joined(separator: "_"))
        let same = try ItemName(path: "flat-12/heating/temperature")
        #expect(name == same && name.hashValue == same.hashValue)
        #expect(name != (try ItemName("flat_13_heating_temperature")))
        #expect([name: 1][same] == 1)
        let channel = try ChannelUID("twin:thermostat:flat-12:heating:temperature")
        let built = try ChannelUID(thing: try ThingUID("twin:thermostat:flat-12:heating"), id: "temperature")
        #expect(channel == built && channel.hashValue == built.hashValue)
        #expect(channel != (try ChannelUID("twin:thermostat:flat-12:heating:energy")))
        #expect(Set([channel, built]).count == 1)
    }

    @Test("scenario paths map to Item names", arguments: [
        ("flat-1/heating/setpoint", "flat_1_heating_setpoint"), ("2nd-floor/door/lock", "_2nd_floor_door_lock"),
        ("a.b/c d", "a_b_c_d"),
    ])
    func pathNames(path: String, name: String) throws {
        #expect(try ItemName(path: path).rawValue == name)
    }
}
