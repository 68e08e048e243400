import Foundation
import Simulation
import Testing

@Suite("OrderedJSONEncoder: keys in declaration order, bytes identical run to run")
struct OrderedJSONEncoderTests {
    struct Zebra: Encodable {
        var zulu = 1
        var alpha = "a/b \"c\""
        var mike: Double? = nil
        var yankee = [2.5, -0.0]
        var bravo = ["z": "last", "a": "first", "m": "middle"]
        var nested = Inner()
    }

    struct Inner: Encodable {
        var second = true
        var first = "é\n"
    }

    @Test("keys as declared (not sorted), nil omitted, dictionaries sorted, / not escaped")
    func keyOrder() throws {
        let json = try OrderedJSONEncoder().encodeToString(Zebra())
        #expect(json == #"{"zulu":1,"alpha":"a/b \"c\"","yankee":[2.5,0],"bravo":{"a":"first","m":"middle","z":"last"},"nested":{"second":true,"first":"é\n"}}"#)
    }

    @Test("a non-finite number is json.unencodable")
    func nonFinite() {
        let error = #expect(throws: SimulationError.self) { try OrderedJSONEncoder().encode([Double.nan]) }
        #expect(error?.code == .unencodable)
    }

    @Test("string members keep the given order and escape like JSONString")
    func objectOfStrings() {
        #expect(JSONString.object([("type", "Quantity"), ("value", "21.5 °C"), ("a", "\"q\"")])
                == #"{"type":"Quantity","value":"21.5 °C","a":"\"q\""}"#)
    }
}
