import Simulation

/// One problem of a `.persist` file: a stable code, where (file, line, column), what is wrong and a hint.
public struct PersistenceFileIssue: CodedError, Equatable {
    /// Stable codes of `.persist` problems.
    public enum Code: String, Sendable, CaseIterable {
        /// Text the `.persist` grammar (openhab-core `Persistence.xtext`) does not allow here.
        case syntax = "persist.syntax"
        /// The bytes are not UTF-8.
        case encoding = "persist.encoding"
        /// A strategy no `Strategies` entry defines and openHAB does not have (`everyChange`, `everyUpdate`,
        /// `restoreOnStartup`, `forecast`).
        case unknownStrategy = "persist.unknownStrategy"
        /// A filter no `Filters` entry defines.
        case unknownFilter = "persist.unknownFilter"
        /// A cron strategy whose expression openHAB's `CronAdjuster` refuses.
        case invalidCron = "persist.invalidCron"
        /// A name defined twice (a strategy, a filter).
        case duplicate = "persist.duplicate"
        /// A file beyond the twin's bounds.
        case tooLarge = "persist.tooLarge"
    }

    public let code: Code
    public let file: String
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
