import Testing
@testable import SmartHome

@Suite struct ThingsFileParserTests {
    private func parse(_ text: String) -> ThingsFileParser.Result { ThingsFileParser.parse(text, file: "home.things") }

    @Test func aBridgeWithNestedThingsChannelsAndEveryValueType() throws {
        let result = parse("""
            Bridge mqtt:broker:home "Broker" @ "Cellar" [ host="10.0.0.2", port=1883, secure=false, qos=-1, ratio=0.5, list=1, 2, 3, name='x' ] {
                Thing topic sensor "Sensor" @ "Hall" [ availabilityTopic="s/status" ] {
                    Channels:
                        Type number : temperature "Temperature" [ stateTopic="s/temp", unit="°C" ]
                        State Number:Temperature : dew
                        Trigger String : button
                        Switch : relay#power "Power"
                }
                Bridge sub inner {
                    Thing leaf one
                }
                Thing generic:thing:standalone
            }
            astro:sun:home "Sun" [ geolocation="47.5,19.04", interval=60 ]
            Thing network:pingdevice:router (mqtt:broker:home) [ hostname="10.0.0.1" ]
            """)
        #expect(result.issues.isEmpty, "\(result.issues.map(\.located))")
        #expect(result.things.map(\.uid) == ["mqtt:broker:home", "mqtt:topic:home:sensor", "mqtt:sub:home:inner", "mqtt:leaf:home:inner:one",
                                             "generic:thing:standalone", "astro:sun:home", "network:pingdevice:router"])
        let bridge = try #require(result.things.first)
        #expect(bridge.isBridge && bridge.label == "Broker" && bridge.location == "Cellar")
        #expect(bridge.configuration.map(\.key) == ["host", "port", "secure", "qos", "ratio", "list", "name"])
        #expect(bridge.configuration.map(\.value) == [.string("10.0.0.2"), .number("1883"), .boolean(false), .number("-1"), .number("0.5"),
                                                      .list([.number("1"), .number("2"), .number("3")]), .string("x")])
        let sensor = result.things[1]
        #expect(sensor.bridgeUID == "mqtt:broker:home" && sensor.location == "Hall")
        #expect(sensor.channels.map(\.id) == ["temperature", "dew", "button", "relay#power"])
        #expect(sensor.channels[0].channelType == "number" && sensor.channels[0].configuration.count == 2)
        #expect(sensor.channels[1].itemType == .numberItem(.temperature))
        #expect(sensor.channels[2].isTrigger && sensor.channels[2].itemType == .stringItem)
        #expect(sensor.channels[3].itemType == .switchItem && sensor.channels[3].label == "Power")
        #expect(result.things[3].bridgeUID == "mqtt:sub:home:inner")
        #expect(result.things.last?.bridgeUID == "mqtt:broker:home")
    }

    @Test func everyProblemOfABadFileIsLocatedAtOnce() {
        let result = parse("""
            astro:sun "Sun"
            Thing topic lonely "No bridge"
            astro:moon:home [ interval=fast ]
            Bridge mqtt:broker:b {
                Thing topic t { Channels: Type switch power }
            }
            network:pingdevice:ok [ hostname="x" ]
            a:b:c { Channels: Switch : p  Switch : p }
            """)
        let found = result.issues.map { "\($0.line):\($0.column) \($0.code.rawValue)" }
        #expect(found == ["1:1 things.invalidUID", "2:7 things.invalidUID", "3:28 things.invalidValue", "5:43 things.syntax", "8:31 things.duplicate"],
                "\(result.issues.map(\.located))")
        // The Things around the problems still load.
        #expect(result.things.map(\.uid).contains("network:pingdevice:ok"))
        #expect(result.issues.allSatisfy { $0.located.hasPrefix("home.things:\($0.line):\($0.column): things.") })
        #expect(result.issues[2].hint?.contains("quote it") == true)
    }

    @Test func aThingDeclaredTwiceIsANoticeAndTheFirstStays() {
        let result = parse("a:b:c \"first\"\na:b:c \"second\"")
        #expect(result.issues.isEmpty)
        #expect(result.notices.map(\.code) == [.duplicate])
        #expect(result.things.map(\.label) == ["first"])
    }

    @Test func hostileInputEndsAsLocatedErrorsInLinearTime() {
        let hugeLabel = "a:b:c \"" + String(repeating: "x", count: 1 << 20) + "\"\n"
        #expect(parse(hugeLabel).issues.isEmpty)
        let deep = String(repeating: "Bridge a:b:c {\n", count: 10_000)
        let nested = parse(deep)
        #expect(nested.issues.contains { $0.code == .tooLarge })
        var garbage = [UInt8]()
        var x: UInt32 = 12345
        for _ in 0..<200_000 { x = x &* 1_103_515_245 &+ 12345; garbage.append(UInt8(truncatingIfNeeded: x >> 16)) }
        let binary = ThingsFileParser.parse(bytes: garbage, file: "bin.things")
        #expect(binary.issues.first?.code == .encoding)
        let ascii = ThingsFileParser.parse(bytes: garbage.map { $0 & 0x7F }, file: "ascii.things")
        #expect(!ascii.issues.isEmpty && ascii.issues.count <= ThingsFileParser.maxIssues + 1)
    }
}
