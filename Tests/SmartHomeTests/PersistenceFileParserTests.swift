import Simulation
import Testing
@testable import SmartHome

@Suite struct PersistenceFileParserTests {
    @Test func strategiesFiltersItemsAndAliases() {
        let result = PersistenceFileParser.parse("""
            // openHAB 4 style, with defaults
            Strategies {
                everyHour : "0 0 * * * ?"
                everyDay  : "0 0 0 * * ?"
                default = everyChange
            }
            Filters {
                small : > 0.2 °C
                share : > % 10
                period : T 5 m
                onOff : = "ON", "OFF"
                notUndef : ! "UNDEF"
                band : [] 10 30 "°C"
                outside : ][ 0 100
            }
            Items {
                * : strategy = everyChange, restoreOnStartup
                gTemps*, !Outdoor, !gIgnored* : strategy = everyHour filter = small, period
                Door ;
            }
            Aliases {
                Door -> "front_door"
            }
            """, file: "conf/persistence/rrd4j.persist")
        #expect(result.issues.isEmpty, "\(result.issues.map(\.located))")
        let d = result.definition
        #expect(d.service == "rrd4j")
        #expect(d.cronStrategies.map(\.name) == ["everyHour", "everyDay"])
        #expect(d.defaults == ["everyChange"])
        #expect(d.filters.map(\.kind) == [.threshold(value: 0.2, relative: false, unit: "°C"), .threshold(value: 10, relative: true, unit: nil),
                                          .time(seconds: 300), .equals(["ON", "OFF"], inverted: false), .equals(["UNDEF"], inverted: true),
                                          .include(lower: 10, upper: 30, unit: "°C", inverted: false),
                                          .include(lower: 0, upper: 100, unit: nil, inverted: true)])
        #expect(d.configurations.map(\.selectors) == [[.all], [.group("gTemps"), .excludeItem("Outdoor"), .excludeGroup("gIgnored")], [.item("Door")]])
        #expect(d.configurations[1].strategies == ["everyHour"] && d.configurations[1].filters == ["small", "period"])
        #expect(d.aliases == ["Door": "front_door"])
    }

    @Test func unknownStrategiesAndFiltersAreLocated() {
        let result = PersistenceFileParser.parse("""
            Items {
                Temp : strategy = everyChang filter = tiny
                Door : strategy
            }
            """, file: "mapdb.persist")
        #expect(result.issues.map { "\($0.line):\($0.column) \($0.code.rawValue)" } == ["4:1 persist.syntax", "2:23 persist.unknownStrategy", "2:43 persist.unknownFilter"],
                "\(result.issues.map(\.located))")
        #expect(result.issues[1].hint == "did you mean \"everyChange\"?")
    }

    @Test func theFilterChainStoresAsOpenHABFiltersDo() throws {
        let name = try ItemName("T")
        let threshold = PersistenceFilterChain([.threshold(value: 0.5, relative: false, unit: nil)])
        let t0 = SimInstant(unixSeconds: 0)
        #expect(threshold.admit(name, .decimal(DecimalNumber(20)), at: t0))
        #expect(!threshold.admit(name, .decimal(DecimalNumber(20.4)), at: t0))
        #expect(threshold.admit(name, .decimal(DecimalNumber(20.6)), at: t0))
        let time = PersistenceFilterChain([.time(seconds: 300)])
        #expect(time.admit(name, .decimal(DecimalNumber(1)), at: t0))
        #expect(!time.admit(name, .decimal(DecimalNumber(2)), at: SimInstant(unixSeconds: 299)))
        #expect(time.admit(name, .decimal(DecimalNumber(3)), at: SimInstant(unixSeconds: 300)))
        let equals = PersistenceFilterChain([.equals(["ON"], inverted: false)])
        #expect(equals.admit(name, .onOff(.on), at: t0) && !equals.admit(name, .onOff(.off), at: t0))
        let band = PersistenceFilterChain([.include(lower: 10, upper: 30, unit: nil, inverted: false)])
        #expect(band.admit(name, .decimal(DecimalNumber(10)), at: t0) && !band.admit(name, .decimal(DecimalNumber(31)), at: t0))
    }
}
