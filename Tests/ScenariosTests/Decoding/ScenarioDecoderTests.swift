@testable import ScenarioFormat
@testable import Scenarios
import Simulation
import Testing
import Twin

/// A minimal valid scenario; tests change one thing and look at the message a user would read.
let minimalScenario = """
{
  "version": 1,
  "name": "Minimal",
  "seed": 42,
  "timeZone": "Europe/Budapest",
  "start": "2026-01-09T00:00",
  "end": "2026-01-10T00:00",
  "weather": { "Budapest": { "constantC": -2 } },
  "users": [ { "id": "host", "name": "Hanna Host" }, { "id": "guest", "name": "Gabor Guest" } ],
  "listings": [ {
    "id": "flat-1", "owner": "host", "name": "Danube view flat", "city": "Budapest", "country": "Hungary", "capacity": 3,
    "thermal": { "uaWPerK": 80, "capacitanceKWhPerK": 2.3, "initialC": 16 },
    "devices": [
      { "id": "heating", "type": "heating", "powerW": 2000, "setpointC": 21 },
      { "id": "door", "type": "lock" }
    ]
  } ],
  "timeline": [
    { "at": "2026-01-09T12:00", "book": { "id": "r1", "guest": "guest", "listing": "flat-1", "checkIn": "2026-01-09", "checkOut": "2026-01-10", "guests": 2 } },
    { "at": "2026-01-09T15:00", "unlock": { "item": "flat-1/door/lock", "by": "guest" } }
  ],
  "expect": [ { "at": "2026-01-09T16:00", "item": "flat-1/door/lock", "state": "OFF" } ]
}
"""

/// Decodes `text` and returns the issues (empty when valid).
func issues(_ text: String) -> [ScenarioIssue] {
    do {
        _ = try ScenarioDecoder.decode(text, file: "test.json")
        return []
    } catch {
        return error.issues
    }
}

@Suite("Decoding scenario files")
struct ScenarioDecoderTests {
    @Test func theMinimalScenarioDecodes() throws {
        let scenario = try ScenarioDecoder.decode(minimalScenario, file: "test.json")
        #expect(scenario.name == "Minimal" && scenario.seed == 42)
        #expect(scenario.listings[0].checkInTime == LocalTime(hour: 15, minute: 0))
        #expect(scenario.listings[0].thermal.gainPerGuestW == 80)
        #expect(scenario.timeline.map(\.action.name) == ["book", "unlock"])
        #expect(scenario.end - scenario.start == .hours(24))
        #expect(try ScenarioDecoder.decode(minimalScenario, file: "test.json", seed: 7).seed == 7)
    }

    @Test func unknownKeysGetDidYouMeanWithPathAndLine() {
        let found = issues(minimalScenario.replacingOccurrences(of: "\"uaWPerK\"", with: "\"uaWperK\""))
        #expect(found.count == 2)  // the unknown key, and the missing required one
        let unknown = found.first { $0.message.contains("unknown key") }
        #expect(unknown?.path == "listings[0].thermal.uaWperK")
        #expect(unknown?.line == 12)
        #expect(unknown?.hint == "did you mean \"uaWPerK\"?")
        #expect(unknown?.description == "test.json:12: listings[0].thermal.uaWperK: unknown key \"uaWperK\". Hint: did you mean \"uaWPerK\"?")
        #expect(found.contains { $0.path == "listings[0].thermal" && $0.message.contains("missing the required key \"uaWPerK\"") })
    }

    @Test func anUnknownDeviceTypeIsNamedWithTheNearestType() {
        let found = issues(minimalScenario.replacingOccurrences(of: "\"type\": \"lock\"", with: "\"type\": \"lok\""))
        #expect(found.count == 1)
        #expect(found.first?.path == "listings[0].devices[1].type")
        #expect(found.first?.message.contains("\"lok\" is not a device type") == true)
        #expect(found.first?.hint == "did you mean \"lock\"?")
    }

    @Test("bad physical parameters name the field and value", arguments: [
        ("\"powerW\": 2000", "\"powerW\": -5", "listings[0].devices[0].powerW", "is -5 W but must be more than 0 and at most 50000 W"),
        ("\"uaWPerK\": 80", "\"uaWPerK\": 0", "listings[0].thermal.uaWPerK", "is 0 W/K"),
        ("\"capacitanceKWhPerK\": 2.3", "\"capacitanceKWhPerK\": -1", "listings[0].thermal.capacitanceKWhPerK", "is -1 kWh/K"),
        ("\"setpointC\": 21 }", "\"setpointC\": 21, \"hysteresisK\": 0 }", "listings[0].devices[0].hysteresisK", "is 0 K"),
        ("\"setpointC\": 21 }", "\"setpointC\": \"21\" }", "listings[0].devices[0].setpointC", "expected a number, found a string"),
    ])
    func badParameters(original: String, replacement: String, path: String, message: String) {
        let found = issues(minimalScenario.replacingOccurrences(of: original, with: replacement))
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.path == path)
        #expect(found.first?.message.contains(message) == true, "\(found.first?.message ?? "")")
    }

    @Test func coolingCopMustBePositive() {
        let text = minimalScenario.replacingOccurrences(
            of: "{ \"id\": \"door\", \"type\": \"lock\" }",
            with: "{ \"id\": \"ac\", \"type\": \"cooling\", \"powerW\": 900, \"cop\": 0, \"setpointC\": 25 }")
        #expect(issues(text).map(\.path) == ["listings[0].devices[1].cop"])
    }

    @Test func syntaxErrorsPointAtTheLine() {
        let found = issues(minimalScenario.replacingOccurrences(of: "\"seed\": 42,", with: "\"seed\": 42"))
        #expect(found.count == 1)
        #expect(found.first?.line == 5)
        #expect(found.first?.message.contains("expected ',' or '}'") == true)
    }

    @Test func referencesAreChecked() {
        var text = minimalScenario.replacingOccurrences(of: "\"owner\": \"host\"", with: "\"owner\": \"hots\"")
        text = text.replacingOccurrences(of: "\"item\": \"flat-1/door/lock\", \"by\"", with: "\"item\": \"flat-1/dor/lock\", \"by\"")
        let found = issues(text)
        #expect(found.map(\.path) == ["listings[0].owner", "timeline[1].unlock.item"])
        #expect(found[0].hint == "did you mean \"host\"?")
        #expect(found[1].hint == "did you mean \"flat-1/door/lock\"?")
        #expect(found[1].line == 20)
    }

    @Test func stepsExpectingAnErrorMayNameUnknownThings() throws {
        let text = minimalScenario.replacingOccurrences(
            of: "\"by\": \"guest\" } }",
            with: "\"by\": \"stranger\" }, \"expectError\": \"lock.accessDenied\" }")
        #expect(issues(text).isEmpty)
        let typo = text.replacingOccurrences(of: "lock.accessDenied", with: "lock.accesDenied")
        #expect(issues(typo).first?.hint == "did you mean \"lock.accessDenied\"?")
    }

    @Test func timesOutsideTheScenarioAndDSTGapsAreErrors() {
        let late = minimalScenario.replacingOccurrences(of: "\"at\": \"2026-01-09T16:00\"", with: "\"at\": \"2026-01-11T16:00\"")
        #expect(issues(late).first?.message.contains("lies outside the scenario") == true)
        let gap = minimalScenario.replacingOccurrences(of: "\"end\": \"2026-01-10T00:00\"", with: "\"end\": \"2026-03-29T02:30\"")
        #expect(issues(gap).first?.path == "end")
        #expect(issues(gap).first?.message.contains("does not exist") == true, "\(issues(gap))")
    }

    @Test func aStepWithTwoActionsOrNoneIsAnError() {
        let two = minimalScenario.replacingOccurrences(
            of: "{ \"at\": \"2026-01-09T15:00\", \"unlock\"",
            with: "{ \"at\": \"2026-01-09T15:00\", \"cancel\": { \"reservation\": \"r1\" }, \"unlock\"")
        #expect(issues(two).first?.message.contains("has 2 actions") == true)
    }

    @Test func theTimelineIsSortedStably() throws {
        let text = minimalScenario.replacingOccurrences(
            of: "  ],\n  \"expect\"",
            with: ",\n    { \"at\": \"2026-01-09T12:00\", \"command\": { \"item\": \"flat-1/heating/switch\", \"value\": \"ON\" } }\n  ],\n  \"expect\"")
        let scenario = try ScenarioDecoder.decode(text, file: "t.json")
        #expect(scenario.timeline.map(\.path) == ["timeline[0]", "timeline[2]", "timeline[1]"])
    }

    @Test func colliding_item_names_are_reported() {
        let text = minimalScenario.replacingOccurrences(
            of: "{ \"id\": \"door\", \"type\": \"lock\" }",
            with: "{ \"id\": \"door\", \"type\": \"lock\" }, { \"id\": \"door_\", \"type\": \"lock\" }, { \"id\": \"door.\", \"type\": \"lock\" }")
        let found = issues(text)
        #expect(found.contains { $0.message.contains("same openHAB name") })
    }
}
