import Simulation
import SmartHome
import Testing
@testable import Rules

/// `core.ItemStateCondition` as openhab-core's `ItemStateConditionHandler` compares (quirks included),
/// and item-name wildcards as `ItemStateTriggerHandler` matches them.
@Suite("Item state conditions and name patterns")
struct StateComparisonTests {
    static let celsius = ItemType.numberItem(.temperature)

    static func holds(_ type: ItemType, _ state: State, _ op: StateComparison.Operator, _ text: String) -> Bool {
        StateComparison.holds(state, op, type.parseState(text, in: .utc))
    }

    static func quantity(_ text: String) -> State { .quantity(Quantity(parsing: text)!) }

    @Test(arguments: [
        // (state, operator, text, holds) for a Number:Temperature Item.
        ("21 °C", "=", "21 °C", true), ("21 °C", "=", "69.8 °F", true), ("21 °C", "=", "21", false),
        ("21 °C", ">=", "21", true), ("21 °C", ">", "20.9", true), ("21 °C", "<", "21", false),
        ("21 °C", "<=", "70 °F", true), ("21 °C", "!=", "22 °C", true), ("21 °C", ">", "21 W", true),
    ])
    func quantities(state: String, op: String, text: String, expected: Bool) throws {
        let op = try #require(StateComparison.Operator(text: op))
        #expect(Self.holds(Self.celsius, Self.quantity(state), op, text) == expected)
    }

    @Test func aNullStateIsLessAndGreaterThanAnything() {
        #expect(Self.holds(Self.celsius, .null, .less, "5 °C"))
        #expect(Self.holds(Self.celsius, .null, .greater, "5 °C"))
        #expect(!Self.holds(Self.celsius, .null, .lessOrEqual, "5 °C"))
        #expect(!Self.holds(Self.celsius, .null, .equal, "5 °C"))
        #expect(Self.holds(.switchItem, .null, .notEqual, "ON"))
    }

    @Test func dimensionlessNumbersEqualPlainOnes() {
        let one = ItemType.numberItem(.dimensionless)
        #expect(Self.holds(one, .quantity(Quantity(DecimalNumber(0.5), .one)), .equal, "0.5"))
        #expect(Self.holds(.dimmerItem, .percent(DecimalNumber(40)), .greaterOrEqual, "40"))
        #expect(StateComparison.Operator(text: "=<") == .lessOrEqual && StateComparison.Operator(text: "=>") == .greaterOrEqual)
        #expect(StateComparison.Operator(text: "==") == nil)
    }

    @Test(arguments: [("flat_1_*", "flat_1_heating_switch", true), ("flat_?_door_lock", "flat_2_door_lock", true),
                      ("flat_?_door_lock", "flat_12_door_lock", false), ("*_switch", "flat_1_heating_switch", true),
                      ("*_switch", "flat_1_heating_setpoint", false), ("Exact", "Exact", true), ("Exact", "Exactly", false),
                      ("a*b*c", "aXbYc", true), ("a*b*c", "aXbY", false)])
    func wildcards(pattern: String, name: String, expected: Bool) {
        #expect(ItemNamePattern(pattern).matches(name) == expected)
    }
}
