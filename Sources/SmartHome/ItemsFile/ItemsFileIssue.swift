import Simulation

/// One problem of an `.items` file: a stable code, where (file, line, column), what is wrong and a hint.
public struct ItemsFileIssue: CodedError, Equatable {
    /// Stable codes of `.items` problems.
    public enum Code: String, Sendable, CaseIterable {
        /// Text the `.items` grammar (openhab-core `Items.xtext`) does not allow here.
        case syntax = "items.syntax"
        /// The bytes are not UTF-8 (openHAB reads model files as UTF-8).
        case encoding = "items.encoding"
        /// An Item type openHAB does not have (`Swtich`).
        case unknownType = "items.unknownType"
        /// `Number:<Dimension>` with a dimension openHAB does not know.
        case unknownDimension = "items.unknownDimension"
        /// A unit (in `unit` metadata or a state pattern) that is not a unit, or not of the Item's dimension.
        case unknownUnit = "items.unknownUnit"
        /// A Group function openHAB does not have, or with the wrong parameters.
        case unknownFunction = "items.unknownFunction"
        /// Two Items with one name.
        case duplicate = "items.duplicate"
        /// Groups that are members of each other.
        case groupCycle = "items.groupCycle"
        /// `expire` metadata openHAB's ExpireManager would refuse (a bad duration, a state or command the
        /// Item does not take, an unknown key).
        case invalidExpire = "items.invalidExpire"
        /// A name, label or file beyond the twin's bounds (names up to 256 characters, files up to 16 MB).
        case tooLarge = "items.tooLarge"
    }

    public let code: Code
    /// The file as the scenario names it.
    public let file: String
    /// 1-based line and column (columns count characters).
    public let line: Int
    public let column: Int
    /// What is wrong, with the code's meaning in words.
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

    /// `file:line:column: code: message Hint: …`, one line as compilers print.
    public var located: String {
        "\(file):\(line):\(column): \(code.rawValue): \(message)" + (hint.map { " Hint: \($0)" } ?? "")
    }

    /// User text in a message: at most 60 characters, the rest elided (a 5 MB name is not echoed whole).
    static func quoted(_ text: some StringProtocol) -> String {
        let limit = 60
        var out = "\""
        var count = 0
        for ch in text {
            if count == limit { out += "…"; break }
            switch ch {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\0": out += "\\0"
            default: out.append(ch)
            }
            count += 1
        }
        return out + "\""
    }

    /// "did you mean" among `candidates`, only for words short enough for the edit distance to be cheap.
    static func didYouMean(_ word: String, in candidates: [String]) -> String? {
        guard word.utf8.count <= 64 else { return nil }
        return Suggestion.closest(to: word, in: candidates).map { "did you mean \"\($0)\"?" }
    }
}
