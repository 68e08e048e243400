import Simulation

/// One problem of a `.things` file: a stable code, where (file, line, column), what is wrong and a hint.
public struct ThingsFileIssue: CodedError, Equatable {
    /// Stable codes of `.things` problems.
    public enum Code: String, Sendable, CaseIterable {
        /// Text the `.things` grammar (openhab-core `Thing.xtext`) does not allow here.
        case syntax = "things.syntax"
        /// The bytes are not UTF-8 (openHAB reads model files as UTF-8).
        case encoding = "things.encoding"
        /// A Thing UID openHAB would not build (too few segments, a short `type id` form outside a Bridge).
        case invalidUID = "things.invalidUID"
        /// A configuration value openHAB's value converter refuses (an unquoted word that is no number or boolean).
        case invalidValue = "things.invalidValue"
        /// A Thing UID declared twice, or a channel id twice in one Thing.
        case duplicate = "things.duplicate"
        /// A file or a nesting beyond the twin's bounds.
        case tooLarge = "things.tooLarge"
    }

    public let code: Code
    /// The file as the scenario names it.
    public let file: String
    /// 1-based line and column (columns count characters).
    public let line: Int
    public let column: Int
    public let message: String
    public let hint: String?

    public init(_ code: Code, file: String, line: Int, column: Int, _ message: String, hint: String? = nil) {
        self.code = code
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.hint = hint
    }

    /// `file:line:column: code: message Hint: …`.
    public var located: String {
        "\(file):\(line):\(column): \(code.rawValue): \(message)" + (hint.map { " Hint: \($0)" } ?? "")
    }
}
