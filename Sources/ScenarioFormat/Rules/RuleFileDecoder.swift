import Rules
import Simulation
import SmartHome

/// Reads openHAB UI rules from JSON — an array of `RuleDTO` as `GET /rest/rules` returns it, or openHAB's
/// JSON database `automation_rules.json` (`{"<uid>": {"class": "…", "value": <RuleDTO>}}`, in file order) —
/// into the engine's ``Rule``s. Every module type RULES.md lists is read with its configuration keys and
/// defaults; anything else (an unknown type, a script in a language the twin does not run, a missing key) is a
/// located problem naming the file, JSON path and line, never skipped.
package enum RuleFileDecoder {
    /// The module types the twin runs, by kind.
    static let triggerTypes = ["core.ItemStateChangeTrigger", "core.ItemStateUpdateTrigger", "core.ItemCommandTrigger",
                               "core.GroupStateChangeTrigger", "core.GroupStateUpdateTrigger", "core.GroupCommandTrigger",
                               "timer.GenericCronTrigger", "timer.TimeOfDayTrigger", "timer.DateTimeTrigger",
                               "core.ThingStatusChangeTrigger", "core.ThingStatusUpdateTrigger", "core.SystemStartlevelTrigger",
                               "core.ChannelEventTrigger", "core.GenericEventTrigger"]
    static let conditionTypes = ["core.ItemStateCondition", "core.TimeOfDayCondition", "timer.DayOfWeekCondition",
                                 "ephemeris.WeekdayCondition", "ephemeris.WeekendCondition", "core.ThingStatusCondition",
                                 "timer.IntervalCondition", "script.ScriptCondition"]
    static let actionTypes = ["core.ItemCommandAction", "core.ItemStateUpdateAction", "core.RunRuleAction",
                              "core.RuleEnablementAction", "script.ScriptAction"]
    /// The Rules DSL's media type.
    static let dslMediaType = "application/vnd.openhab.dsl.rule"
    /// The media types the JavaScript Scripting add-on (GraalJS) registers that Main UI and Blockly save:
    /// `application/javascript` (openHAB 4+), `…;version=ECMAScript-2021` (openHAB 3's name for it) and the aliases.
    static let javaScriptMediaTypes: Set<String> = ["application/javascript", "application/javascript;version=ECMAScript-2021",
                                                    "application/ecmascript", "text/javascript", "text/ecmascript", "js"]

    /// A `script.ScriptAction` / `script.ScriptCondition` to compile: its media type and body, where it is, and
    /// whose module it is.
    struct ScriptModule {
        let type: String
        let source: String
        /// The `script` field (its line locates problems).
        let field: Field
        let ruleUID: String
        let moduleID: String
        let isCondition: Bool

        var isJavaScript: Bool { RuleFileDecoder.javaScriptMediaTypes.contains(type) }
    }

    /// Decodes a UI rules file given as text, without DSL scripts (the built-in rule sets).
    /// - Throws: ``ScenarioError`` `scenario.invalid` with every problem.
    package static func decodeWithoutScripts(_ text: String, file: String) throws(ScenarioError) -> [Rule] {
        let issues = IssueCollector(file: file)
        let rules = decode(text, issues: issues) { _ in nil }
        guard issues.issues.isEmpty else { throw ScenarioError.invalid(file: file, issues: issues.issues) }
        return rules
    }

    /// Decodes `text` read from `file`; problems go to `issues` (whose file is `file`).
    /// - Parameter script: compiles a script module (`nil` and a problem reported when it cannot).
    static func decode(_ text: String, issues: IssueCollector, script: (ScriptModule) -> (any RuleScript)?) -> [Rule] {
        let root: JSONNode
        do {
            root = try JSONParser.parse(text)
        } catch {
            issues.add("", line: error.line, "this is not valid JSON: \(error.message) (column \(error.column)).", hint: error.hint)
            return []
        }
        let field = Field(node: root, path: "", issues: issues)
        var dtos: [Field] = []
        switch root.value {
        case .array:
            dtos = field.array.map(Array.init) ?? []
        case .object(let members):
            // automation_rules.json: each member's "value" is a RuleDTO.
            for member in members {
                let entry = Field(node: member.value, path: member.key, issues: issues)
                guard let o = entry.object(["class", "value"]), let value = o.required("value") else { continue }
                dtos.append(value)
            }
        default:
            field.problem("expected an array of rules (as GET /rest/rules returns) or an automation_rules.json object, found \(root.kindDescription).")
        }
        return dtos.compactMap { decodeRule($0, script: script) }
    }

    private static func decodeRule(_ field: Field, script: (ScriptModule) -> (any RuleScript)?) -> Rule? {
        guard let o = field.object(["uid", "name", "description", "tags", "triggers", "conditions", "actions", "configuration",
                                    "configDescriptions", "templateUID", "templateState", "visibility", "status", "editable"]) else { return nil }
        let uid = o.required("uid")?.name
        let ruleUID = uid ?? ""
        let name = o.optional("name")?.string
        let description = o.optional("description").flatMap { $0.isNull ? nil : $0.string }
        let tags = o.optional("tags")?.array?.compactMap(\.string) ?? []
        let triggers = o.optional("triggers")?.array?.compactMap(decodeTrigger) ?? []
        let conditions = o.optional("conditions")?.array?.compactMap { decodeCondition($0, rule: ruleUID, script: script) } ?? []
        let actions = o.optional("actions")?.array?.compactMap { decodeAction($0, rule: ruleUID, script: script) } ?? []
        guard let uid else { return nil }
        return Rule(uid: uid, name: name ?? uid, description: description, tags: tags, triggers: triggers, conditions: conditions,
                    actions: actions, source: "\(field.issues.file):\(field.line)")
    }

    /// A module's `id`, `type` and configuration reader; a problem if the type is not one of `allowed`.
    private static func module(_ field: Field, _ allowed: [String], _ what: String) -> (id: String, type: String, config: ObjectReader?)? {
        guard let o = field.object(["id", "label", "description", "type", "configuration", "inputs"]),
              let id = o.required("id")?.name, let typeField = o.required("type"), let type = typeField.name else { return nil }
        guard allowed.contains(type) else {
            let hint = Suggestion.closest(to: type, in: allowed).map { "did you mean \"\($0)\"?" }
                ?? "the twin runs these \(what) types: \(allowed.joined(separator: ", "))."
            typeField.problem("\"\(type)\" is not a \(what) type the twin can run.", hint: hint)
            return nil
        }
        let config = o.optional("configuration")
        let configKeys: [String]
        switch type {
        case "core.ItemStateChangeTrigger", "core.GroupStateChangeTrigger": configKeys = ["itemName", "groupName", "previousState", "state"]
        case "core.ItemStateUpdateTrigger", "core.GroupStateUpdateTrigger": configKeys = ["itemName", "groupName", "state"]
        case "core.ItemCommandTrigger", "core.GroupCommandTrigger": configKeys = ["itemName", "groupName", "command"]
        case "timer.GenericCronTrigger": configKeys = ["cronExpression"]
        case "timer.TimeOfDayTrigger": configKeys = ["time"]
        case "timer.DateTimeTrigger": configKeys = ["itemName", "timeOnly", "offset"]
        case "core.ThingStatusChangeTrigger": configKeys = ["thingUID", "previousStatus", "status"]
        case "core.ThingStatusUpdateTrigger": configKeys = ["thingUID", "status"]
        case "core.ChannelEventTrigger": configKeys = ["channelUID", "event"]  // openhab-core ChannelEventTriggerHandler
        case "core.SystemStartlevelTrigger": configKeys = ["startlevel"]
        case "core.GenericEventTrigger": configKeys = ["topic", "source", "types"]  // GenericEventTriggerHandler
        case "core.ItemStateCondition": configKeys = ["itemName", "operator", "state"]
        case "core.TimeOfDayCondition": configKeys = ["startTime", "endTime"]
        case "timer.DayOfWeekCondition": configKeys = ["days"]
        case "ephemeris.WeekdayCondition", "ephemeris.WeekendCondition": configKeys = ["offset"]
        case "core.ThingStatusCondition": configKeys = ["thingUID", "operator", "status"]
        case "timer.IntervalCondition": configKeys = ["minInterval"]
        case "core.ItemCommandAction": configKeys = ["itemName", "command"]
        case "core.ItemStateUpdateAction": configKeys = ["itemName", "state"]
        case "core.RunRuleAction": configKeys = ["ruleUIDs", "considerConditions"]
        case "core.RuleEnablementAction": configKeys = ["enable", "ruleUIDs"]
        default: configKeys = ["type", "script", "blockSource"]  // script.ScriptAction / ScriptCondition (Blockly keeps its blocks in blockSource)
        }
        let reader = config.flatMap { $0.isNull ? nil : $0.object(configKeys) }
        return (id, type, reader)
    }

    /// A configuration value as text: openHAB keeps configuration values as strings, numbers or booleans.
    private static func text(_ config: ObjectReader?, _ key: String, required: Bool, in field: Field) -> String? {
        guard let config else {
            if required { field.problem("has no configuration; it needs \"\(key)\".") }
            return nil
        }
        guard let f = required ? config.required(key) : config.optional(key) else { return nil }
        switch f.node.value {
        case .string(let s): return s
        case .number(_, let t): return t
        case .bool(let b): return b ? "true" : "false"
        case .null: return nil
        default:
            f.problem("expected text or a number, found \(f.node.kindDescription).")
            return nil
        }
    }

    static func decodeTrigger(_ field: Field) -> RuleTrigger? {
        guard let (id, type, c) = module(field, triggerTypes, "trigger") else { return nil }
        func t(_ key: String, _ required: Bool = false) -> String? { text(c, key, required: required, in: field) }
        let kind: RuleTrigger.Kind?
        switch type {
        case "core.ItemStateChangeTrigger": kind = t("itemName", true).map { .itemStateChange(ItemNamePattern($0), previousState: t("previousState"), state: t("state")) }
        case "core.ItemStateUpdateTrigger": kind = t("itemName", true).map { .itemStateUpdate(ItemNamePattern($0), state: t("state")) }
        case "core.ItemCommandTrigger": kind = t("itemName", true).map { .itemCommand(ItemNamePattern($0), command: t("command")) }
        case "core.GroupStateChangeTrigger": kind = t("groupName", true).map { .groupStateChange(group: $0, previousState: t("previousState"), state: t("state")) }
        case "core.GroupStateUpdateTrigger": kind = t("groupName", true).map { .groupStateUpdate(group: $0, state: t("state")) }
        case "core.GroupCommandTrigger": kind = t("groupName", true).map { .groupCommand(group: $0, command: t("command")) }
        case "timer.GenericCronTrigger", "timer.TimeOfDayTrigger":
            let key = type == "timer.TimeOfDayTrigger" ? "time" : "cronExpression"
            guard let value = t(key, true) else { return nil }
            do {
                kind = .cron(type == "timer.TimeOfDayTrigger" ? try CronExpression.timeOfDay(value) : try CronExpression(value))
            } catch {
                c?.value(key)?.problem(error.message, hint: error.hint)
                return nil
            }
        case "timer.DateTimeTrigger":
            guard let item = t("itemName", true) else { return nil }
            let timeOnly = t("timeOnly") == "true"
            guard let offset = integer(t("offset") ?? "0", c?.value("offset")) else { return nil }
            kind = .dateTime(item: item, timeOnly: timeOnly, offsetSeconds: offset)
        case "core.ThingStatusChangeTrigger":
            kind = t("thingUID", true).map { .thingStatusChange(thing: $0, previousStatus: status(t("previousStatus"), c?.value("previousStatus")), status: status(t("status"), c?.value("status"))) }
        case "core.ThingStatusUpdateTrigger":
            kind = t("thingUID", true).map { .thingStatusUpdate(thing: $0, status: status(t("status"), c?.value("status"))) }
        case "core.ChannelEventTrigger":
            guard let channel = t("channelUID", true) else { return nil }
            if let problem = ChannelUIDSyntax.problem(channel) {
                c?.value("channelUID")?.problem("\"\(channel)\" is not a channel UID: \(problem).",
                                                hint: "write binding:thing-type:thing:channel, e.g. \"astro:sun:home:set#event\".")
                return nil
            }
            kind = .channelEvent(channel: channel, event: t("event"))
        case "core.GenericEventTrigger":
            // Run as the Item trigger that fires on the same events (GenericItemEventFilter); the rest is refused.
            guard let topic = t("topic", true) else { return nil }
            switch GenericItemEventFilter.parse(topic: topic, source: t("source"), types: t("types")) {
            case .success(let filter):
                let pattern = ItemNamePattern(filter.itemPattern)
                switch filter.event {
                case .stateChanged: kind = .itemStateChange(pattern, previousState: nil, state: nil)
                case .state, .stateUpdated: kind = .itemStateUpdate(pattern, state: nil)
                case .command: kind = .itemCommand(pattern, command: nil)
                }
            case .failure(let refusal):
                c?.value("topic")?.problem("core.GenericEventTrigger: the twin does not run \(refusal.reason).", hint: refusal.hint)
                return nil
            }
        default:  // core.SystemStartlevelTrigger
            guard let text = t("startlevel", true), let level = integer(text, c?.value("startlevel")) else { return nil }
            kind = .systemStartlevel(level)
        }
        return kind.map { RuleTrigger(id: id, $0) }
    }

    private static func decodeCondition(_ field: Field, rule: String, script: (ScriptModule) -> (any RuleScript)?) -> RuleCondition? {
        guard let (id, type, c) = module(field, conditionTypes, "condition") else { return nil }
        func t(_ key: String, _ required: Bool = false) -> String? { text(c, key, required: required, in: field) }
        let kind: RuleCondition.Kind?
        switch type {
        case "core.ItemStateCondition":
            guard let item = t("itemName", true), let opText = t("operator", true), let state = t("state", true) else { return nil }
            guard let op = StateComparison.Operator(text: opText) else {
                c?.value("operator")?.problem("\"\(opText)\" is not an operator of ItemStateCondition.", hint: "use one of = != < <= > >=.")
                return nil
            }
            kind = .itemState(item: item, operator: op, state: state)
        case "core.TimeOfDayCondition":
            let start = time(t("startTime"), c?.value("startTime")), end = time(t("endTime"), c?.value("endTime"))
            if case .some(.none) = start { return nil }
            if case .some(.none) = end { return nil }
            kind = .timeOfDay(start: start ?? nil, end: end ?? nil)
        case "timer.DayOfWeekCondition":
            let names = ["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"]
            guard let f = c?.required("days"), let list = f.array else { return nil }
            var days = Set<Int>()
            for day in list {
                guard let name = day.string else { return nil }
                guard let index = names.firstIndex(of: name.uppercased().prefix(3).description), name.count >= 3 else {
                    day.problem("\"\(name)\" is not a day; use MON, TUE, WED, THU, FRI, SAT, SUN.")
                    return nil
                }
                days.insert(index + 1)
            }
            kind = .dayOfWeek(days)
        case "ephemeris.WeekdayCondition": kind = .weekday(weekend: false)
        case "ephemeris.WeekendCondition": kind = .weekday(weekend: true)
        case "core.ThingStatusCondition":
            guard let thing = t("thingUID", true), let s = status(t("status", true), c?.value("status")) else { return nil }
            let op = t("operator") ?? "="
            guard op == "=" || op == "!=" else {
                c?.value("operator")?.problem("\"\(op)\" is not an operator of ThingStatusCondition.", hint: "use = or !=.")
                return nil
            }
            kind = .thingStatus(thing: thing, status: s, equal: op == "=")
        case "timer.IntervalCondition":
            guard let text = t("minInterval", true), let ms = integer(text, c?.value("minInterval")) else { return nil }
            kind = .interval(minimum: SimDuration(milliseconds: Int64(ms)))
        default:  // script.ScriptCondition
            guard let (mediaType, body) = scriptBody(c, field) else { return nil }
            kind = script(ScriptModule(type: mediaType, source: body, field: c?.value("script") ?? field, ruleUID: rule, moduleID: id,
                                       isCondition: true)).map { .script($0) }
        }
        return kind.map { RuleCondition(id: id, $0) }
    }

    private static func decodeAction(_ field: Field, rule: String, script: (ScriptModule) -> (any RuleScript)?) -> RuleAction? {
        guard let (id, type, c) = module(field, actionTypes, "action") else { return nil }
        func t(_ key: String, _ required: Bool = false) -> String? { text(c, key, required: required, in: field) }
        let kind: RuleAction.Kind?
        switch type {
        case "core.ItemCommandAction":
            guard let item = t("itemName", true), let command = t("command", true) else { return nil }
            kind = .itemCommand(item: item, command: command)
        case "core.ItemStateUpdateAction":
            guard let item = t("itemName", true), let state = t("state", true) else { return nil }
            kind = .itemStateUpdate(item: item, state: state)
        case "core.RunRuleAction":
            guard let uids = c?.required("ruleUIDs")?.array?.compactMap(\.string) else { return nil }
            kind = .runRules(uids, considerConditions: t("considerConditions") != "false")
        case "core.RuleEnablementAction":
            guard let uids = c?.required("ruleUIDs")?.array?.compactMap(\.string), let enable = c?.required("enable")?.bool else { return nil }
            kind = .enableRules(uids, enable: enable)
        default:  // script.ScriptAction
            guard let (mediaType, body) = scriptBody(c, field) else { return nil }
            kind = script(ScriptModule(type: mediaType, source: body, field: c?.value("script") ?? field, ruleUID: rule, moduleID: id,
                                       isCondition: false)).map { .script($0) }
        }
        return kind.map { RuleAction(id: id, $0) }
    }

    /// The media type and body of a `script.Script…` module whose `type` is the Rules DSL or JavaScript; other
    /// languages are refused.
    private static func scriptBody(_ c: ObjectReader?, _ field: Field) -> (type: String, body: String)? {
        guard let c, let typeField = c.required("type"), let type = typeField.string, let script = c.required("script")?.string else {
            if c == nil { field.problem("has no configuration; a script module needs \"type\" and \"script\".") }
            return nil
        }
        guard type == dslMediaType || javaScriptMediaTypes.contains(type) else {
            let nashorn = type == "application/javascript;version=ECMAScript-5.1"
            typeField.problem("\"\(type)\" scripts cannot run in the twin; it runs Rules DSL (\"\(dslMediaType)\") and JavaScript Scripting "
                              + "(\"application/javascript\") scripts.",
                              hint: nashorn ? "this is the NashornJS (ECMAScript 5.1) add-on; save the script as \"application/javascript\" (JavaScript Scripting)."
                                  : "rewrite the script in JavaScript or the Rules DSL, or as core.ItemCommandAction / core.ItemStateCondition modules.")
            return nil
        }
        return (type, script)
    }

    private static func integer(_ text: String, _ f: Field?) -> Int? {
        guard let value = Int(text) ?? Double(text).flatMap({ $0 == $0.rounded() && abs($0) < 1e15 ? Int($0) : nil }) else {
            f?.problem("expected a whole number, found \"\(text)\".")
            return nil
        }
        return value
    }

    /// A Thing status name (ONLINE, OFFLINE, …), checked.
    private static func status(_ text: String?, _ f: Field?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        let known = ThingStatus.allCases.map(\.rawValue)
        guard known.contains(text) else {
            f?.problem("\"\(text)\" is not a Thing status.", hint: "use one of \(known.joined(separator: ", ")).")
            return nil
        }
        return text
    }

    /// `hh:mm` → a local time; `.some(nil)` after a problem, `nil` when absent.
    private static func time(_ text: String?, _ f: Field?) -> LocalTime?? {
        guard let text, !text.isEmpty else { return nil }
        let parts = text.split(separator: ":")
        guard parts.count >= 2, let h = Int(parts[0]), let m = Int(parts[1]), let time = LocalTime(hour: h, minute: m) else {
            f?.problem("\"\(text)\" is not a time of day hh:mm.")
            return .some(nil)
        }
        return .some(time)
    }
}
