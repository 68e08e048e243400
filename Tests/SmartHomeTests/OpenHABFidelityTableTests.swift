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
