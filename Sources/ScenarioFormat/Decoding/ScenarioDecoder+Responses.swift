import Rules

extension ScenarioDecoder {
    /// `responses`: what the rules' `executeCommandLine`, HTTP and Thing actions are answered, in order of preference:
    /// `[{"command": "vcgencmd measure_temp", "output": "temp=48.3'C"},
    ///   {"url": "https://api.example.com/*", "method": "GET", "status": 200, "body": "{…}"},
    ///   {"scope": "mqtt", "method": "publishMQTT", "thing": "mqtt:broker:*", "result": true}]` (`*` any characters).
    static func decodeResponses(_ field: Field) -> [ScriptedResponse]? {
        guard let list = field.array else { return nil }
        var out: [ScriptedResponse] = []
        for entry in list {
            guard let o = entry.object(["command", "output", "url", "method", "status", "body", "scope", "thing", "result"]) else { continue }
            if o.keys.contains("scope") {
                if let action = decodeActionResponse(o) { out.append(action) }
                continue
            }
            for key in ["thing", "result"] where o.keys.contains(key) {
                o.value(key)?.problem("belongs to a Thing action response, which has \"scope\" and \"method\".",
                                      hint: "write {\"scope\": \"mqtt\", \"method\": \"publishMQTT\", \"result\": …}.")
            }
            let isCommand = o.keys.contains("command"), isURL = o.keys.contains("url")
            guard isCommand != isURL else {
                entry.problem(isCommand ? "gives both \"command\" and \"url\"; give one." : "needs \"command\" (a command line) or \"url\" (a URL pattern).",
                              hint: "write {\"command\": \"…\", \"output\": \"…\"} or {\"url\": \"https://…/*\", \"status\": 200, \"body\": \"…\"}.")
                continue
            }
            if isCommand {
                for key in ["url", "method", "status", "body"] where o.keys.contains(key) {
                    o.value(key)?.problem("does not belong to a command response; it has \"command\" and \"output\".")
                }
                guard let command = o.required("command")?.string, let output = o.required("output")?.string else { continue }
                out.append(ScriptedResponse(.command(command), output: output))
            } else {
                if o.keys.contains("output") { o.value("output")?.problem("does not belong to a URL response; write \"body\".") }
                guard let url = o.required("url")?.string else { continue }
                var method: String?
                if let f = o.optional("method"), let m = f.string {
                    let methods = ["GET", "POST", "PUT", "DELETE"]
                    if methods.contains(m) { method = m } else {
                        f.problem("\"\(m)\" is not a method the HTTP actions send.", hint: "use \(methods.joined(separator: ", ")).")
                    }
                }
                var status = 200
                if let f = o.optional("status"), let n = f.integer {
                    if (100...599).contains(n) { status = n } else { f.problem("must be an HTTP status, 100 to 599.") }
                }
                out.append(ScriptedResponse(.url(url, method: method), output: o.optional("body")?.string ?? "", status: status))
            }
        }
        return out
    }

    /// `{"scope": "mqtt", "method": "publishMQTT", "thing": "mqtt:broker:*", "result": true}`: what a Thing action
    /// of `getActions(scope, thing)` returns (`*` any characters; without `result`: null, openHAB's "no result").
    private static func decodeActionResponse(_ o: ObjectReader) -> ScriptedResponse? {
        for key in ["command", "output", "url", "status", "body"] where o.keys.contains(key) {
            o.value(key)?.problem("does not belong to a Thing action response; it has \"scope\", \"method\", \"thing\" and \"result\".")
        }
        guard let scope = o.required("scope")?.string, let method = o.required("method")?.string else { return nil }
        var thing: String?
        if let f = o.optional("thing") { thing = f.string }
        var result = ScriptedResult.null
        if let f = o.optional("result") {
            switch f.node.value {
            case .string(let s): result = .text(s)
            case .number(let n, _): result = .number(n)
            case .bool(let b): result = .boolean(b)
            case .null: result = .null
            case .array, .object:
                f.problem("must be a text, a number or true/false (leave it out for null).")
                return nil
            }
        }
        return ScriptedResponse(.action(scope: scope, method: method, thing: thing), output: "", result: result)
    }
}
