import Rules

extension ScenarioDecoder {
    /// `responses`: what the rules' `executeCommandLine` and HTTP actions are answered, in order of preference:
    /// `[{"command": "vcgencmd measure_temp", "output": "temp=48.3'C"},
    ///   {"url": "https://api.example.com/*", "method": "GET", "status": 200, "body": "{…}"}]` (`*` any characters).
    static func decodeResponses(_ field: Field) -> [ScriptedResponse]? {
        guard let list = field.array else { return nil }
        var out: [ScriptedResponse] = []
        for entry in list {
            guard let o = entry.object(["command", "output", "url", "method", "status", "body"]) else { continue }
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
}
