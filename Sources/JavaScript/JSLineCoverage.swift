/// The line coverage of the script files (`--coverage`): two requests of their own beside the protocol's others,
/// `coverageStart` before the first file loads and `coverage` at the run's end (`host.js`, "line coverage").
///
/// The child counts with V8's precise block coverage: each line that holds a statement or a call, how often the
/// innermost block or function around it ran. Its answer is `{"ok":true,"effects":[],"coverage":[[path, [[line,
/// count], …]], …]}`, one entry per file loaded, its path as ``JSScriptFile/path`` names it.
extension JSHostConnection {
    /// Turns the child's counting on (before any file loads, so top-level code counts too).
    /// - Throws: ``JavaScriptError`` when the child fails or answers with an error.
    func startLineCoverage() throws(JavaScriptError) {
        if let error = try request(["op": "coverageStart"]).error { throw error }
    }

    /// Per file loaded (its path as loaded), each statement line (1-based) and how often it ran since
    /// ``startLineCoverage()``: the totals, whenever asked.
    /// - Throws: ``JavaScriptError`` `rules.jsChild` for an answer of another shape, or the child's error.
    func lineCoverage() throws(JavaScriptError) -> [(path: String, lines: [Int: Int])] {
        let request: JSWireValue = ["op": "coverage"]
        let bytes = try child.exchange(request.encoded, budgetSeconds: budgetSeconds)
        let root: JSWireValue
        do { root = try JSWireValue.parse(bytes) } catch { throw JSReply.malformed(bytes, error) }
        if let error = try JSReply.parse(bytes).error { throw error }
        func malformed() -> JavaScriptError {
            JavaScriptError(.child, "the Node.js child answered the coverage request with a malformed message: \"\(JSReply.shown(bytes))\".")
        }
        guard let files = root["coverage"]?.arrayValue else { throw malformed() }
        var result: [(path: String, lines: [Int: Int])] = []
        for file in files {
            guard let entry = file.arrayValue, entry.count == 2, let path = entry[0].stringValue, let pairs = entry[1].arrayValue else { throw malformed() }
            var lines: [Int: Int] = [:]
            for pair in pairs {
                guard let p = pair.arrayValue, p.count == 2, let line = p[0].int64Value.flatMap({ Int(exactly: $0) }),
                      let count = p[1].int64Value.flatMap({ Int(exactly: $0) }), line > 0, count >= 0 else { throw malformed() }
                lines[line] = count
            }
            result.append((path, lines))
        }
        return result
    }
}
