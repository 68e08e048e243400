import Testing
@testable import Rules

/// The lexer's lines (what a rule's body is shown from): the same pieces as a split at LF, and none for a
/// cancelled task, so a large file's parse hears Ctrl-C in that pass too.
@Suite("DSLLexer lines")
struct DSLLexerLinesTests {
    @Test func linesAreTheTextSplitAtLineEnds() {
        let text = "rule \"é\"\r\nwhen\rSystem started\n\nthen e\u{301}\n  logInfo(\"x\", \"🌡\")\nend"
        let lexer = DSLLexer(text, file: "a.rules")
        #expect(lexer.lines == ["rule \"é\"", "when", "System started", "", "then e\u{301}", "  logInfo(\"x\", \"🌡\")", "end"])
        #expect(DSLLexer("", file: "a.rules").lines == [""])
        #expect(DSLLexer("a\n", file: "a.rules").lines == ["a", ""])
    }

    @Test func aCancelledTaskGetsNoLines() async {
        let lexer = DSLLexer(String(repeating: "val x = 1\n", count: 20_000), file: "big.rules")
        let cancelled = Task { () -> Int in
            withUnsafeCurrentTask { $0?.cancel() }
            return lexer.lines.count
        }
        #expect(await cancelled.value == 0)
        #expect(lexer.lines.count == 20_001)
    }
}
