import Foundation
import Rules
import Simulation

/// The twin's answers to a script's questions about actions in the middle of a run, from the same sources the
/// Rules DSL's actions use: a Thing action's scripted result (`responses`), a transformation
/// (``ScriptTransformation``), an HTTP or Exec action's scripted answer, a bank holiday, a rule's enablement.
enum JSActionAnswer {
    /// The questions this answers (`q`).
    static let questions: Set<String> = ["action", "transform", "http", "exec", "holiday", "rule"]

    /// The answer to `question` for the run `execution`: the fields the runtime reads, with JSON nulls, or
    /// `{error, code}`.
    static func answer(_ question: [String: Any], execution: RuleExecution) -> [String: Any] {
        let text = { (key: String) in question[key] as? String }
        switch text("q") {
        case "action":
            guard let scope = text("scope"), let method = text("method"), let thing = text("thing") else { break }
            switch execution.scriptedResult(scope: scope, method: method, thing: thing) {
            case .text(let s)?: return ["result": s]
            case .number(let n)?: return ["result": n]
            case .boolean(let b)?: return ["result": b]
            case .null?, nil: return ["result": NSNull()]
            }
        case "transform":
            guard let type = text("type"), let function = text("function"), let value = text("value") else { break }
            let name = question["raw"] as? Bool == true ? "actions.Transformation.transformRaw" : "actions.Transformation.transform"
            switch ScriptTransformation.apply(type: type, function: function, value: value, execution: execution, name: name) {
            case .value(let result): return ["value": result ?? NSNull()]
            case .failure(let message): return ["failed": message]
            case .refused(let message): return ["error": message, "code": JavaScriptError.Code.unsupported.rawValue]
            }
        case "http":
            guard let url = text("url"), let method = text("method") else { break }
            return ["body": execution.scriptedResponse(url: url, method: method)?.body ?? NSNull()]
        case "exec":
            guard let command = text("command") else { break }
            return ["output": execution.scriptedOutput(command: command) ?? NSNull()]
        case "holiday":
            guard let day = text("date").flatMap({ CivilDate(iso: $0) }) else { break }
            guard let holidays = execution.bankHolidays else {
                return ["error": "actions.Ephemeris needs the scenario's bank holidays: the twin has no holiday calendar of its own; list them as "
                            + "\"ephemeris\": {\"bankHolidays\": {\"2026-12-25\": \"Christmas Day\"}}", "code": JavaScriptError.Code.runtime.rawValue]
            }
            return ["name": holidays[day] ?? NSNull()]
        case "rule":
            guard let uid = text("uid") else { break }
            guard let enabled = execution.engine.isEnabled(uid) else {
                return ["error": "There is no rule with UID \(uid)", "code": JavaScriptError.Code.runtime.rawValue]
            }
            return ["enabled": enabled]
        default:
            break
        }
        return ["error": "the twin does not answer this question", "code": JavaScriptError.Code.protocolError.rawValue]
    }
}
