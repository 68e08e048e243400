import Foundation
import Testing
@testable import SmartHome

@Suite("The REST-shaped openHAB API: statuses, bodies and JSON")
struct OpenHABAPITests {
    /// Runs `call`, expecting it to fail, and returns the error.
    func failure<T>(_ call: () async throws -> T) async -> SmartHomeError? {
        do {
            _ = try await call()
            Issue.record("expected an error")
            return nil
        } catch {
            #expect(error is SmartHomeError)
            return error as? SmartHomeError
        }
    }

    @Test func unknownItemIs404WithOpenHABsBody() async throws {
        let world = try await TestWorld()
        let error = try #require(await failure { try await world.api.getItem("nope") })
        #expect(error.httpStatus == .notFound)
        #expect(error.responseBody == #"{"error":{"message":"Item nope does not exist!","http-code":404}}"#)
        #expect(await failure { try await world.api.sendCommand("nope", "ON") }?.code == .itemNotFound)
        #expect(await failure { try await world.api.updateState("bad-name", "ON") }?.httpStatus == .notFound)
        #expect(await failure { try await world.api.deleteItem("nope") }?.httpStatus == .notFound)
    }

    @Test func putItemCreatesThenUpdates() async throws {
        let world = try await TestWorld(linkItems: false)
        let created = try await world.api.putItem("lamp", body: ItemDTO(type: "Switch", name: "lamp", label: "Lamp", tags: ["Light", "Control"]))
        #expect(created.status == .created)
        #expect(created.body.state == "NULL")
        #expect(created.body.tags == ["Control", "Light"])
        _ = try await world.api.sendCommand("lamp", "ON")
        let updated = try await world.api.putItem("lamp", body: ItemDTO(type: "Switch", name: "lamp", label: "Desk lamp"))
        #expect(updated.status == .ok)
        #expect(updated.body.label == "Desk lamp")
        #expect(updated.body.state == "ON")
    }

    @Test func putItemErrors() async throws {
        let world = try await TestWorld(linkItems: false)
        let missing = try #require(await failure { try await world.api.putItem("lamp", body: nil) })
        #expect(missing.httpStatus == .badRequest)
        #expect(missing.responseBody == nil)
        let mismatch = try #require(await failure { try await world.api.putItem("lamp", body: ItemDTO(type: "Switch", name: "lamp2")) })
        #expect(mismatch.httpStatus == .badRequest)
        #expect(mismatch.code == .nameMismatch)
        let type = try #require(await failure { try await world.api.putItem("lamp", body: ItemDTO(type: "Switch2", name: "lamp")) })
        #expect(type.code == .unknownItemType)
        let name = try #require(await failure { try await world.api.putItem("flat-1", body: ItemDTO(type: "Switch", name: "flat-1")) })
        #expect(name.code == .invalidItemName)
        #expect(name.httpStatus == .badRequest)
        // An Item from a file (not managed) cannot be changed.
        await world.runtime.putItem(Item(name: try ItemName("from_file"), type: .switchItem, isManaged: false))
        let unmanaged = try #require(await failure { try await world.api.putItem("from_file", body: ItemDTO(type: "Switch", name: "from_file")) })
        #expect(unmanaged.httpStatus == .methodNotAllowed)
        #expect(try await world.api.getItem("from_file").body.editable == false)
    }

    @Test func commandThatDoesNotParseIs400WithEmptyBody() async throws {
        let world = try await TestWorld()
        let error = try #require(await failure { try await world.api.sendCommand("flat_1_heating_switch", "on") })
        #expect(error.httpStatus == .badRequest)
        #expect(error.code == .invalidCommand)
        #expect(error.responseBody == nil)
        #expect(error.message.contains("ON, OFF or toggle"))
        #expect(try await world.api.sendCommand("flat_1_heating_switch", "ON").status == .ok)
    }

    @Test func stateUpdates() async throws {
        let world = try await TestWorld()
        let accepted = try await world.api.updateState("flat_1_heating_temperature", "18.25")
        #expect(accepted.status == .accepted)
        #expect(try await world.state("flat_1_heating_temperature") == "18.25 °C")
        let error = try #require(await failure { try await world.api.updateState("flat_1_heating_temperature", "warm") })
        #expect(error.responseBody == #"{"error":{"message":"State could not be parsed: warm","http-code":400}}"#)
        _ = try await world.api.updateState("flat_1_heating_temperature", "UNDEF")
        #expect(try await world.state("flat_1_heating_temperature") == "UNDEF")
    }

    @Test func linkErrors() async throws {
        let world = try await TestWorld()
        _ = try await world.api.putItem("spare", body: ItemDTO(type: "Switch", name: "spare"))
        let unknownItem = try #require(await failure { try await world.api.putLink(itemName: "ghost", channelUID: "twin:thermostat:flat-1:heating:switch", body: nil) })
        #expect(unknownItem.httpStatus == .badRequest)
        let malformed = try #require(await failure { try await world.api.putLink(itemName: "spare", channelUID: "twin:thermostat", body: nil) })
        #expect(malformed.httpStatus == .badRequest)
        let unknownChannel = try #require(await failure { try await world.api.putLink(itemName: "spare", channelUID: "twin:thermostat:flat-1:heating:humidity", body: nil) })
        #expect(unknownChannel.httpStatus == .badRequest)
        let mismatch = try #require(await failure {
            try await world.api.putLink(itemName: "spare", channelUID: "twin:thermostat:flat-1:heating:switch",
                                        body: ItemChannelLinkDTO(itemName: "other", channelUID: "twin:thermostat:flat-1:heating:switch"))
        })
        #expect(mismatch.httpStatus == .badRequest)
        // Item type vs channel type is not checked for STATE channels.
        #expect(try await world.api.putLink(itemName: "spare", channelUID: "twin:thermostat:flat-1:heating:setpoint", body: nil).status == .ok)
        let gone = try #require(await failure { try await world.api.deleteLink(itemName: "spare", channelUID: "twin:thermostat:flat-1:heating:switch") })
        #expect(gone.responseBody == #"{"error":{"message":"Link spare -> twin:thermostat:flat-1:heating:switch does not exist!","http-code":404}}"#)
        #expect(try await world.api.deleteLink(itemName: "spare", channelUID: "twin:thermostat:flat-1:heating:setpoint").status == .ok)
    }

    @Test func deletingAnItemRemovesItsLinks() async throws {
        let world = try await TestWorld()
        #expect(try await world.api.deleteItem("flat_1_heating_switch").status == .ok)
        let links = try await world.api.getLinks().body.map(\.itemName)
        #expect(!links.contains("flat_1_heating_switch"))
        #expect(links.count == 2)
    }

    @Test func authentication() async throws {
        let world = try await TestWorld()
        let bad = world.api.with(credentials: OpenHABCredentials(openHABToken: "wrong", bearerToken: TestWorld.adminToken))
        let invalid = try #require(await failure { try await bad.getItems() })
        #expect(invalid.httpStatus == .unauthorized)
        #expect(invalid.responseBody == #"{"error":{"message":"Invalid credentials","http-code":401}}"#)
        let bearer = world.api.with(credentials: OpenHABCredentials(bearerToken: TestWorld.adminToken))
        #expect(try await bearer.getThings().body.count == 1)
        let user = world.api.with(credentials: OpenHABCredentials(openHABToken: TestWorld.userToken))
        #expect(try await user.getItems().body.count == 3)
        #expect(await failure { try await user.getThings() }?.httpStatus == .forbidden)
        let anonymous = world.api.with(credentials: .anonymous)
        #expect(try await anonymous.sendCommand("flat_1_heating_switch", "ON").status == .ok)
        #expect(await failure { try await anonymous.getThings() }?.httpStatus == .unauthorized)
    }

    @Test func itemJSONHasOpenHABsFields() async throws {
        let world = try await TestWorld()
        _ = try await world.api.sendCommand("flat_1_heating_setpoint", "21.5")
        let dto = try await world.api.getItem("flat_1_heating_setpoint").body
        let json = try OpenHABJSON.string(dto)
        // openHAB's Gson order (OPENHAB.md): the enriched fields, then the base DTO's, as declared.
        #expect(json == #"{"link":"http://host:8080/rest/items/flat_1_heating_setpoint","state":"21.5 °C","stateDescription":{"minimum":5,"maximum":30,"step":0.5,"pattern":"%.1f %unit%","readOnly":false,"options":[]},"lastState":"21 °C","lastStateUpdate":0,"lastStateChange":0,"unitSymbol":"°C","editable":true,"type":"Number:Temperature","name":"flat_1_heating_setpoint","tags":[],"groupNames":[]}"#)
        #expect(!json.contains("null"))
        // A client decodes it back.
        #expect(try OpenHABJSON.decode(EnrichedItemDTO.self, from: Data(json.utf8)) == dto)
    }

    @Test func thingJSONHasUpperCaseUIDAndLinkedItems() async throws {
        let world = try await TestWorld()
        let things = try await world.api.getThings()
        #expect(things.status == .ok)
        let json = try OpenHABJSON.string(things.body)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        let thing = try #require(object.first)
        #expect(thing["UID"] as? String == "twin:thermostat:flat-1:heating")
        #expect(thing["thingTypeUID"] as? String == "twin:thermostat")
        #expect((thing["statusInfo"] as? [String: String]) == ["status": "ONLINE", "statusDetail": "NONE"])
        let channels = try #require(thing["channels"] as? [[String: Any]])
        #expect(channels.count == 3)
        let setpoint = try #require(channels.first { $0["id"] as? String == "setpoint" })
        #expect(setpoint["uid"] as? String == "twin:thermostat:flat-1:heating:setpoint")
        #expect(setpoint["linkedItems"] as? [String] == ["flat_1_heating_setpoint"])
        #expect(setpoint["itemType"] as? String == "Number:Temperature")
        #expect(setpoint["kind"] as? String == "STATE")
        #expect(setpoint["channelTypeUID"] as? String == "twin:setpoint")
        #expect(try OpenHABJSON.string(things.body) == json, "JSON must be byte-identical run to run")
        // Keys in openHAB's order (OPENHAB.md): the Thing's fields as declared, after its channels.
        #expect(json.hasPrefix(#"[{"channels":[{"linkedItems":["#))
        var rest = Substring(json)
        for key in ["],\"statusInfo\":{\"status\":\"ONLINE\",\"statusDetail\":\"NONE\"}", "\"editable\":true", "\"label\":",
                    "\"configuration\":", "\"properties\":", "\"UID\":\"twin:thermostat:flat-1:heating\"",
                    "\"thingTypeUID\":\"twin:thermostat\""] {
            let found = try #require(rest.range(of: key), "\(key) missing or out of order")
            rest = rest[found.upperBound...]
        }
    }

    /// What `GET /rest/things` must answer: every Thing, sorted, with its links as the registries hold them now.
    func freshThings(_ world: TestWorld) async -> [EnrichedThingDTO] {
        var dtos: [EnrichedThingDTO] = []
        for thing in await world.runtime.things.all() {
            var linked: [ChannelUID: [ItemName]] = [:]
            for channel in thing.channels { linked[channel.uid] = await world.runtime.links.items(linkedTo: channel.uid) }
            dtos.append(EnrichedThingDTO(thing, linkedItems: linked))
        }
        return dtos
    }

    @Test func listedThingsFollowEveryChangeToThingsStatusesAndLinks() async throws {
        let world = try await TestWorld()
        let fresh = { await self.freshThings(world) }
        #expect(try await world.api.getThings().body == (await fresh()))
        let second = FakeThermostat(uid: try ThingUID("twin:thermostat:flat-0:heating"))
        try await world.runtime.addThing(await second.thing, handler: second)
        #expect(try await world.api.getThings().body.map(\.uid) == ["twin:thermostat:flat-0:heating", "twin:thermostat:flat-1:heating"])
        _ = try await world.api.putItem("extra", body: ItemDTO(type: "Switch", name: "extra"))
        _ = try await world.api.putLink(itemName: "extra", channelUID: "twin:thermostat:flat-0:heating:switch", body: nil)
        #expect(try await world.api.getThings().body == (await fresh()))
        #expect(try await world.api.getThing("twin:thermostat:flat-0:heating").body.channels.first?.linkedItems == ["extra"])
        await world.device.setOnline(false)
        #expect(try await world.api.getThing("twin:thermostat:flat-1:heating").body.statusInfo.status == .offline)
        _ = try await world.api.deleteLink(itemName: "flat_1_heating_switch", channelUID: "twin:thermostat:flat-1:heating:switch")
        #expect(try await world.api.getThings().body == (await fresh()))
        _ = try await world.api.deleteItem("extra")
        #expect(try await world.api.getThing("twin:thermostat:flat-0:heating").body.channels.first?.linkedItems == [])
        try await world.runtime.removeThing(try ThingUID("twin:thermostat:flat-0:heating"))
        #expect(try await world.api.getThings().body == (await fresh()))
        #expect(await failure { try await world.api.getThing("twin:thermostat:flat-0:heating") }?.code == .thingNotFound)
        try await world.runtime.addThing(await second.thing, handler: second)
        #expect(try await world.api.getThings().body == (await fresh()))
        #expect(try await world.api.getThings().body.count == 2)
    }

    @Test func linkJSON() async throws {
        let world = try await TestWorld()
        let link = try #require(try await world.api.getLinks().body.first)
        #expect(try OpenHABJSON.string(link) == #"{"editable":true,"channelUID":"twin:thermostat:flat-1:heating:setpoint","configuration":{"profile":"system:default"},"itemName":"flat_1_heating_setpoint"}"#)
    }
}
