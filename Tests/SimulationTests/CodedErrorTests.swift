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
