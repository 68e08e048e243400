import Foundation
import ScenarioFormat
import Simulation

/// Token-level mutations of the JavaScript inside a UI-rule JSON file (what Main UI and Blockly save): one
/// `"script"` string of a file that holds JavaScript modules is decoded, mutated token by token as a `.js`
/// file is (``RuleTokens``, with JavaScript and openhab-js words), and written back as a JSON string; the rest
/// of the file stays as it was, so the input reaches the script module's compile and run paths. A file without
/// JavaScript is mutated as UI rules are (``JSONFileMutation``).
enum UIScriptMutation {
    /// A `"script": "…"` member (the JSON string's body in group 1).
    private static let scriptMember = try? NSRegularExpression(pattern: #""script"\s*:\s*"((?:[^"\\]|\\.)*)""#)
    /// The media types that mark a file as holding JavaScript modules.
    private static let javaScriptTypes = ["\"application/javascript", "\"application/ecmascript", "\"text/javascript", "\"js\""]

    /// The `script` strings of the files with JavaScript, decoded.
    static func scripts(_ text: String) -> [(range: NSRange, source: String)] {
        guard javaScriptTypes.contains(where: text.contains), let re = scriptMember else { return [] }
        let ns = text as NSString
        return re.matches(in: text, range: NSRange(location: 0, length: ns.length)).compactMap { m in
            let literal = "\"" + ns.substring(with: m.range(at: 1)) + "\""
            guard let source = (try? JSONParser.parse(literal))?.stringValue else { return nil }
            return (m.range(at: 1), source)
        }
    }

    /// JavaScript words and the tokens of every seed file's scripts.
    static func dictionary(_ texts: [String]) -> [String] {
        RuleTokens.dictionary(texts.flatMap { scripts($0).map(\.source) }, keywords: RuleTokens.javaScriptKeywords)
    }

    static func mutate(_ random: inout FuzzRandom, _ text: String, _ dictionary: [String]) -> String {
        let found = scripts(text)
        guard let (range, source) = random.element(found) else { return JSONFileMutation.mutate(&random, text, []) }
        let mutated = RuleTokens.mutate(&random, source, dictionary)
        let literal = JSONString.quoted(mutated)
        return (text as NSString).replacingCharacters(in: range, with: String(literal.dropFirst().dropLast()))
    }
}
