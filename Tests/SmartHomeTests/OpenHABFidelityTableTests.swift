import Foundation
import Testing
@testable import SmartHome

/// Input → the state text openHAB 5 shows, one row per behaviour, each naming the openhab-core
/// class whose behaviour it mirrors.
@Suite("openHAB fidelity table")
struct OpenHABFidelityTableTests {
    static let temperature = ItemType.numberItem(.temperature)

    /// (Item type, posted state text, shown text or nil when openHAB rejects it).
    static let stateRows: [(ItemType, String, String?)] = [
        // QuantityType: a plain number gets the Item's unit; whole numbers print narrowed.
        (temperature, "21", "21 °C"),
        // QuantityType: `20.0|°C` prints `20 °C` (openHAB's ScriptEngineOSGiTest).
        (temperature, "20.0 °C", "20 °C"),
        // QuantityType: trailing zeros dropped.
        (temperature, "21.50 °C", "21.5 °C"),
        // QuantityType: no unit separator needed.
        (temperature, "21.5°C", "21.5 °C"),
        // QuantityType: negative zero prints without its sign.
        (temperature, "-0", "0 °C"),
        // QuantityType: conversion to the Item's unit (°F → °C), narrowed.
        (temperature, "212 °F", "100 °C"),
        // QuantityType: kelvin → °C, narrowed.
        (temperature, "294.15 K", "21 °C"),
        // QuantityType: kW → the Item's W, narrowed.
        (ItemType.numberItem(.power), "2 kW", "2000 W"),
        // QuantityType: a zero energy reading prints as `0 kWh`.
        (ItemType.numberItem(.energy), "0.000 kWh", "0 kWh"),
        // QuantityType: a fraction keeps its significant digits.
        (ItemType.numberItem(.energy), "1.250 kWh", "1.25 kWh"),
        // DecimalType: `new BigDecimal("1e3").toPlainString()` is `1000`.
        (ItemType.numberItem(nil), "1e3", "1000"),
        // DecimalType: a plain number keeps its text (`toPlainString`).
        (ItemType.numberItem(nil), "21.50", "21.50"),
        // DecimalType(String): English DecimalFormat, the comma groups: `21,5` is 215.
        (temperature, "21,5", "215 °C"),
        // QuantityType(String): `2,000.5 °C` is 2000.5 °C.
        (temperature, "2,000.5 °C", "2000.5 °C"),
        // DecimalType(String): `1E-05` is accepted, printed plain.
        (ItemType.numberItem(nil), "1E-05", "0.00001"),
        // DecimalType(String): `.5` is accepted.
        (ItemType.numberItem(nil), ".5", "0.5"),
        // DecimalType(String): a leading `+` is rejected.
        (temperature, "+22", nil),
        // DecimalType(String): a `+` in the exponent is rejected.
        (ItemType.numberItem(nil), "2.5E+3", nil),
        // DecimalType(String): NaN and Infinity are rejected.
        (ItemType.numberItem(nil), "NaN", nil),
        (ItemType.numberItem(nil), "Infinity", nil),
        // DecimalType(String): leading or trailing blanks are rejected.
        (ItemType.numberItem(nil), " 21", nil),
        (ItemType.numberItem(nil), "21 ", nil),
        // UnDefType: NULL and UNDEF are states of every Item.
        (temperature, "NULL", "NULL"),
        (temperature, "UNDEF", "UNDEF"),
        // OnOffType: case-sensitive.
        (ItemType.switchItem, "ON", "ON"),
        (ItemType.switchItem, "on", nil),
        // PercentType: a Dimmer shows ON as 100.
        (ItemType.dimmerItem, "ON", "100"),
    ]

    @Test("state text as openHAB 5 shows it", arguments: 0..<stateRows.count)
    func stateText(row: Int) {
        let (type, input, shown) = Self.stateRows[row]
        #expect(type.stateHeld(input)?.description == shown, "\(type) \(input)")
    }

    /// Devices report with a binding's fixed precision; the text is still narrowed.
    @Test func aFixedPrecisionReadingPrintsAsOpenHABDoes() {
        // QuantityType: a 0.1 K sensor's 20.1 stays 20.1; its whole degree prints as 19.
        #expect(Quantity(DecimalNumber(20.1, fractionDigits: 1), .celsius).description == "20.1 °C")
        #expect(Quantity(DecimalNumber(19, fractionDigits: 1), .celsius).description == "19 °C")
        // QuantityType: a percent battery reading at two decimals.
        #expect(Quantity(DecimalNumber(100, fractionDigits: 2), .percent).description == "100 %")
        #expect(Quantity(DecimalNumber(99.94, fractionDigits: 2), .percent).description == "99.94 %")
    }
}

/// `toggle` as openHAB's ItemResource handles it, on unlinked Items (the command becomes the state).
@Suite("openHAB toggle")
struct OpenHABToggleTests {
    /// (Item type, state before, state after `toggle`, or nil for a 400).
    static let rows: [(String, String, String?)] = [
        // OnOffType: ON → OFF.
        ("Switch", "ON", "OFF"),
        // OnOffType: OFF → ON.
        ("Switch", "OFF", "ON"),
        // UnDefType: NULL cannot be read as OnOffType; `toggle` does not parse (400).
        ("Switch", "NULL", nil),
        // UnDefType: UNDEF neither.
        ("Switch", "UNDEF", nil),
        // PercentType: a Dimmer at 40 reads as ON, so toggle sends OFF (shown as 0).
        ("Dimmer", "40", "0"),
        // PercentType: a Dimmer at 0 reads as OFF, so toggle sends ON (shown as 100).
        ("Dimmer", "0", "100"),
        // UnDefType: a NULL Dimmer does not toggle either.
        ("Dimmer", "NULL", nil),
    ]

    @Test("toggle", arguments: 0..<rows.count)
    func toggle(row: Int) async throws {
        let (type, before, after) = Self.rows[row]
        let world = try await TestWorld()
        _ = try await world.api.putItem("virtual", body: ItemDTO(type: type, name: "virtual"))
        if before != "NULL" { _ = try await world.api.updateState("virtual", before) }
        #expect(try await world.state("virtual") == before)
        if let after {
            _ = try await world.api.sendCommand("virtual", "toggle")
            #expect(try await world.state("virtual") == after)
        } else {
            do {
                _ = try await world.api.sendCommand("virtual", "toggle")
                Issue.record("toggle from \(before) was accepted")
            } catch {
                #expect(error.httpStatus == .badRequest)
                #expect(try await world.state("virtual") == before)
            }
        }
    }
}

/// More states as openHAB 5 holds them: units, dimensions, the unit ONE and the other state types.
@Suite("openHAB fidelity table: Item types")
struct OpenHABItemTypeTableTests {
    static let dimensionless = ItemType.numberItem(.dimensionless)
    static let temperature = ItemType.numberItem(.temperature)

    /// (Item type, posted state text, the state the Item holds, or nil when it rejects or drops it).
    static let rows: [(ItemType, String, String?)] = [
        // NumberItem: Number:Dimensionless without `unit` metadata holds the unit ONE, shown as a plain number.
        (dimensionless, "50", "50"),
        // NumberItem.getInternalState: `50 %` converted to ONE is 0.5.
        (dimensionless, "50 %", "0.5"),
        // NumberItem: a fraction in ONE keeps its digits.
        (dimensionless, "0.9994", "0.9994"),
        // NumberItem.getInternalState: a quantity of another dimension cannot be converted; the update is dropped.
        (temperature, "21.5 W", nil),
        (ItemType.numberItem(.energy), "3 °C", nil),
        // NumberItem.getInternalState: a plain Number Item strips the unit (`new DecimalType(quantityType)`).
        (ItemType.numberItem(nil), "5 W", "5"),
        // QuantityType: `2000.0 W` narrows to `2000 W`.
        (ItemType.numberItem(.power), "2000.0 W", "2000 W"),
        // QuantityType: `-0.0 °C` prints as `0 °C`.
        (temperature, "-0.0 °C", "0 °C"),
        // QuantityType: `1e3` on a temperature Item is 1000 °C.
        (temperature, "1e3", "1000 °C"),
        // QuantityType: Wh converted to the Item's kWh.
        (ItemType.numberItem(.energy), "1500 Wh", "1.5 kWh"),
        // OpenClosedType: a Contact holds OPEN/CLOSED, case-sensitive.
        (ItemType.contactItem, "OPEN", "OPEN"),
        (ItemType.contactItem, "open", nil),
        // StringType: any text.
        (ItemType.stringItem, "hello", "hello"),
        // PercentType: 0…100 only.
        (ItemType.dimmerItem, "50", "50"),
        (ItemType.dimmerItem, "101", nil),
        // PercentType: a Dimmer shows OFF as 0.
        (ItemType.dimmerItem, "OFF", "0"),
        // OnOffType: `toggle` is a REST convenience for commands, never a state.
        (ItemType.switchItem, "toggle", nil),
    ]

    @Test("Item types hold states as openHAB 5 does", arguments: 0..<rows.count)
    func held(row: Int) {
        let (type, input, shown) = Self.rows[row]
        #expect(type.stateHeld(input)?.description == shown, "\(type) \(input)")
    }

    /// (Item type, command text, the command's type and text, or nil when it does not parse: a 400).
    static let commandRows: [(ItemType, String, String?)] = [
        // NumberItem's accepted command types: DecimalType and QuantityType, any unit (REST does not check it).
        (temperature, "21.5 W", "Quantity 21.5 W"),
        // DecimalType: a number stays a Decimal command; the Item gives it its unit.
        (temperature, "22", "Decimal 22"),
        // IncreaseDecreaseType: a Dimmer takes INCREASE.
        (ItemType.dimmerItem, "INCREASE", "IncreaseDecrease INCREASE"),
        // PercentType: 150 is out of range.
        (ItemType.dimmerItem, "150", nil),
        // ContactItem: OPEN is a state, not a command.
        (ItemType.contactItem, "OPEN", nil),
        // RefreshType: every Item takes REFRESH.
        (ItemType.numberItem(nil), "REFRESH", "Refresh REFRESH"),
    ]

    @Test("commands parse as openHAB's TypeParser does", arguments: 0..<commandRows.count)
    func command(row: Int) {
        let (type, input, parsed) = Self.commandRows[row]
        #expect(type.parseCommand(input).map { "\($0.typeName) \($0)" } == parsed, "\(type) \(input)")
    }
}

/// REST exchanges (method, path, body) → openHAB 5's status, body and resulting state, through the
/// router as a client sends them; `""` is an empty body.
@Suite("openHAB fidelity table: REST")
struct OpenHABRESTTableTests {
    struct Row: Sendable, CustomStringConvertible {
        var setup: [(OpenHABRequest.Method, String, String?)] = []
        var method: OpenHABRequest.Method
        var path: String
        var query: [String: String] = [:]
        var body: String?
        var status: Int
        var answer: String?
        var state: (item: String, shown: String)?
        var description: String { "\(method.rawValue) \(path) \(body ?? "")" }
    }

    static let virtualLevel = (OpenHABRequest.Method.put, "/rest/items/level", Optional(#"{"type":"Number:Dimensionless","name":"level"}"#))
    static let percentUnit = (OpenHABRequest.Method.put, "/rest/items/level/metadata/unit", Optional(#"{"value":"%"}"#))

    static let rows: [Row] = [
        // ItemResource.removeItem: an unknown Item is 404 with an empty body.
        Row(method: .delete, path: "/rest/items/nope", status: 404, answer: ""),
        // ItemResource.removeItem: a managed Item is removed, 200.
        Row(method: .delete, path: "/rest/items/flat_1_heating_switch", status: 200, answer: ""),
        // ItemResource.createOrUpdateItem: the name check ignores case; the Item takes the body's name.
        Row(method: .put, path: "/rest/items/VIRTUAL", body: #"{"type":"Switch","name":"virtual"}"#, status: 201, state: ("virtual", "NULL")),
        // ItemResource.createOrUpdateItem: no body is 400, empty.
        Row(method: .put, path: "/rest/items/virtual", status: 400, answer: ""),
        // ItemResource.createOrUpdateItem: another name is 400, empty.
        Row(method: .put, path: "/rest/items/virtual", body: #"{"type":"Switch","name":"other"}"#, status: 400, answer: ""),
        // ItemResource.createOrUpdateItem (ItemDTOMapper.map gives null): an unknown type is 400, empty.
        Row(method: .put, path: "/rest/items/virtual", body: #"{"type":"Thermometer","name":"virtual"}"#, status: 400, answer: ""),
        // ItemResource.createOrUpdateItem: an invalid name is 400, empty.
        Row(method: .put, path: "/rest/items/bad-name", body: #"{"type":"Switch","name":"bad-name"}"#, status: 400, answer: ""),
        // ItemChannelLinkResource.link: an unknown Item is 400, empty.
        Row(method: .put, path: "/rest/links/nope/twin:thermostat:flat-1:heating:switch", status: 400, answer: ""),
        // ItemChannelLinkResource.link: a malformed channel UID is 400, empty.
        Row(method: .put, path: "/rest/links/flat_1_heating_switch/nonsense", status: 400, answer: ""),
        // ItemChannelLinkResource.unlink: a malformed channel UID is 400, empty.
        Row(method: .delete, path: "/rest/links/flat_1_heating_switch/nonsense", status: 400, answer: ""),
        // ItemChannelLinkResource.unlink: an unknown link is 404 with openHAB's message.
        Row(method: .delete, path: "/rest/links/flat_1_heating_switch/twin:thermostat:flat-1:heating:setpoint", status: 404,
            answer: #"{"error":{"message":"Link flat_1_heating_switch -> twin:thermostat:flat-1:heating:setpoint does not exist!","http-code":404}}"#),
        // ItemResource.postItemCommandPlain: a quantity of another dimension is posted (200); the Item drops autoupdate's state.
        Row(method: .post, path: "/rest/items/flat_1_heating_setpoint", body: "21.5 W", status: 200, answer: "",
            state: ("flat_1_heating_setpoint", "21 °C")),
        // ItemResource.putItemStatePlain + NumberItem.getInternalState: 202, and the Item drops it.
        Row(method: .put, path: "/rest/items/flat_1_heating_setpoint/state", body: "21.5 W", status: 202, answer: "",
            state: ("flat_1_heating_setpoint", "21 °C")),
        // ItemResource.putItemStatePlain: a text no accepted type parses is 400 with openHAB's message.
        Row(method: .put, path: "/rest/items/flat_1_heating_setpoint/state", body: "warm", status: 400,
            answer: #"{"error":{"message":"State could not be parsed: warm","http-code":400}}"#),
        // ItemResource.addMetadata: a new namespace is 201, empty.
        Row(setup: [virtualLevel], method: .put, path: "/rest/items/level/metadata/unit", body: #"{"value":"%"}"#, status: 201, answer: ""),
        // ItemResource.addMetadata: replacing it is 200.
        Row(setup: [virtualLevel, percentUnit], method: .put, path: "/rest/items/level/metadata/unit", body: #"{"value":"%"}"#, status: 200, answer: ""),
        // ItemResource.addMetadata: an unknown Item is 404, empty.
        Row(method: .put, path: "/rest/items/nope/metadata/unit", body: #"{"value":"%"}"#, status: 404, answer: ""),
        // ItemResource.removeMetadata: a namespace the Item lacks is 404, empty.
        Row(setup: [virtualLevel], method: .delete, path: "/rest/items/level/metadata/unit", status: 404, answer: ""),
        // NumberItem.getUnit: with `unit` metadata `%`, a plain 50 is 50 %.
        Row(setup: [virtualLevel, percentUnit], method: .put, path: "/rest/items/level/state", body: "50", status: 202, state: ("level", "50 %")),
        // NumberItem.getUnit: without it the unit is ONE: 99.94 % is held as 0.9994.
        Row(setup: [virtualLevel], method: .put, path: "/rest/items/level/state", body: "99.94 %", status: 202, state: ("level", "0.9994")),
        // ItemResource.getItemData + MetadataSelectorMatcher: `?metadata=unit` adds the namespace.
        Row(setup: [virtualLevel, percentUnit], method: .get, path: "/rest/items/level", query: ["metadata": "unit"], status: 200,
            answer: #"{"link":"http://host:8080/rest/items/level","state":"NULL","unitSymbol":"%","metadata":{"unit":{"value":"%","editable":true}},"editable":true,"type":"Number:Dimensionless","name":"level","tags":[],"groupNames":[]}"#),
        // MetadataSelectorMatcher: a regular expression selects too.
        Row(setup: [virtualLevel, percentUnit], method: .get, path: "/rest/items/level", query: ["metadata": ".*"], status: 200,
            answer: #"{"link":"http://host:8080/rest/items/level","state":"NULL","unitSymbol":"%","metadata":{"unit":{"value":"%","editable":true}},"editable":true,"type":"Number:Dimensionless","name":"level","tags":[],"groupNames":[]}"#),
        // ThingResource.getStatus: the Thing's ThingStatusInfo alone, `description` left out when null (Gson).
        Row(method: .get, path: "/rest/things/twin:thermostat:flat-1:heating/status", status: 200,
            answer: #"{"status":"ONLINE","statusDetail":"NONE"}"#),
        // ThingResource.getStatus: an unknown Thing is 404 with openHAB's message.
        Row(method: .get, path: "/rest/things/twin:thermostat:flat-9:heating/status", status: 404,
            answer: #"{"error":{"message":"Thing twin:thermostat:flat-9:heating does not exist!","http-code":404}}"#),
        // EnrichedItemDTOMapper: without a selector no metadata; ONE has no unit symbol.
        Row(setup: [virtualLevel], method: .get, path: "/rest/items/level", status: 200,
            answer: #"{"link":"http://host:8080/rest/items/level","state":"NULL","editable":true,"type":"Number:Dimensionless","name":"level","tags":[],"groupNames":[]}"#),
    ]

    @Test("REST as openHAB 5 answers", arguments: 0..<rows.count)
    func exchange(row index: Int) async throws {
        let row = Self.rows[index]
        let world = try await TestWorld()
        let router = OpenHABRouter(runtime: world.runtime, baseURL: "http://host:8080",
                                   policy: OpenHABAccessPolicy(tokens: [TestWorld.adminToken: .administrator]))
        let headers = ["X-OPENHAB-TOKEN": TestWorld.adminToken]
        for (method, path, body) in row.setup {
            let response = await router.handle(OpenHABRequest(method, path, headers: headers, body: Data((body ?? "").utf8)))
            #expect((200..<300).contains(response.status), "setup \(method.rawValue) \(path): \(response.status)")
        }
        let response = await router.handle(OpenHABRequest(row.method, row.path, query: row.query, headers: headers,
                                                          body: Data((row.body ?? "").utf8)))
        #expect(response.status == row.status, "\(row)")
        if let answer = row.answer { #expect(response.bodyText == answer, "\(row)") }
        if let (item, shown) = row.state { #expect(try await world.state(item) == shown, "\(row)") }
    }
}
