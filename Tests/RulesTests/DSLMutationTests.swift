import Foundation
import Testing
@testable import Rules

/// Token-level mutations of the example rule files (issue 26/28): every mutant either compiles or gives
/// located problems with a code — never a crash, never a rule lost without a problem.
@Suite("Rules DSL mutations")
struct DSLMutationTests {
    static let corpus: [(String, String)] = {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scenarios/rules")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".rules") }.sorted().compactMap { name in
            (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)).map { (name, $0) }
        }
    }()

    static let pieces = ["(", ")", "[", "]", "{", "}", "|", "[|", "::", "?.", "?:", "=", "==", "+", "++", "-", "*", "/", "%", ",", ";", ".",
                         "\"", "'", "end", "rule", "when", "then", "if", "else", "switch", "case", "default", ":", "for", "while", "do", "try",
                         "catch", "finally", "throw", "new", "val", "var", "return", "null", "1e308", "9223372036854775808", "0x", "#[", "#{",
                         "->", "..", "instanceof", "as", "Thread::sleep(1)", "\r", "\r\n", "\t", "\u{FEFF}", "//", "/*", "*/", "it", "Item", "Time"]

    @Test func mutantsCompileOrGiveLocatedProblems() {
        #expect(Self.corpus.count >= 15)
        var seed = UInt64(0x5eed)
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(max(bound, 1)))
        }
        var compiled = 0, refused = 0
        for round in 0..<1_500 {
            let (name, text) = Self.corpus[round % Self.corpus.count]
            var words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            for _ in 0..<(1 + next(3)) {
                let k = next(words.count)
                switch next(4) {
                case 0: words.remove(at: k)
                case 1: words.insert(Self.pieces[next(Self.pieces.count)], at: k)
                case 2: words[k] += Self.pieces[next(Self.pieces.count)]
                default: if k + 1 < words.count { words.swapAt(k, k + 1) }
                }
                if words.isEmpty { words = [""] }
            }
            let mutant = words.joined(separator: " ")
            let (rules, problems, _) = DSLCompiler.compileAll(mutant, file: "rules/\(name)")
            if problems.isEmpty {
                compiled += 1
            } else {
                refused += 1
                for p in problems {
                    #expect(p.message.hasPrefix("rules/\(name):"), "\(p.message)")
                    #expect(p.message.contains("(rules.") || p.code.rawValue.hasPrefix("rules.cron") || p.code == .timeOfDayInvalid, "\(p.message)")
                }
            }
            _ = rules
        }
        #expect(compiled > 0 && refused > 0)
    }
}
