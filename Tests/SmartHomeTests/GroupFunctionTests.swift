import Simulation
import Testing
@testable import SmartHome

@Suite("Group functions (ArithmeticGroupFunction, QuantityTypeArithmeticGroupFunction, DateTimeGroupFunction, Equality)")
struct GroupFunctionTests {
    private static let on = State.onOff(.on), off = State.onOff(.off)
    private static func n(_ v: Double) -> State { .decimal(DecimalNumber(v)) }
    private static func c(_ v: Double) -> State { .quantity(Quantity(DecimalNumber(v), .celsius)) }

    @Test("logical functions, openHAB's cases", arguments: [
        // (function, members, expected)
        (GroupFunction.and(active: on, passive: off), [on, on], on),
        (.and(active: on, passive: off), [on, off], off),
        (.and(active: on, passive: off), [], off),  // And: no items → passive
        (.or(active: on, passive: off), [off, on], on),
        (.or(active: on, passive: off), [], off),
        (.or(active: on, passive: off), [State.percent(DecimalNumber(integer: 30))], on),  // a Dimmer above 0 is ON
        (.nand(active: on, passive: off), [on, on], off),
        (.nand(active: on, passive: off), [on, off], on),
        (.nand(active: on, passive: off), [], on),
        (.nor(active: on, passive: off), [off, off], on),
        (.nor(active: on, passive: off), [off, on], off),
        (.and(active: .openClosed(.closed), passive: .openClosed(.open)), [.openClosed(.closed), .null], .openClosed(.open)),
        (.xor(active: on, passive: off), [on, off], on),
        (.xor(active: on, passive: off), [on, on], off),
        (.xor(active: on, passive: off), [], off),
        (.equality, [on, on], on),
        (.equality, [on, off], .undef),
        (.equality, [], .undef),
    ] as [(GroupFunction, [State], State)])
    func logical(_ function: GroupFunction, _ members: [State], _ expected: State) {
        #expect(function.calculate(members) == expected)
    }

    @Test func arithmeticOverNumbersIgnoresUndefinedMembers() {
        let members = [Self.n(20), Self.n(22), .null, .undef, .string("x"), Self.n(24)]
        #expect(GroupFunction.avg.calculate(members) == Self.n(22))
        #expect(GroupFunction.sum.calculate(members) == Self.n(66))
        #expect(GroupFunction.min.calculate(members) == Self.n(20))
        #expect(GroupFunction.max.calculate(members) == Self.n(24))
        #expect(GroupFunction.median.calculate(members) == Self.n(22))
        #expect(GroupFunction.median.calculate([Self.n(1), Self.n(4)]) == Self.n(2.5))
        // Avg/Min/Max of nothing are UNDEF; Sum of nothing is 0.
        #expect(GroupFunction.avg.calculate([.null]) == .undef)
        #expect(GroupFunction.min.calculate([]) == .undef)
        #expect(GroupFunction.sum.calculate([]) == Self.n(0))
        // ON counts as 1 (OnOffType as DecimalType).
        #expect(GroupFunction.sum.calculate([Self.on, Self.on, Self.off]) == Self.n(2))
    }

    @Test func quantitiesAreSummedInTheGroupsUnitAndOtherDimensionsLeftOut() {
        let members: [State] = [Self.c(20), .quantity(Quantity(DecimalNumber(77), .fahrenheit)), .quantity(Quantity(DecimalNumber(5), .watt))]
        #expect(GroupFunction.avg.calculate(members, unit: .celsius) == Self.c(22.5))
        #expect(GroupFunction.max.calculate(members, unit: .celsius) == Self.c(25))
        let power: [State] = [.quantity(Quantity(DecimalNumber(1.5), .kilowatt)), .quantity(Quantity(DecimalNumber(500), .watt))]
        #expect(GroupFunction.sum.calculate(power, unit: .watt) == .quantity(Quantity(DecimalNumber(2000), .watt)))
    }

    @Test func countMatchesTheWholeStateText() {
        let members: [State] = [Self.on, Self.off, .string("ONLINE"), .openClosed(.open)]
        #expect(GroupFunction.count(pattern: "ON").calculate(members) == .decimal(DecimalNumber(integer: 1)))
        #expect(GroupFunction.count(pattern: "ON|ONLINE").calculate(members) == .decimal(DecimalNumber(integer: 2)))
        #expect(GroupFunction.count(pattern: "O.*").calculate(members) == .decimal(DecimalNumber(integer: 4)))
        #expect(GroupFunction.count(pattern: "(").calculate(members) == .undef)  // not a regular expression
    }

    @Test func earliestAndLatest() {
        let cal = LocalCalendar.utc
        let a = State.dateTime(DateTimeValue(SimInstant(unixMilliseconds: 1_000), in: cal))
        let b = State.dateTime(DateTimeValue(SimInstant(unixMilliseconds: 5_000), in: cal))
        #expect(GroupFunction.earliest.calculate([b, .null, a]) == a)
        #expect(GroupFunction.latest.calculate([a, b]) == b)
        #expect(GroupFunction.latest.calculate([.null]) == .undef)
    }

    @Test func theRuntimeRecalculatesGroupsWhenAMemberChanges() async throws {
        let world = try await TestWorld()
        let runtime = world.runtime
        var avg = Item(name: try ItemName("gTemps"), type: .groupItem)
        avg.aggregation = GroupAggregation(baseType: .numberItem(.temperature), function: .avg)
        var any = Item(name: try ItemName("gAny"), type: .groupItem)
        any.aggregation = GroupAggregation(baseType: .switchItem, function: .or(active: .onOff(.on), passive: .onOff(.off)))
        // A Group without a base type passes its members up (getStateMembers).
        let plain = Item(name: try ItemName("gPlain"), type: .groupItem, groupNames: ["gAny"])
        await runtime.putItem(avg)
        await runtime.putItem(any)
        await runtime.putItem(plain)
        await runtime.putItem(Item(name: try ItemName("T1"), type: .numberItem(.temperature), groupNames: ["gTemps"]))
        await runtime.putItem(Item(name: try ItemName("T2"), type: .numberItem(.temperature), groupNames: ["gTemps"]))
        await runtime.putItem(Item(name: try ItemName("S1"), type: .switchItem, groupNames: ["gPlain"]))
        await runtime.putItem(Item(name: try ItemName("S2"), type: .switchItem, groupNames: ["gAny"]))
        _ = try await world.api.updateState("T1", "20 °C")
        #expect(try await world.state("gTemps") == "20 °C")
        _ = try await world.api.updateState("T2", "71.6 °F")
        #expect(try await world.state("gTemps") == "21 °C")
        _ = try await world.api.updateState("S1", "OFF")
        #expect(try await world.state("gAny") == "OFF")
        _ = try await world.api.updateState("S1", "ON")
        #expect(try await world.state("gAny") == "ON")
        _ = try await world.api.updateState("S1", "OFF")
        _ = try await world.api.updateState("S2", "ON")
        #expect(try await world.state("gAny") == "ON")
        _ = try await world.api.updateState("S2", "OFF")
        #expect(try await world.state("gAny") == "OFF")
    }

    @Test func aDeepChainOfGroupsAndACycleEndTheirRecalculation() async throws {
        let world = try await TestWorld()
        let runtime = world.runtime
        let depth = 5_000
        for level in 0..<depth {
            var group = Item(name: try ItemName("g\(level)"), type: .groupItem, groupNames: level + 1 < depth ? ["g\(level + 1)"] : ["g0"])
            // Every other level without a base type: those pass their members up.
            if level % 2 == 0 { group.aggregation = GroupAggregation(baseType: .numberItem(nil), function: .max) }
            await runtime.putItem(group)
        }
        await runtime.putItem(Item(name: try ItemName("Leaf"), type: .numberItem(nil), groupNames: ["g0"]))
        _ = try await world.api.updateState("Leaf", "5")
        #expect(try await world.state("g0") == "5")
        #expect(try await world.state("g\(depth - 2)") == "5")
        // The top Group is a member of g0 (a cycle): g0's state members are the leaf and that Group.
        let members = runtime.items.stateMembers(of: try ItemName("g0")).map(\.name.description)
        #expect(members == ["Leaf", "g\(depth - 2)"])
    }

    @Test func aGroupsChangeIsAnEventRulesHear() async throws {
        let world = try await TestWorld()
        var any = Item(name: try ItemName("gAny"), type: .groupItem)
        any.aggregation = GroupAggregation(baseType: .switchItem, function: .or(active: .onOff(.on), passive: .onOff(.off)))
        await world.runtime.putItem(any)
        await world.runtime.putItem(Item(name: try ItemName("S1"), type: .switchItem, groupNames: ["gAny"]))
        try await world.clearEvents()
        _ = try await world.api.updateState("S1", "ON")
        let events = try await world.events()
        #expect(events.contains { $0.hasPrefix("openhab/items/gAny/statechanged") && $0.contains(#""value":"ON""#) })
    }
}

@Suite("Units and dimensions")
struct QuantityUnitTests {
    @Test func prefixedUnitsConvert() throws {
        let mm = try #require(QuantityUnit(symbol: "mm"))
        #expect(mm.dimension == .length)
        #expect(Quantity(DecimalNumber(1500), mm).converted(to: try #require(QuantityUnit(symbol: "m")))?.value == 1.5)
        let hPa = try #require(QuantityUnit(symbol: "hPa"))
        #expect(Quantity(DecimalNumber(1), try #require(QuantityUnit(symbol: "bar"))).converted(to: hPa)?.value == 1000)
        #expect(QuantityUnit(symbol: "ug/m³")?.symbol == "µg/m³")
        #expect(QuantityUnit(symbol: "℃") == .celsius)
        #expect(QuantityUnit(symbol: "kWh") == .kilowattHour)
        #expect(QuantityUnit(symbol: "km/h")?.dimension == .speed)
        #expect(QuantityUnit(symbol: "l/min")?.dimension == .volumetricFlowRate)
        #expect(QuantityUnit(symbol: "Mbit/s")?.dimension == .dataTransferRate)
        #expect(QuantityUnit(symbol: "°Q") == nil)
        #expect(QuantityUnit(symbol: "kkm") == nil)  // one prefix only
    }

    @Test func temperaturesConvertWithTheirOffsets() throws {
        #expect(Quantity(DecimalNumber(212), .fahrenheit).converted(to: .celsius)?.value == 100)
        #expect(Quantity(DecimalNumber(0), .celsius).converted(to: .kelvin)?.value == 273.15)
        #expect(Quantity(DecimalNumber(17), .celsius).converted(to: .fahrenheit)?.value == 62.6)
    }

    @Test func logarithmicUnitsConvertOnlyToThemselves() throws {
        let dB = try #require(QuantityUnit(symbol: "dB"))
        #expect(Quantity(DecimalNumber(3), dB).converted(to: .one) == nil)
        #expect(Quantity(DecimalNumber(3), dB).converted(to: dB)?.value == 3)
    }

    @Test func aNumberItemOfAnyDimensionTakesQuantitiesInItsUnit() throws {
        var item = Item(name: try ItemName("Water"), type: .numberItem(.volume))
        #expect(item.accepting(.decimal(DecimalNumber(integer: 2))) == .quantity(Quantity(DecimalNumber(2), try #require(QuantityUnit(symbol: "m³")))))
        item.metadata["unit"] = ItemMetadata(value: "l")
        let state = item.accepting(.quantity(Quantity(DecimalNumber(2), try #require(QuantityUnit(symbol: "m³")))))
        #expect(state?.description == "2000 l")
    }

    @Test func theNewItemTypesParseTheirCommandsAndStates() {
        #expect(ItemType.rollershutterItem.parseCommand("UP") == .upDown(.up))
        #expect(ItemType.rollershutterItem.parseCommand("STOP") == .stopMove(.stop))
        #expect(ItemType.rollershutterItem.parseState("DOWN") == .percent(DecimalNumber(integer: 100)))
        #expect(ItemType.colorItem.parseCommand("120,100,50")?.description == "120,100,50")
        #expect(ItemType.colorItem.parseCommand("400,100,50") == nil)
        #expect(ItemType.locationItem.parseState("47.5,19.05")?.description == "47.5,19.05")
        #expect(ItemType.playerItem.parseCommand("NEXT") == .nextPrevious(.next))
        #expect(ItemType.callItem.parseCommand("ON") == nil)
        #expect(ItemType.imageItem.parseState("data:image/png;base64,AAAA") == .raw("data:image/png;base64,AAAA"))
    }
}

@Suite("A Group's member list (ItemRegistry.memberNames, kept between reads)")
struct GroupMemberListTests {
    /// The list a rule's `members` reads is kept between reads; putting or removing an Item (a new member, a
    /// member leaving, a member that becomes a Group) must show in the next read.
    @Test func theKeptListFollowsPutsAndRemoves() throws {
        let registry = ItemRegistry()
        let g = try ItemName("gAll")
        registry.put(Item(name: g, type: .groupItem))
        registry.put(Item(name: try ItemName("B"), type: .switchItem, groupNames: ["gAll"]))
        registry.put(Item(name: try ItemName("A"), type: .switchItem, groupNames: ["gAll"]))
        func read() -> [String] { registry.memberNames(of: g).map { "\($0.name)\($0.isGroup ? "*" : "")" } }
        #expect(read() == ["A", "B"])
        #expect(read() == ["A", "B"])  // the kept list
        registry.put(Item(name: try ItemName("C"), type: .switchItem, groupNames: ["gAll"]))
        #expect(read() == ["A", "B", "C"])
        registry.put(Item(name: try ItemName("A"), type: .groupItem, groupNames: ["gAll"]))  // same groups, a Group now
        #expect(read() == ["A*", "B", "C"])
        registry.put(Item(name: try ItemName("B"), type: .switchItem))  // leaves the Group
        #expect(read() == ["A*", "C"])
        _ = registry.remove(try ItemName("C"))
        #expect(read() == ["A*"])
    }
}
