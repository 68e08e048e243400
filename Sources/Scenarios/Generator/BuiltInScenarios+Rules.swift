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

extension BuiltInScenarios {
    /// Ten Rules DSL rules for `bench`'s heated flat, written as users write them: lambda values, Group
    /// members filtered, mapped, reduced and sorted, `switch` with guards, a timer with `?.`, `String::format`
    /// — on the flat's own Items (its room temperature, power, switch and setpoint) and two room sensors a cron
    /// rule updates every 15 minutes.
    static let benchDSLRules = """
        // bench: ten lambda- and group-heavy rules on the flat's own Items
        val Functions$Function1<Number, Boolean> isCold = [ t | t < 19 ]
        val Functions$Function2<Number, Number, Number> clamp = [ v, hi | if (v > hi) hi else v ]
        val changes = newHashMap
        var Timer heaterTimer = null

        rule "room sensors"
        when
            Time cron "0 0/15 * * * ?"
        then
            val base = (flat_1_heating_temperature.state as Number).doubleValue
            gRooms.members.forEach[ r, i | r.postUpdate(base - 0.5 * (i + 1)) ]
        end

        rule "average temperature"
        when
            Member of gTemps changed
        then
            val nums = gTemps.members.filter[ state instanceof Number ].map[ (state as Number).doubleValue ]
            if (nums.size > 0) AvgTemp.postUpdate(nums.reduce[ a, b | a + b ] / nums.size)
            changes.put(triggeringItem.name, (changes.get(triggeringItem.name) ?: 0) + 1)
        end

        rule "cold rooms"
        when
            Member of gTemps changed
        then
            val cold = gTemps.members.filter[ t | t.state instanceof Number && isCold.apply(t.state as Number) ].map[ name ].sort
            ColdRooms.postUpdate(if (cold.isEmpty) "none" else cold.join(", "))
        end

        rule "power total"
        when
            Member of gPower changed
        then
            var total = 0.0
            for (p : gPower.members) {
                if (p.state instanceof Number) total = total + (p.state as Number).doubleValue
            }
            TotalPower.postUpdate(total)
        end

        rule "power scene"
        when
            Item TotalPower changed
        then
            val w = (TotalPower.state as Number).doubleValue
            val scene = switch w {
                case w < 1: "IDLE"
                case w < 1000: "LOW"
                default: "HIGH"
            }
            if (Scene.state.toString != scene) Scene.postUpdate(scene)
        end

        rule "heater on long"
        when
            Item flat_1_heating_switch changed
        then
            heaterTimer?.cancel
            if (newState == ON) {
                heaterTimer = createTimer(now.plusMinutes(90)) [|
                    if (flat_1_heating_switch.state == ON) HeaterLong.postUpdate(String::format("on since %s", now.minusMinutes(90).toLocalTime))
                ]
            }
        end

        rule "hourly"
        when
            Time cron "0 0 * * * ?"
        then
            Hot.postUpdate(gTemps.members.filter[ state instanceof Number && (state as Number).doubleValue > 21 ].size)
        end

        rule "warmest"
        when
            Time cron "0 0/15 * * * ?"
        then
            Top.postUpdate(gTemps.members.filter[ state instanceof Number ].sortBy[ (state as Number).doubleValue ].reverse.take(2).map[ name ].join(","))
        end

        rule "setpoint clamp"
        when
            Item flat_1_heating_setpoint changed
        then
            val v = clamp.apply(flat_1_heating_setpoint.state as Number, 23)
            if (v != (flat_1_heating_setpoint.state as Number)) logInfo("bench", "setpoint {} above 23", v)
        end

        rule "daily stats"
        when
            Time cron "0 0 0 * * ?"
        then
            var total = 0
            for (k : changes.keySet) total = total + changes.get(k)
            logDebug("bench", "changes {}", total)
        end

        """

    /// The Groups and Items `bench`'s ten rules use (the Rules DSL set and the JavaScript one), as a scenario's `items`.
    public static let benchTenRuleItems = """
        [ { "name": "gTemps", "type": "Group", "members": ["flat_1_heating_temperature", "Room_Bedroom", "Room_Bath"] },
          { "name": "gRooms", "type": "Group", "members": ["Room_Bedroom", "Room_Bath"] },
          { "name": "gPower", "type": "Group", "members": ["flat_1_heating_power", "Kitchen_Plug_Power"] },
          { "name": "Room_Bedroom", "type": "Number", "state": "19" }, { "name": "Room_Bath", "type": "Number", "state": "21" },
          { "name": "Kitchen_Plug_Power", "type": "Number", "state": "0.5" }, { "name": "AvgTemp", "type": "Number" },
          { "name": "ColdRooms", "type": "String" }, { "name": "TotalPower", "type": "Number" }, { "name": "Scene", "type": "String" },
          { "name": "HeaterLong", "type": "String" }, { "name": "Hot", "type": "Number" }, { "name": "Top", "type": "String" } ]
        """

    /// The heated flat (``heatedFlat(days:watched:extraMembers:)``) with ``benchDSLRules`` loaded and the Groups and Items they use.
    /// - Throws: ``ScenarioError`` if the built-in text does not decode (a bug).
    public static func heatedFlatWithDSLRules(days: Int) throws(ScenarioError) -> Scenario {
        let items = benchTenRuleItems
        let file = "built-in-bench-dsl.json"
        return try ScenarioDecoder.decode(heatedFlat(days: days, extraMembers: "\n  \"items\": \(items),\n  \"rules\": [\"bench.rules\"],"),
                                          file: file, sideFiles: [ScenarioDecoder.resolvedSidePath("bench.rules", scenarioFile: file): benchDSLRules])
    }

    /// The trivial rule `bench` times a run of: a per-second cron that posts one update to a virtual Item.
    static let benchTrivialRule = """
        rule "Tick"
        when
            Time cron "* * * * * ?"
        then
            Tick_Count.postUpdate(1)
        end

        """

    /// The heated flat (``heatedFlat(days:watched:extraMembers:)``) with ``benchTrivialRule`` and its Item: what the path
    /// around a rule run costs (a kernel event, the run, one update and its bus events, the run's record).
    /// - Throws: ``ScenarioError`` if the built-in text does not decode (a bug).
    public static func heatedFlatWithTrivialRule(days: Int) throws(ScenarioError) -> Scenario {
        let file = "built-in-bench-tick.json"
        return try ScenarioDecoder.decode(heatedFlat(days: days, extraMembers: "\n  \"items\": [ { \"name\": \"Tick_Count\", \"type\": \"Number\" } ],\n  \"rules\": [\"tick.rules\"],"),
                                          file: file, sideFiles: [ScenarioDecoder.resolvedSidePath("tick.rules", scenarioFile: file): benchTrivialRule])
    }
}
