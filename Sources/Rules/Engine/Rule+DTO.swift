import Simulation

/// `GET /rest/rules` JSON: openHAB's `EnrichedRuleDTO`, keys in Gson's order (the subclass's `status` and
/// `editable` first, then `RuleDTO`'s), modules as `TriggerDTO` / `ConditionDTO` / `ActionDTO`, absent
/// values left out as Gson leaves out nulls.
extension Rule {
    /// The rule as `GET /rest/rules/{uid}` returns it. A DSL rule is not editable.
    /// - Parameter enabled: whether the engine has it enabled (`IDLE`/`NONE`, else `UNINITIALIZED`/`DISABLED`).
    public func dtoJSON(enabled: Bool, editable: Bool) -> String {
        let status = enabled ? JSONString.object([("status", "IDLE"), ("statusDetail", "NONE")])
            : JSONString.object([("status", "UNINITIALIZED"), ("statusDetail", "DISABLED")])
        var members: [(String, String)] = [("status", status), ("editable", editable ? "true" : "false")]
        members.append(("triggers", "[" + triggers.map { Self.module(id: $0.id, type: $0.moduleType, config: $0.configuration, inputs: false) }.joined(separator: ",") + "]"))
        members.append(("conditions", "[" + conditions.map { Self.module(id: $0.id, type: $0.moduleType, config: $0.configuration, inputs: true) }.joined(separator: ",") + "]"))
        members.append(("actions", "[" + actions.map { Self.module(id: $0.id, type: $0.moduleType, config: $0.configuration, inputs: true) }.joined(separator: ",") + "]"))
        members += [("configuration", "{}"), ("configDescriptions", "[]"), ("uid", JSONString.quoted(uid)), ("name", JSONString.quoted(name)),
                    ("tags", "[" + tags.map(JSONString.quoted).joined(separator: ",") + "]"), ("visibility", "\"VISIBLE\"")]
        if let description { members.append(("description", JSONString.quoted(description))) }
        return "{" + members.map { "\(JSONString.quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// A module object; `config` values are raw JSON.
    private static func module(id: String, type: String, config: [(String, String)], inputs: Bool) -> String {
        var members: [(String, String)] = []
        if inputs { members.append(("inputs", "{}")) }
        members.append(("id", JSONString.quoted(id)))
        members.append(("configuration", "{" + config.map { "\(JSONString.quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}"))
        members.append(("type", JSONString.quoted(type)))
        return "{" + members.map { "\(JSONString.quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }
}

private func text(_ value: String?) -> String? { value.map(JSONString.quoted) }
private func pairs(_ list: [(String, String?)]) -> [(String, String)] { list.compactMap { key, value in value.map { (key, $0) } } }

extension RuleTrigger {
    /// The openHAB module type.
    public var moduleType: String {
        switch kind {
        case .itemCommand: "core.ItemCommandTrigger"
        case .itemStateUpdate: "core.ItemStateUpdateTrigger"
        case .itemStateChange: "core.ItemStateChangeTrigger"
        case .groupCommand: "core.GroupCommandTrigger"
        case .groupStateUpdate: "core.GroupStateUpdateTrigger"
        case .groupStateChange: "core.GroupStateChangeTrigger"
        case .cron: "timer.GenericCronTrigger"
        case .dateTime: "timer.DateTimeTrigger"
        case .thingStatusChange: "core.ThingStatusChangeTrigger"
        case .thingStatusUpdate: "core.ThingStatusUpdateTrigger"
        case .systemStartlevel: "core.SystemStartlevelTrigger"
        case .channelEvent: "core.ChannelEventTrigger"
        case .recurrence(let every, let at, _): Self.cronText(everyMinutes: every, atMinute: at) == nil ? "twin.RecurrenceTrigger" : "timer.GenericCronTrigger"
        }
    }

    /// The cron expression of a recurrence, where one cron expression says it.
    static func cronText(everyMinutes: Int, atMinute: Int) -> String? {
        if everyMinutes <= 60, 60 % everyMinutes == 0 { return everyMinutes == 60 ? "0 \(atMinute) * * * ?" : "0 \(atMinute)/\(everyMinutes) * * * ?" }
        guard everyMinutes % 60 == 0 else { return nil }
        let hours = everyMinutes / 60
        return "0 \(atMinute % 60) \(atMinute / 60)/\(hours) * * ?"
    }

    /// The configuration, values as JSON.
    public var configuration: [(String, String)] {
        switch kind {
        case .itemCommand(let p, let c): pairs([("itemName", text(p.text)), ("command", text(c))])
        case .itemStateUpdate(let p, let s): pairs([("itemName", text(p.text)), ("state", text(s))])
        case .itemStateChange(let p, let from, let to): pairs([("itemName", text(p.text)), ("previousState", text(from)), ("state", text(to))])
        case .groupCommand(let g, let c): pairs([("groupName", text(g)), ("command", text(c))])
        case .groupStateUpdate(let g, let s): pairs([("groupName", text(g)), ("state", text(s))])
        case .groupStateChange(let g, let from, let to): pairs([("groupName", text(g)), ("previousState", text(from)), ("state", text(to))])
        case .cron(let cron): [("cronExpression", JSONString.quoted(cron.text))]
        case .dateTime(let item, let timeOnly, let offset): [("itemName", JSONString.quoted(item)), ("timeOnly", timeOnly ? "true" : "false"), ("offset", String(offset))]
        case .thingStatusChange(let t, let from, let to): pairs([("thingUID", text(t)), ("previousStatus", text(from)), ("status", text(to))])
        case .thingStatusUpdate(let t, let s): pairs([("thingUID", text(t)), ("status", text(s))])
        case .systemStartlevel(let level): [("startlevel", String(level))]
        case .channelEvent(let channel, let event): pairs([("channelUID", text(channel)), ("event", text(event))])
        case .recurrence(let every, let at, _):
            Self.cronText(everyMinutes: every, atMinute: at).map { [("cronExpression", JSONString.quoted($0))] }
                ?? [("everyMinutes", String(every)), ("atMinute", String(at))]
        }
    }
}

extension RuleCondition {
    /// The openHAB module type.
    public var moduleType: String {
        switch kind {
        case .itemState: "core.ItemStateCondition"
        case .timeOfDay: "core.TimeOfDayCondition"
        case .dayOfWeek: "timer.DayOfWeekCondition"
        case .weekday(let weekend): weekend ? "ephemeris.WeekendCondition" : "ephemeris.WeekdayCondition"
        case .thingStatus: "core.ThingStatusCondition"
        case .interval: "timer.IntervalCondition"
        case .script: "script.ScriptCondition"
        }
    }

    /// The configuration, values as JSON.
    public var configuration: [(String, String)] {
        switch kind {
        case .itemState(let item, let op, let state): [("itemName", JSONString.quoted(item)), ("operator", JSONString.quoted(op.rawValue)), ("state", JSONString.quoted(state))]
        case .timeOfDay(let start, let end):
            pairs([("startTime", start.map { JSONString.quoted(String($0.isoString.prefix(5))) }), ("endTime", end.map { JSONString.quoted(String($0.isoString.prefix(5))) })])
        case .dayOfWeek(let days):
            [("days", "[" + days.sorted().map { JSONString.quoted(["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"][$0 - 1]) }.joined(separator: ",") + "]")]
        case .weekday: []
        case .thingStatus(let thing, let status, let equal): [("thingUID", JSONString.quoted(thing)), ("operator", JSONString.quoted(equal ? "=" : "!=")), ("status", JSONString.quoted(status))]
        case .interval(let minimum): [("minInterval", String(minimum.milliseconds))]
        case .script(let script): [("type", JSONString.quoted(script.mediaType)), ("script", JSONString.quoted(script.source))]
        }
    }
}

extension RuleAction {
    /// The openHAB module type.
    public var moduleType: String {
        switch kind {
        case .itemCommand: "core.ItemCommandAction"
        case .itemStateUpdate: "core.ItemStateUpdateAction"
        case .runRules: "core.RunRuleAction"
        case .enableRules: "core.RuleEnablementAction"
        case .script: "script.ScriptAction"
        case .builtIn: "twin.BuiltInAction"
        }
    }

    /// The configuration, values as JSON.
    public var configuration: [(String, String)] {
        func list(_ ids: [String]) -> String { "[" + ids.map(JSONString.quoted).joined(separator: ",") + "]" }
        switch kind {
        case .itemCommand(let item, let command): return [("itemName", JSONString.quoted(item)), ("command", JSONString.quoted(command))]
        case .itemStateUpdate(let item, let state): return [("itemName", JSONString.quoted(item)), ("state", JSONString.quoted(state))]
        case .runRules(let ids, let consider): return [("ruleUIDs", list(ids)), ("considerConditions", consider ? "true" : "false")]
        case .enableRules(let ids, let enable): return [("enable", enable ? "true" : "false"), ("ruleUIDs", list(ids))]
        case .script(let script): return [("type", JSONString.quoted(script.mediaType)), ("script", JSONString.quoted(script.source))]
        case .builtIn(let name, _): return [("automation", JSONString.quoted(name))]
        }
    }
}
