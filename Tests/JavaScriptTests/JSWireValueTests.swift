import Foundation
@testable import JavaScript
import Simulation
import Testing

extension JavaScriptSuite {
    /// The protocol's codec: what the twin writes reads back the same, what Node writes reads as Node meant it,
    /// and whatever a broken or hostile child writes ends as a located `rules.jsChild` error, never a crash.
    @Suite struct JSWireValueTests {
        @Test func whatTheTwinWritesReadsBackTheSame() throws {
            let value: JSWireValue = ["op": "run", "rule": "Sum-bench-1", "now": .integer(1_767_913_260_000), "neg": .integer(-42),
                                      "zero": 0, "pi": .number(3.25), "small": .number(1.5e-7), "ok": true, "no": false, "nothing": nil,
                                      "text": .string("quote \" backslash \\ newline \n tab \t bell \u{07} del \u{7F} ° € 𝄞"),
                                      "list": [1, "two", [], [:], ["deep": [[["x"]]]]]]
            let bytes = value.encoded
            let back = try JSWireValue.parse(bytes)
            #expect(back.encoded == bytes)
            #expect(back["text"]?.stringValue == "quote \" backslash \\ newline \n tab \t bell \u{07} del \u{7F} ° € 𝄞")
            #expect(back["now"]?.int64Value == 1_767_913_260_000)
            #expect(back["pi"]?.doubleValue == 3.25)
            #expect(back["nothing"]?.isNull == true)
            #expect(String(decoding: bytes, as: UTF8.self).hasPrefix(#"{"op":"run","rule":"Sum-bench-1","now":1767913260000,"neg":-42,"zero":0,"#))
            // Foundation reads it as the same JSON.
            let foundation = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            #expect(foundation["text"] as? String == back["text"]?.stringValue)
            #expect((foundation["small"] as? NSNumber)?.doubleValue == 1.5e-7)
        }

        @Test func everyControlCharacterIsEscapedAsTheStringWriterDoes() throws {
            let text = String(String.UnicodeScalarView((0..<0x80).compactMap(Unicode.Scalar.init))) + " é € 𝄞"
            var bytes: [UInt8] = []
            JSWireValue.writeString(text, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == JSONString.quoted(text))
            #expect(try JSWireValue.parse(bytes).stringValue == text)
        }

        /// What Node's `JSON.stringify` writes, escapes and surrogates included.
        @Test(arguments: [
            (#""plain""#, "plain"),
            (#""\u00e9t\u00E9 \/ \b\f\n\r\t""#, "été / \u{08}\u{0C}\n\r\t"),
            (#""\ud834\udd1e""#, "𝄞"),
            (#""lone \ud800 surrogate""#, "lone \u{FFFD} surrogate"),
            (#""high then escape \ud800\u0041""#, "high then escape \u{FFFD}A"),
        ])
        func nodeStrings(json: String, text: String) throws {
            #expect(try JSWireValue.parse(Array(json.utf8)).stringValue == text)
        }

        @Test(arguments: [("0", "0"), ("-0", "0"), ("12", "12"), ("-7", "-7"), ("1.5", "1.5"), ("1e3", "1000.0"), ("2.5E-3", "0.0025"),
                          ("123456789012345678", "123456789012345678"), ("12345678901234567890", "1.2345678901234567e+19"),
                          ("1767913260000.0", "1767913260000.0")])
        func numbers(json: String, written: String) throws {
            #expect(String(decoding: try JSWireValue.parse(Array(json.utf8)).encoded, as: UTF8.self) == written)
        }

        @Test(arguments: [
            ("", 0, "a value"), ("{oops", 1, "a member name in quotes"), (#"{"a" 1}"#, 5, "':' after a member name"),
            (#"{"a":1,}"#, 7, "a member name in quotes"), ("[1 2]", 3, "',' or ']'"), ("[1,]", 3, "a value"), ("01", 0, "no leading zero"),
            ("1.", 2, "a digit after '.'"), ("1e", 2, "a digit in the exponent"), ("-", 1, "a digit"), ("tru", 0, "true"),
            ("nul", 0, "null"), ("{} x", 3, "the end of the message"), (#""abc"#, 4, "the string's closing quote"),
            (#""a\x""#, 3, #"an escape (\" \\ \/ \b \f \n \r \t \uXXXX)"#), (#""\u12G4""#, 3, "four hex digits"),
            ("\"tab\there\"", 4, "no control character in a string (escape it)"), ("NaN", 0, "a value"), ("'single'", 0, "a value"),
        ])
        func malformedDocuments(json: String, offset: Int, expected: String) {
            #expect(throws: JSWireValue.SyntaxError(offset: offset, expected: expected)) { try JSWireValue.parse(Array(json.utf8)) }
        }

        @Test func invalidUTF8AndDeepNestingAreRefused() {
            #expect(throws: JSWireValue.SyntaxError(offset: 1, expected: "UTF-8 text in a string")) { try JSWireValue.parse([0x22, 0xC3, 0x28, 0x22]) }
            #expect(throws: JSWireValue.SyntaxError(offset: 1, expected: "UTF-8 text in a string")) {
                try JSWireValue.parse([0x22, 0xFF, 0x5C, 0x6E, 0x22])  // the slow path (an escape follows)
            }
            let deep = Array(String(repeating: "[", count: JSWireValue.maxDepth + 1).utf8) + Array(String(repeating: "]", count: JSWireValue.maxDepth + 1).utf8)
            #expect(throws: JSWireValue.SyntaxError(offset: JSWireValue.maxDepth, expected: "at most \(JSWireValue.maxDepth) nested arrays and objects")) {
                try JSWireValue.parse(deep)
            }
            let allowed = Array(String(repeating: "[", count: JSWireValue.maxDepth).utf8) + Array(String(repeating: "]", count: JSWireValue.maxDepth).utf8)
            #expect((try? JSWireValue.parse(allowed)) != nil)
        }

        /// Answers as the host writes them: every effect kind and a load's rules.
        static let answers = [
            #"{"ok":true,"effects":[{"k":"upd","item":"Sum","value":"3.5"},{"k":"cmd","item":"Lamp","value":"ON"},"#
                + #"{"k":"log","level":"INFO","logger":"org.openhab.automation.script","text":"é \"q\""},"#
                + #"{"k":"out","channel":"notification","action":"sendNotification","recipient":"a@b","text":"hi"},"#
                + #"{"k":"timer","id":3,"at":1767913260000,"label":"setTimeout #1","rule":"Sum-1"},{"k":"cancel","id":3},"#
                + #"{"k":"enable","rule":"Sum-1","enabled":false},{"k":"runRule","rule":"Other","conditions":true,"args":null},"#
                + #"{"k":"runRule","rule":"Other","conditions":false,"args":"{\"a\":1}"},"#
                + #"{"k":"act","scope":"mqtt","method":"publishMQTT","thing":"mqtt:broker:b","args":["t/x","on"]},{"k":"note","text":"n"}]}"#,
            #"{"ok":true,"effects":[],"rules":[{"id":"Sum-bench-1","name":"Sum","description":null,"tags":["a"],"#
                + #""triggers":[{"type":"timer.GenericCronTrigger","config":[["cronExpression","0 * * * * ?"]],"id":"1","line":4}],"#
                + #""overwrite":false,"switchItem":null,"line":2}]}"#,
            #"{"ok":false,"code":"rules.jsRuntime","message":"rule \"x\" failed: TypeError: y","location":"automation/js/a.js:3:5","effects":[]}"#,
        ]

        /// Answers of the hot shape (a run's usual answer), and answers a byte away from it, which the tree reads.
        static let hotAnswers = [
            #"{"ok":true,"effects":[{"k":"upd","item":"Sum","value":"3.5"}],"needsThings":false}"#,
            #"{"ok":true,"effects":[{"k":"cmd","item":"Lamp","value":"ON"},{"k":"log","level":"INFO","logger":"org.openhab.automation.script","text":"été € 𝄞"}],"needsThings":true}"#,
            #"{"ok":true,"effects":[]}"#,
            #"{"ok":true,"effects":[{"k":"upd","item":"Sum","value":"3.5"}]}"#,
        ]
        static let nearHotAnswers = [
            #"{"ok":true,"effects":[{"k":"upd","item":"Sum","value":"say \"3.5\""}],"needsThings":false}"#,  // an escape
            #"{"ok":true,"effects":[{"k":"upd","item":"Sum","value":"3.5"}],"needsThings":false} "#,  // a blank after
            #"{"ok":true,"effects":[{"k":"upd","value":"3.5","item":"Sum"}]}"#,  // members in another order
            #"{"ok":true,"effects":[{"k":"note","text":"n"}],"needsThings":false}"#,  // another effect
            #"{"ok":true,"effects":[],"needsThings":false,"holds":true}"#,  // another member
        ]

        /// Whether two replies are the same.
        static func same(_ a: JSReply, _ b: JSReply) -> Bool {
            a.ok == b.ok && a.error == b.error && a.effects == b.effects && a.rules == b.rules && a.holds == b.holds
                && a.notBoolean == b.notBoolean && a.needsThings == b.needsThings
        }

        @Test func hotAnswersReadWithoutATreeAsTheTreeReadsThem() throws {
            for answer in Self.hotAnswers {
                let hot = try #require(JSReply.hotShape(Array(answer.utf8)), "\(answer)")
                #expect(Self.same(hot, try JSReply.parseTree(Array(answer.utf8))), "\(answer)")
            }
            #expect(JSReply.hotShape(Array(Self.hotAnswers[1].utf8))?.needsThings == true)
            #expect(JSReply.hotShape(Array(Self.hotAnswers[1].utf8))?.effects.last == .log(level: "INFO", logger: "org.openhab.automation.script", text: "été € 𝄞"))
            for answer in Self.nearHotAnswers + Self.answers {
                #expect(JSReply.hotShape(Array(answer.utf8)) == nil, "\(answer)")
                #expect(Self.same(try JSReply.parse(Array(answer.utf8)), try JSReply.parseTree(Array(answer.utf8))), "\(answer)")
            }
            // Invalid UTF-8 in a string of the hot shape is the tree's located error.
            var broken = Array(Self.hotAnswers[0].utf8)
            broken[broken.firstIndex(of: UInt8(ascii: "3"))!] = 0xFF
            #expect(JSReply.hotShape(broken) == nil)
            #expect(throws: JavaScriptError.self) { try JSReply.parse(broken) }
        }

        @Test func theHostsAnswersParse() throws {
            let effects = try JSReply.parse(Array(Self.answers[0].utf8)).effects
            #expect(effects == [.update(item: "Sum", value: "3.5"), .command(item: "Lamp", value: "ON"),
                                .log(level: "INFO", logger: "org.openhab.automation.script", text: "é \"q\""),
                                .outbox(channel: "notification", action: "sendNotification", recipient: "a@b", text: "hi"),
                                .timer(id: 3, atMs: 1_767_913_260_000, label: "setTimeout #1", rule: "Sum-1"), .cancel(id: 3),
                                .enable(rule: "Sum-1", enabled: false), .runRule("Other", considerConditions: true, arguments: nil),
                                .runRule("Other", considerConditions: false, arguments: #"{"a":1}"#),
                                .thingAction(scope: "mqtt", method: "publishMQTT", thing: "mqtt:broker:b", arguments: ["t/x", "on"]),
                                .note("n")])
            let rules = try JSReply.parse(Array(Self.answers[1].utf8)).rules
            #expect(rules == [JSRuleSpec(id: "Sum-bench-1", name: "Sum", description: nil, tags: ["a"],
                                         triggers: [JSTriggerSpec(id: "1", type: "timer.GenericCronTrigger", configuration: [("cronExpression", "0 * * * * ?")], line: 4)],
                                         switchItem: nil, line: 2)])
            let failed = try JSReply.parse(Array(Self.answers[2].utf8))
            #expect(failed.ok == false && failed.error == JavaScriptError(.runtime, "rule \"x\" failed: TypeError: y", location: "automation/js/a.js:3:5"))
        }

        @Test(arguments: [
            (#"{oops"#, "malformed message (not JSON: byte 1 of 5, expected a member name in quotes): \"{oops\""),
            (#"[1]"#, "malformed message (not a JSON object): \"[1]\""),
            (#"{"ok":true}"#, "malformed message (no \"ok\" or \"effects\")"),
            (#"{"ok":true,"effects":[{"k":"upd","item":"Sum"}]}"#, "malformed effect: {\"k\":\"upd\",\"item\":\"Sum\"}"),
            (#"{"ok":true,"effects":[{"k":"timer","id":1,"at":1e300}]}"#, "malformed effect"),
            (#"{"ok":true,"effects":[{"k":"act","scope":"mqtt","method":"m","thing":"t","args":["a",1]}]}"#, "malformed effect"),
            (#"{"ok":true,"effects":[],"holds":"yes"}"#, "malformed reply"),
            (#"{"ok":true,"effects":[],"rules":[{"id":"x","name":"x","triggers":[{"type":"t","id":"1","config":[["k"]]}]}]}"#, "malformed rule"),
        ])
        func malformedAnswersAreLocatedChildErrors(answer: String, says: String) {
            do {
                _ = try JSReply.parse(Array(answer.utf8))
                Issue.record("\(answer) parsed")
            } catch {
                #expect(error.code == .child)
                #expect(error.message.contains(says), "\(error.message)")
            }
        }

        /// Every mutation of the host's answers (bytes flipped, dropped, duplicated, cut) parses or ends as
        /// `rules.jsChild`; both happen, so the mutations reach past the first byte. A mutation the hot shape reads,
        /// the tree reads to the same reply.
        @Test func mutatedAnswersParseOrFailAsChildErrors() {
            var random = SplitMix64(seed: 38)
            var parsed = 0, refused = 0, hotParsed = 0
            for round in 0..<6_000 {
                let sources = Self.answers + Self.hotAnswers
                var bytes = Array(sources[round % sources.count].utf8)
                for _ in 0...(random.next() % 3) {
                    guard !bytes.isEmpty else { break }
                    let at = Int(random.next() % UInt64(bytes.count))
                    switch random.next() % 5 {
                    case 0: bytes[at] = UInt8(truncatingIfNeeded: random.next())
                    case 1: bytes.remove(at: at)
                    case 2: bytes.insert(bytes[at], at: at)
                    case 3: bytes = Array(bytes[..<at])
                    default:
                        let punctuation = Array(#"{}[]",:\0e-."#.utf8)
                        bytes[at] = punctuation[Int(random.next() % UInt64(punctuation.count))]
                    }
                }
                if let hot = JSReply.hotShape(bytes) {
                    // What the hot shape accepts, the tree reads to the same reply.
                    let tree = try? JSReply.parseTree(bytes)
                    #expect(tree.map { Self.same(hot, $0) } == true, "\(String(decoding: bytes, as: UTF8.self))")
                    hotParsed += 1
                }
                do {
                    _ = try JSReply.parse(bytes)
                    parsed += 1
                } catch {
                    #expect(error.code == .child, "\(String(decoding: bytes, as: UTF8.self)): \(error)")
                    refused += 1
                }
            }
            #expect(parsed > 100 && refused > 1_000 && hotParsed > 100, "parsed \(parsed) (\(hotParsed) of the hot shape), refused \(refused)")
        }
    }
}

/// SplitMix64: the tests' seeded generator.
private struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
