import Foundation
@testable import ScenarioFormat
@testable import Scenarios
import Simulation
import Testing
import Twin

/// Issue 26: a 5 MB Item name took 28 s to refuse ("did you mean" compared it with every Item) and was
/// echoed whole. It is refused with the name cut, and no suggestion is computed for it.
@Suite("User text echoed in validation messages")
struct UserTextEchoTests {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scenarios/01-winter-weekend.json").path

    @Test func aHugeItemNameIsRefusedWithItsNameCut() throws {
        let huge = String(repeating: "flat-1/plug/switch", count: 300_000)  // 5.4 MB
        let text = try String(contentsOfFile: Self.example, encoding: .utf8)
            .replacingOccurrences(of: #""command": { "item": "flat-1/plug/switch""#, with: #""command": { "item": "\#(huge)""#)
        #expect(text.utf8.count > 5_000_000)
        do {
            _ = try ScenarioDecoder.decode(text, file: "huge.json")
            Issue.record("accepted")
        } catch {
            #expect(error.code == .invalid)
            let printed = error.issues.map(\.description).joined(separator: "\n")
            #expect(printed.utf8.count < 2_000, "\(printed.prefix(300))")
            #expect(printed.contains("no Item \"flat-1/plug/switchflat-1/plug/switch"), "\(printed.prefix(300))")
            #expect(printed.contains("(5400000 bytes in all)"), "\(printed.prefix(300))")
        }
    }

    @Test func aHugeUnknownKeyIsCutInThePathAndTheMessage() throws {
        let key = String(repeating: "k", count: 1_000_000)
        let text = try String(contentsOfFile: Self.example, encoding: .utf8)
            .replacingOccurrences(of: #""seed": 42,"#, with: #""seed": 42, "\#(key)": 1,"#)
        do {
            _ = try ScenarioDecoder.decode(text, file: "key.json")
            Issue.record("accepted")
        } catch {
            let printed = error.issues.map(\.description).joined(separator: "\n")
            #expect(printed.utf8.count < 2_000 && printed.contains("unknown key \"kkk"), "\(printed.prefix(300))")
        }
    }
}
