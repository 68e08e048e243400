@testable import ScenarioFormat
@testable import Scenarios
import Testing
import Twin

@Suite("The located JSON parser")
struct JSONParserTests {
    @Test func valuesAndPositions() throws {
        let node = try JSONParser.parse("{\n  \"a\": [1, -2.5e1, true, null],\n  \"b\": \"x\\u00e9\\n\\\"\"\n}")
        guard case .object(let members) = node.value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["a", "b"])
        #expect(members[0].keyLine == 2 && members[1].keyLine == 3)
        #expect(members[1].value.value == .string("xé\n\""))
        guard case .array(let elements) = members[0].value.value else { Issue.record("not an array"); return }
        #expect(elements[1].value == .number(-25, text: "-2.5e1"))
        #expect(elements[1].line == 2 && elements[1].column == 12)
        #expect(elements[2].value == .bool(true) && elements[3].value == .null)
    }

    @Test func surrogatePairs() throws {
        #expect(try JSONParser.parse("\"\\ud83d\\ude00\"").value == .string("😀"))
    }

    @Test("syntax errors say what was expected and where", arguments: [
        ("{\"a\": 1,}", 1, "expected a quoted key"),
        ("{\"a\": 01}", 1, "leading zeros"),
        ("[1 2]", 1, "expected ',' or ']'"),
        ("{\"a\": 1, \"a\": 2}", 1, "appears twice"),
        ("{\n\"a\": \"open\n}", 2, "not closed before the end of the line"),
        ("", 1, "the file ended"),
        ("{} x", 1, "expected the end of the file"),
        ("{\"a\": tru}", 1, "expected true"),
    ])
    func errors(text: String, line: Int, message: String) {
        do {
            _ = try JSONParser.parse(text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.line == line)
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test func pathLookup() throws {
        let node = try JSONParser.parse("{\"l\": [{\"d\": [0, {\"t\": 5}]}]}")
        #expect(node.node(at: "l[0].d[1].t")?.value == .number(5, text: "5"))
        #expect(node.node(at: "l[1]") == nil)
    }
}
