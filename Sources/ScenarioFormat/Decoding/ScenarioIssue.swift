import Simulation

/// One problem in a scenario file: where (file, JSON path, line), what was expected, and a hint.
public struct ScenarioIssue: Sendable, Equatable, CustomStringConvertible {
    /// The file as given by the user.
    public let file: String
    /// The JSON path, e.g. `timeline[3].book.checkIn` (empty for the whole file).
    public let path: String
    /// 1-based line, when known.
    public let line: Int?
    /// What is wrong and what was expected.
    public let message: String
    /// How to fix it (e.g. "did you mean `uaWPerK`?"), when there is something useful to say.
    public let hint: String?

    public init(file: String, path: String, line: Int?, message: String, hint: String? = nil) {
        self.file = file
        self.path = path
        self.line = line
        self.message = message
        self.hint = hint
    }

    /// `file:line: path: message (hint: …)` — one line, the way compilers print errors.
    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if !path.isEmpty { text += "\(UserText.shown(path, limit: 2 * UserText.maxShown)): " }
        text += message
        if let hint { text += " Hint: \(hint)" }
        return TerminalText.escaped(text)
    }
}
