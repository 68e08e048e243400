import Testing
@testable import Rules

/// MAP and SCALE files read as `java.util.Properties.load` reads them and answered as openhab-addons'
/// `MapTransformationService` and `ScaleTransformationService` answer; JSONPATH as
/// `JSonPathTransformationService` on Jayway JsonPath.
@Suite struct TransformFileTests {
    private func file(_ text: String, _ name: String) throws -> TransformFile {
        let parsed = TransformFile.parse(text, name: name)
        #expect(parsed.issues.isEmpty, "\(parsed.issues)")
        return try #require(parsed.file)
    }

    // MARK: java.util.Properties

    @Test func propertiesAreReadAsJavaReadsThem() {
        let text = "# comment\n! also a comment\n   \nkey1=value1\nkey2 = value with  spaces  \nkey3:colon\nkey4 blank separated\n"
            + "a\\=b=escaped equals\ncont=first \\\n    second\nunicode=\\u00B0C\ntab=a\\tb\n=the default\nempty\nwin=crlf\r\nmac=cr\rlast=x"
        let pairs = TransformFile.properties(text).map { "\($0.key)|\($0.value)" }
        #expect(pairs == ["key1|value1", "key2|value with  spaces  ", "key3|colon", "key4|blank separated", "a=b|escaped equals",
                          "cont|first second", "unicode|°C", "tab|a\tb", "|the default", "empty|", "win|crlf", "mac|cr", "last|x"])
        let lines = TransformFile.properties(text).map(\.line)
        #expect(lines == [4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17])
    }

    @Test func aMalformedUnicodeEscapeIsALocatedError() {
        let parsed = TransformFile.parse("ON=an\nOFF=\\u00Zaus\n", name: "de.map")
        #expect(parsed.file == nil)
        #expect(parsed.issues.map(\.code) == [.badEscape])
        #expect(parsed.issues.first?.line == 2)
    }

    // MARK: MAP

    @Test func mapAnswersTheEntryThenTheDefaultThenFails() throws {
        let map = try file("CLOSED=zu\nOPEN=offen\n=unbekannt\n", "de.map")
        #expect(map.transform("OPEN") == .value("offen"))
        #expect(map.transform("CLOSED") == .value("zu"))
        #expect(map.transform("AJAR") == .value("unbekannt"))
        let source = try file("1=one\n=_source_\n", "n.map")
        #expect(source.transform("1") == .value("one"))
        #expect(source.transform("7") == .value("7"))
        let strict = try file("ON=an\nOFF=aus\n", "s.map")
        #expect(strict.transform("NULL") == .failure("Target value not found in map for 'NULL'"))
        // A key given twice keeps its last value, as Properties.
        #expect(try file("A=1\nA=2\n", "d.map").transform("A") == .value("2"))
    }

    // MARK: SCALE

    @Test func scaleTakesTheFirstRangeInFileOrderWithItsBounds() throws {
        let scale = try file("""
            [..0[=freezing
            [0..15]=cold
            ]15..25[=mild
            [25..]=hot
            NaN=unknown
            """, "temp.scale")
        #expect(scale.transform("-3") == .value("freezing"))
        #expect(scale.transform("0") == .value("cold"))
        #expect(scale.transform("15") == .value("cold"))
        #expect(scale.transform("15.01") == .value("mild"))
        #expect(scale.transform("25") == .value("hot"))
        #expect(scale.transform("1e3") == .value("hot"))
        // A quantity is scaled by its number; text that is neither answers the NaN entry.
        #expect(scale.transform("21.5 °C") == .value("mild"))
        #expect(scale.transform("UNDEF") == .value("unknown"))
        #expect(scale.transform(" 5") == .value("unknown"))  // new BigDecimal(" 5") throws: not a number
    }

    @Test func scaleFormatsAndFailsAsOpenHAB() throws {
        let scale = try file("[0..50[=low\n[50..100]=high\nformat=%label% (%value%)\n", "pct.scale")
        #expect(scale.transform("42") == .value("low (42)"))
        #expect(scale.transform("150") == .failure("No matching range for '150'"))
        #expect(scale.transform("abc") == .failure("Scale must be used with numeric inputs, valid quantity types or a 'NaN' entry."))
        // Overlapping ranges: the first written wins.
        let overlap = try file("[0..100]=first\n[10..20]=second\n", "o.scale")
        #expect(overlap.transform("15") == .value("first"))
    }

    @Test func badScaleEntriesAreLocatedErrors() {
        let parsed = TransformFile.parse("[0..10]=ok\n[a..5]=bad number\nlow=not a range\n[1...2]=ok too\n", name: "bad.scale")
        #expect(parsed.file == nil)
        #expect(parsed.issues.map(\.code) == [.badNumber, .badEntry])
        #expect(parsed.issues.map(\.line) == [2, 3])
        // `[1...2]`: the greedy first group is "1." (new BigDecimal("1.") is 1), the second "2".
        let fine = TransformFile.parse("[1...2]=x\n", name: "f.scale")
        #expect(fine.issues.isEmpty)
        #expect(fine.file?.transform("1.5") == .value("x"))
    }

    // MARK: JSONPATH

    private func json(_ path: String, _ source: String) throws -> TransformFile.Outcome {
        try JSONPathTransform.transform(path, source)
    }

    @Test func jsonPathAnswersAsJaywayAndTheService() throws {
        let doc = #"{"main": {"temp": 21.50, "humidity": 80, "big": 1e10, "tiny": 0.00001}, "weather": [{"id": 800, "main": "Clear"}, {"id": 701, "main": "Mist"}], "name": "Budapest", "ok": true, "none": null, "list": [1, 2.5], "one": ["solo"], "empty": [], "a b": {"c": "d"}}"#
        #expect(try json("$.main.temp", doc) == .value("21.5"))
        #expect(try json("$.main.humidity", doc) == .value("80"))
        #expect(try json("$.main.big", doc) == .value("1.0E10"))
        #expect(try json("$.main.tiny", doc) == .value("1.0E-5"))
        #expect(try json("$.weather[0].main", doc) == .value("Clear"))
        #expect(try json("$.weather[-1].id", doc) == .value("701"))
        #expect(try json("$['name']", doc) == .value("Budapest"))
        #expect(try json(#"$["a b"].c"#, doc) == .value("d"))
        #expect(try json("name", doc) == .value("Budapest"))  // Jayway reads a path without $ as $.path
        #expect(try json("$.ok", doc) == .value("true"))
        #expect(try json("$.none", doc) == .value(nil))
        #expect(try json("$.weather[0]", doc) == .value(#"{"id":800,"main":"Clear"}"#))
        // Lists: one element is itself, numbers and strings are listed, nothing is NULL.
        #expect(try json("$.list", doc) == .value("[1, 2.5]"))
        #expect(try json("$.one", doc) == .value("solo"))
        #expect(try json("$.empty", doc) == .value("NULL"))
        #expect(try json("$.weather[*].main", doc) == .value(#"["Clear", "Mist"]"#))
        #expect(try json("$..id", doc) == .value("[800, 701]"))
        #expect(try json("$..nothing", doc) == .value("NULL"))
        // A definite path that is missing, and text that is not JSON, fail (transform then gives the value back).
        #expect(try json("$.main.pressure", doc) == .failure("Invalid path '$.main.pressure' in '\(doc)'"))
        #expect(try json("$.weather[5].id", doc) == .failure("Invalid path '$.weather[5].id' in '\(doc)'"))
        #expect(try json("$.a", "not json") == .failure("An error occurred while transforming JSON expression."))
    }

    @Test func jsonPathFiltersAndSlicesAreRefusedNotGuessed() {
        for path in ["$.weather[?(@.id > 700)].main", "$.list[0:1]", "$['a','b']", "$.a["] {
            #expect(throws: JSONPathTransform.Unsupported.self) { try JSONPathTransform.transform(path, "{}") }
        }
    }
}
