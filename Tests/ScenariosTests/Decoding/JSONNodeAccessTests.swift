import Foundation
import ScenarioFormat
import Testing

@Suite("JSON nodes read as plain values, built and written")
struct JSONNodeAccessTests {
    @Test func readingMembersAndKinds() throws {
        let node = try JSONParser.parse(bytes: Array(#"{"s": "x", "i": 5, "f": 5.0, "h": 2.5, "big": 1e300, "b": false, "n": null, "a": ["p", 1]}"#.utf8))
        #expect(node["s"]?.stringValue == "x" && node["i"]?.stringValue == nil)
        #expect(node["i"]?.intValue == 5 && node["f"]?.intValue == 5)
        #expect(node["h"]?.intValue == nil && node["big"]?.intValue == nil && node["s"]?.intValue == nil)
        #expect(node["b"]?.boolValue == false && node["i"]?.boolValue == nil)
        #expect(node["n"]?.isNull == true && node["missing"] == nil && node["s"]?["x"] == nil)
        #expect(node["a"]?.elements?.compactMap(\.stringValue) == ["p"])
        #expect(node.members?.map(\.key) == ["s", "i", "f", "h", "big", "b", "n", "a"] && node["a"]?.members == nil)
    }

    @Test func writtenTextReadsBackAsTheSameValues() throws {
        let built = JSONNode.object([
            ("zeta", .array([.int(-3), .bool(true), JSONNode(.null), .array([]), .object([])])),
            ("alpha", .string("quote \" slash / tab \t é \u{01}")),
        ])
        #expect(built.text() == #"{"zeta":[-3,true,null,[],{}],"alpha":"quote \" slash / tab \t é \u0001"}"#)
        let pretty = built.text(pretty: true, sortingKeys: true)
        #expect(pretty.hasPrefix("{\n  \"alpha\": \"quote"))
        #expect(pretty.hasSuffix("  \"zeta\": [\n    -3,\n    true,\n    null,\n    [],\n    {}\n  ]\n}"))
        // Foundation's reader, independent of ours, reads both texts as the same document.
        for text in [built.text(), pretty] {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(object["alpha"] as? String == "quote \" slash / tab \t é \u{01}")
            #expect((object["zeta"] as? [Any])?.count == 5)
        }
        #expect(try JSONParser.parse(pretty).text() == JSONNode.object([built.members![1], built.members![0]].map { ($0.key, $0.value) }).text())
    }
}
