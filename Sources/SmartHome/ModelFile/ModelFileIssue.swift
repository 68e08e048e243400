import Simulation

/// One problem of an openHAB model file (`.items`, `.things`, `.persist`): a stable code (``ItemsFileCode``,
/// ``ThingsFileCode``, ``PersistenceFileCode``), where (file, line, column), what is wrong and a hint.
public struct ModelFileIssue<Code: RawRepresentable & Hashable & Sendable>: CodedError, Equatable where Code.RawValue == String {
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
}

extension ModelFileIssue {
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
