import Serve
import Testing

@Suite("serve: SSE topic filter")
struct SSETopicFilterTests {
    @Test(arguments: [
        ("openhab/items/*/statechanged", "openhab/items/a_b/statechanged", true),
        ("openhab/items/*/statechanged", "openhab/items/a_b/command", false),
        ("openhab/items/*", "openhab/items/a_b/command", true),
        ("openhab/items/x/*", "openhab/items/xy/command", false),
        ("openhab/things/*/status*", "openhab/things/a:b:c/statuschanged", true),
        ("openhab/items/*/command, openhab/things/*", "openhab/things/a:b:c/status", true),
        ("openhab/*,!openhab/items/*/command", "openhab/items/a/command", false),
        ("openhab/*,!openhab/items/*/command", "openhab/items/a/state", true),
        ("", "openhab/items/a/state", true),
    ])
    func topicsMatchAsOpenHABsFilter(pattern: String, topic: String, expected: Bool) throws {
        #expect(try SSETopicFilter(pattern).matches(topic) == expected)
    }

    @Test func charactersOpenHABRefusesAreABadRequest() {
        #expect(throws: ServeError.self) { try SSETopicFilter("openhab/items/(.*)") }
    }
}
