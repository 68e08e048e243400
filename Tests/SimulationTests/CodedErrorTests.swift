import Simulation
import Testing

@Suite("CodedError: one description for every module's error")
struct CodedErrorTests {
    struct Sample: CodedError {
        enum Code: String, Sendable { case broken = "sample.broken" }
        var code: Code = .broken
        var message = "The sample is broken."
        var hint: String?
        var details: [String] = []
    }

    @Test("description is code: message; the hint follows the message; details are lines")
    func texts() {
        #expect(Sample().description == "sample.broken: The sample is broken.")
        #expect(Sample().errorDescription == "The sample is broken.")
        let full = Sample(hint: "Fix it.", details: ["  a", "  b"])
        #expect(full.explanation == "The sample is broken. Fix it.\n  a\n  b")
        #expect(full.description == "sample.broken: The sample is broken. Fix it.\n  a\n  b")
    }

    @Test("a caller catches any module's error as one type")
    func catchOne() {
        do {
            throw SimulationError(.invalidDuration, "\"PT\" is not a duration.")
        } catch let error as any CodedError {
            #expect(error.codeName == "duration.invalid")
            #expect(error.message == "\"PT\" is not a duration.")
        } catch {
            Issue.record("not a CodedError: \(error)")
        }
    }
}

/// Issue 26: user text in messages is cut, and "did you mean" does bounded work.
@Suite("User text in messages")
struct UserTextTests {
    @Test func longTextIsCutAndShortTextKept() {
        #expect(UserText.quoted("flat-1") == "\"flat-1\"")
        let long = String(repeating: "x", count: 5_000_000)
        let shown = UserText.quoted(long)
        #expect(shown == "\"" + String(repeating: "x", count: UserText.maxShown) + "… (5000000 bytes in all)\"")
        #expect(UserText.shown("ab🏠cd", limit: 3) == "ab🏠… (8 bytes in all)")
    }

    @Test func aHugeWordGetsNoSuggestionAndTypicalTyposStillDo() {
        let items = (0..<2_000).map { "flat-\($0)/heating/switch" }
        #expect(Suggestion.closest(to: "flat-12/heating/swich", in: items) == "flat-12/heating/switch")
        #expect(Suggestion.closest(to: String(repeating: "flat-1/heating/switch", count: 250_000), in: items) == nil)
        // A word within the cap but far longer than every candidate is not compared with them.
        #expect(Suggestion.closest(to: String(repeating: "a", count: 200), in: items) == nil)
        #expect(Suggestion.closest(to: "uaWPerk", in: ["uaWPerK", "capacitanceKWhPerK"]) == "uaWPerK")
    }
}
