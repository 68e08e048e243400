import Rules
import ScenarioFormat
import SmartHome

extension BuiltInScenarios {
    /// Five rules for `bench`'s heated flat, as UI rules JSON: a keep-warm check every 5 minutes (cron), a
    /// night setback at 22:00 and morning comfort at 06:00 (time of day), and two rules that hear the
    /// heater's switch and setpoint on the bus and write helper Items.
    static let benchRulesJSON = """
        [
          { "uid": "keep-warm", "name": "Keep warm", "triggers": [ { "id": "1", "type": "timer.GenericCronTrigger", "configuration": { "cronExpression": "0 0/5 * * * ?" } } ],
            "conditions": [ { "id": "2", "type": "core.ItemStateCondition", "configuration": { "itemName": "flat_1_heating_temperature", "operator": "<", "state": "15 °C" } } ],
            "actions": [ { "id": "3", "type": "core.ItemCommandAction", "configuration": { "itemName": "flat_1_heating_switch", "command": "ON" } } ] },
          { "uid": "night", "name": "Night setback", "triggers": [ { "id": "1", "type": "timer.TimeOfDayTrigger", "configuration": { "time": "22:00" } } ],
            "actions": [ { "id": "2", "type": "core.ItemCommandAction", "configuration": { "itemName": "flat_1_heating_setpoint", "command": "18 °C" } } ] },
          { "uid": "morning", "name": "Morning comfort", "triggers": [ { "id": "1", "type": "timer.TimeOfDayTrigger", "configuration": { "time": "06:00" } } ],
            "actions": [ { "id": "2", "type": "core.ItemCommandAction", "configuration": { "itemName": "flat_1_heating_setpoint", "command": "21 °C" } } ] },
          { "uid": "heater", "name": "Heater changes", "triggers": [ { "id": "1", "type": "core.ItemStateChangeTrigger", "configuration": { "itemName": "flat_1_heating_switch" } } ],
            "actions": [ { "id": "2", "type": "core.ItemStateUpdateAction", "configuration": { "itemName": "Heater_Changed", "state": "ON" } } ] },
          { "uid": "setpoint", "name": "Setpoint commands", "triggers": [ { "id": "1", "type": "core.ItemCommandTrigger", "configuration": { "itemName": "flat_1_heating_setpoint" } } ],
            "actions": [ { "id": "2", "type": "core.ItemStateUpdateAction", "configuration": { "itemName": "Last_Setpoint_Command", "state": "set" } } ] }
        ]
        """

    /// The heated flat (``heatedFlat(days:)``) with ``benchRulesJSON`` loaded and their helper Items.
    /// - Throws: ``ScenarioError`` if the built-in text does not decode (a bug).
    public static func heatedFlatWithRules(days: Int) throws(ScenarioError) -> Scenario {
        var scenario = try ScenarioDecoder.decode(heatedFlat(days: days), file: "built-in-bench-rules.json")
        scenario.rules = try RuleFileDecoder.decodeWithoutScripts(benchRulesJSON, file: "built-in-bench-rules.json")
        scenario.items = [VirtualItemSpec(name: "Heater_Changed", type: .switchItem, state: nil, label: nil, members: [], path: "items[0]"),
                          VirtualItemSpec(name: "Last_Setpoint_Command", type: .stringItem, state: nil, label: nil, members: [], path: "items[1]")]
        return scenario
    }
}
