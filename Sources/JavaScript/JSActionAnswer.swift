import Rules
import Simulation

/// The twin's answers to a script's questions about actions in the middle of a run, from the same sources the
/// Rules DSL's actions use: a Thing action's scripted result (`responses`), a transformation
/// (``ScriptTransformation``), an HTTP action's scripted answer or the twin's own (``http(_:execution:)``), an Exec
/// action's scripted answer, a bank holiday, a rule's enablement.
enum JSActionAnswer {
    /// The questions this answers (`q`).
    static let questions: Set<String> = ["action", "transform", "exec", "holiday", "rule"]

    /// The answer to `question` for the run `execution`: the fields the runtime reads, with JSON nulls, or
    /// `{error, code}`.
    static func answer(_ question: JSWireValue, execution: RuleExecution) -> JSWireValue {
        let text = { (key: String) in question[key]?.stringValue }
        switch text("q") {
        case "action":
            guard let scope = text("scope"), let method = text("method"), let thing = text("thing") else { break }
            switch execution.scriptedResult(scope: scope, method: method, thing: thing) {
            case .text(let s)?: return ["result": .string(s)]
            case .number(let n)?: return ["result": .number(n)]
            case .boolean(let b)?: return ["result": .bool(b)]
            case .null?, nil: return ["result": .null]
            }
        case "transform":
            guard let type = text("type"), let function = text("function"), let value = text("value") else { break }
            let name = question["raw"]?.boolValue == true ? "actions.Transformation.transformRaw" : "actions.Transformation.transform"
            switch ScriptTransformation.apply(type: type, function: function, value: value, execution: execution, name: name) {
            case .value(let result): return ["value": .stringOrNull(result)]
            case .failure(let message): return ["failed": .string(message)]
            case .refused(let message): return ["error": .string(message), "code": .string(JavaScriptError.Code.unsupported.rawValue)]
            }
        case "exec":
            guard let command = text("command") else { break }
            return ["output": .stringOrNull(execution.scriptedOutput(command: command))]
        case "holiday":
            guard let day = text("date").flatMap({ CivilDate(iso: $0) }) else { break }
            guard let holidays = execution.bankHolidays else {
                return ["error": .string("actions.Ephemeris needs the scenario's bank holidays: the twin has no holiday calendar of its own; list them as "
                            + "\"ephemeris\": {\"bankHolidays\": {\"2026-12-25\": \"Christmas Day\"}}"), "code": .string(JavaScriptError.Code.runtime.rawValue)]
            }
            return ["name": .stringOrNull(holidays[day])]
        case "rule":
            guard let uid = text("uid") else { break }
            guard let enabled = execution.engine.isEnabled(uid) else {
                return ["error": .string("There is no rule with UID \(uid)"), "code": .string(JavaScriptError.Code.runtime.rawValue)]
            }
            return ["enabled": .bool(enabled)]
        default:
            break
        }
        return malformed
    }

    private static let malformed: JSWireValue = ["error": "the twin does not answer this question", "code": .string(JavaScriptError.Code.protocolError.rawValue)]

    /// An HTTP action's answer, as the Rules DSL's: the scenario's scripted body; else, for a URL of the twin's own
    /// (its OpenWeatherMap, its openHAB REST API), the twin's answer and its status; else `body: null`.
    static func http(_ question: JSWireValue, execution: RuleExecution) async -> JSWireValue {
        guard let url = question["url"]?.stringValue, let method = question["method"]?.stringValue else { return malformed }
        if let response = execution.scriptedResponse(url: url, method: method) { return ["body": .string(response.body)] }
        if let response = await execution.twinResponse(method: method, url: url, body: question["body"]?.stringValue ?? "") {
            return ["body": .string(response.body), "status": .integer(Int64(response.status))]
        }
        return ["body": .null]
    }
}
