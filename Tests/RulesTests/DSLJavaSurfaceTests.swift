import Foundation
import Testing
@testable import Rules

/// Issue 41: every public member of the JDK classes the Rules DSL reaches (the lists in `JavaSurface/`, made by
/// `javap -public` with `make-lists.sh`) is either run by the twin (``DSLLibrary``) or refused with a reason
/// (``DSLJavaSurface/refused``) — so a member nobody decided about fails this test. No JDK is needed to run it.
@Suite("Rules DSL: the Java surface")
struct DSLJavaSurfaceTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("JavaSurface")

    /// The members of `name`'s list.
    static func members(_ name: String) throws -> [String] {
        let text = try String(contentsOf: directory.appendingPathComponent("\(name).txt"), encoding: .utf8)
        return text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    /// Whether the library runs `member` of `javaClass`.
    static func runs(_ member: String, _ javaClass: DSLJavaSurface.JavaClass) -> Bool {
        if member == "new" { return DSLLibrary.constructors[javaClass.staticType] != nil }
        if member.hasPrefix("static ") {
            return DSLLibrary.staticMembers[javaClass.staticType]?.contains(String(member.dropFirst(7))) == true
        }
        guard let rows = DSLLibrary.dispatch[member] else { return false }
        return rows.contains { row in (javaClass.receivers + [.any]).contains { row[$0.rawValue] != nil } }
    }

    @Test func everyListedMemberIsRunOrRefusedWithAReason() throws {
        var undecided: [String] = []
        for name in DSLJavaSurface.classes.keys.sorted() {
            let javaClass = try #require(DSLJavaSurface.classes[name])
            for member in try Self.members(name) where !Self.runs(member, javaClass) && DSLJavaSurface.refused["\(name).\(member)"] == nil {
                undecided.append("\(name).\(member)")
            }
        }
        #expect(undecided.count == 0, "run or refuse (DSLJavaSurface.refused) each of these \(undecided.count): \(undecided.joined(separator: " | "))")
    }

    /// The lists are complete files of the classes the table names, and the table refuses only listed members
    /// (a stale entry would hide nothing, but would claim a member Java does not have).
    @Test func theTableNamesOnlyListedMembersAndNoneItRuns() throws {
        for name in DSLJavaSurface.classes.keys { #expect(try !Self.members(name).isEmpty, "\(name).txt") }
        for key in DSLJavaSurface.refused.keys.sorted() {
            let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
            let javaClass = try #require(DSLJavaSurface.classes[parts[0]], "\(key)")
            #expect(try Self.members(parts[0]).contains(parts[1]), "\(key) is not a public member of \(parts[0])")
            #expect(!Self.runs(parts[1], javaClass), "\(key) is run by the twin; take it out of the refusals")
        }
    }
}
