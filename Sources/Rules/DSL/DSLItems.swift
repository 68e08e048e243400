import Foundation
import Simulation
import SmartHome

/// Methods of Items, states and timers (openHAB's `GenericItem`, `GroupItem`, the state types, `Timer`).
enum DSLItems {
    /// What `read` gives for the Item receiver `r` (by its checked name), or Java's `ItemNotFoundException`.
    private static func read<T>(_ r: DSLValue, _ at: DSLLocation, _ read: (ItemName) -> T?) throws(DSLFlow) -> T {
        guard case .item(let name) = r, let value = read(name) else {
            throw DSLFlow.failure("\(r.text) is not an Item", at, type: "ItemNotFoundException")
        }
        return value
    }

    /// The Item receiver `r`, copied whole (for the fields the registry does not hand out alone).
    private static func item(_ r: DSLValue, _ i: DSLInterpreter, _ at: DSLLocation) throws(DSLFlow) -> (ItemName, Item) {
        try read(r, at) { name in i.execution.item(checked: name).map { (name, $0) } }
    }

    /// The name of an Item receiver that exists, without copying the Item.
    private static func existing(_ r: DSLValue, _ i: DSLInterpreter, _ at: DSLLocation) throws(DSLFlow) -> String {
        try read(r, at) { name in i.execution.itemType(checked: name).map { _ in name.rawValue } }
    }

    /// The Item type's openHAB class name (`SwitchItem`, `GroupItem`).
    static func className(_ type: ItemType) -> String {
        switch type {
        case .switchItem: return "SwitchItem"
        case .contactItem: return "ContactItem"
        case .numberItem: return "NumberItem"
        case .dimmerItem: return "DimmerItem"
        case .dateTimeItem: return "DateTimeItem"
        case .stringItem: return "StringItem"
        case .groupItem: return "GroupItem"
        case .rollershutterItem: return "RollershutterItem"
        case .colorItem: return "ColorItem"
        case .locationItem: return "LocationItem"
        case .playerItem: return "PlayerItem"
        case .callItem: return "CallItem"
        case .imageItem: return "ImageItem"
        }
    }

    /// The members of the Group receiver `r` (``members(_:all:_:)``): it is looked up once.
    private static func groupMembers(_ r: DSLValue, all: Bool, _ i: DSLInterpreter, _ at: DSLLocation) throws(DSLFlow) -> DSLValue {
        let (name, type) = try read(r, at) { name in i.execution.itemType(checked: name).map { (name, $0) } }
        guard type == .groupItem else { throw DSLFlow.failure("\(name) is not a Group, so it has no members", at, type: "NoSuchMethodException") }
        return .list(DSLList(members(name, all: all, i), isSet: true))
    }

    /// A group's direct members, or (`all`) every non-group Item below it, in name order.
    static func members(_ name: ItemName, all: Bool, _ i: DSLInterpreter) -> [DSLValue] {
        let registry = i.execution.engine.runtime.items
        if !all { return registry.memberNames(of: name).map { .item($0.name) } }
        var seen = Set<ItemName>(), out: [ItemName] = [], queue = [name]
        while let next = queue.popLast() {
            for member in registry.memberNames(of: next) where seen.insert(member.name).inserted {
                if member.isGroup { queue.append(member.name) } else { out.append(member.name) }
            }
        }
        return out.sorted().map(DSLValue.item)
    }

    /// The checked name of an Item receiver, without looking it up (``DSLLibrary/send`` and ``DSLLibrary/update``
    /// do, once).
    private static func itemName(_ r: DSLValue, _ at: DSLLocation) throws(DSLFlow) -> ItemName {
        guard case .item(let name) = r else { throw DSLFlow.failure("\(r.text) is not an Item", at, type: "ItemNotFoundException") }
        return name
    }

    /// The Item methods that may pause the run (a command waits for the Thing handlers of linked channels;
    /// an update does not: `postUpdate` and `setState` are in ``methods``).
    static let suspendingMethods: [String: DSLSuspendingMethod] = [
        "sendCommand": { i, r, a, at in
            guard a.count == 1 else { throw DSLFlow.failure("sendCommand takes one value", at) }
            try await DSLLibrary.send("sendCommand", to: try itemName(r, at), a[0], at, i)
            return .null
        },
    ]

    static let methods: [String: DSLMethodCode] = [
        "postUpdate": .init { i, r, a, at in
            guard a.count == 1 else { throw DSLFlow.failure("postUpdate takes one value", at) }
            try DSLLibrary.update(try itemName(r, at), a[0], at, i)
            return .null
        },
        "setState": .init { i, r, a, at in
            // `Item.state = v` is Xtend's property assignment: it calls openHAB's GenericItem.setState(State),
            // which applies the state at once (GenericItem.applyState) and posts the ItemStateUpdatedEvent and,
            // when the state differs, the ItemStateChangedEvent — the events `received update` and `changed`
            // triggers listen to (ItemStateTriggerHandler). The twin applies it as an update of the Item.
            guard a.count == 1 else { throw DSLFlow.failure("setState takes one state", at) }
            try DSLLibrary.update(try itemName(r, at), a[0], at, i)
            return .null
        },
        "getState": .init { i, r, _, at in .state(try read(r, at) { i.execution.itemState(checked: $0) }) },
        "getStateAs": .init { i, r, a, at in
            let state = try item(r, i, at).1.state
            guard case .type(let type)? = a.first else { throw DSLFlow.failure("getStateAs takes a type such as OnOffType", at) }
            switch (type, state) {
            case ("OnOffType", .decimal(let n)), ("OnOffType", .percent(let n)): return .state(.onOff(n.value > 0 ? .on : .off))
            case ("PercentType", .onOff(let v)): return .state(.percent(DecimalNumber(integer: v == .on ? 100 : 0)))
            case ("DecimalType", .onOff(let v)): return .state(.decimal(DecimalNumber(integer: v == .on ? 1 : 0)))
            case ("DecimalType", .openClosed(let v)): return .state(.decimal(DecimalNumber(integer: v == .open ? 1 : 0)))
            default: return DSLOperators.isInstance(.state(state), of: type) ? .state(state) : .null
            }
        },
        "getName": .init { i, r, _, at in .string(try existing(r, i, at)) },
        "getLabel": .init { i, r, _, at in try item(r, i, at).1.label.map(DSLValue.string) ?? .null },
        "getCategory": .init { i, r, _, at in try item(r, i, at).1.category.map(DSLValue.string) ?? .null },
        "getType": .init { i, r, _, at in .string(try read(r, at) { i.execution.itemType(checked: $0) }.rawValue) },
        "getTags": .init { i, r, _, at in .list(DSLList(try item(r, i, at).1.tags.map(DSLValue.string), isSet: true)) },
        "hasTag": .init { i, r, a, at in .bool(try item(r, i, at).1.tags.contains(a.first?.text ?? "")) },
        "getGroupNames": .init { i, r, _, at in .list(DSLList(try item(r, i, at).1.groupNames.map(DSLValue.string))) },
        "getLastStateUpdate": .init { i, r, _, at in try item(r, i, at).1.lastStateUpdate.map(DSLValue.instant) ?? .null },
        "getLastStateChange": .init { i, r, _, at in try item(r, i, at).1.lastStateChange.map(DSLValue.instant) ?? .null },
        "getLastState": .init { i, r, _, at in try item(r, i, at).1.lastState.map(DSLValue.state) ?? .null },
        "getMembers": .init { i, r, _, at in try groupMembers(r, all: false, i, at) },
        "getAllMembers": .init { i, r, _, at in try groupMembers(r, all: true, i, at) },
        "getUID": .init { i, r, _, at in .string(try existing(r, i, at)) },
    ]

    static let stateMethods: [String: DSLMethodCode] = [
        "getZonedDateTime": .init { i, r, _, at in
            guard case .state(.dateTime(let d)) = r else { throw DSLFlow.failure("\(r.kindName) has no zonedDateTime", at, type: "NoSuchMethodException") }
            _ = i
            return .instant(d.instant)
        },
        "getInstant": .init { _, r, _, at in
            guard case .state(.dateTime(let d)) = r else { throw DSLFlow.failure("\(r.kindName) has no instant", at, type: "NoSuchMethodException") }
            return .instant(d.instant)
        },
        "toFullString": .init { i, r, _, _ in .string(i.describe(r)) },
        // PointType's: its parts as DecimalTypes, and the great-circle distance in metres (openHAB's haversine on
        // the WGS84 equatorial radius, computed in doubles; a DecimalType of Double.toString's digits).
        "getLatitude": .init { _, r, _, at in .state(.decimal(try point(r, at).latitude)) },
        "getLongitude": .init { _, r, _, at in .state(.decimal(try point(r, at).longitude)) },
        "getAltitude": .init { _, r, _, at in .state(.decimal(try point(r, at).altitude ?? DecimalNumber(integer: 0))) },
        "distanceFrom": .init { _, r, a, at in
            let here = try point(r, at)
            guard a.count == 1 else { throw DSLFlow.failure("distanceFrom takes a PointType", at) }
            let there = try point(a[0], at)
            let radians = Double.pi / 180
            let lat1 = here.latitude.value, lat2 = there.latitude.value
            let dLat = (lat2 - lat1) * radians, dLong = (there.longitude.value - here.longitude.value) * radians
            let h = pow(sin(dLat / 2), 2) + cos(lat1 * radians) * cos(lat2 * radians) * pow(sin(dLong / 2), 2)
            let metres = 6_378_137 * (2 * atan2(h.squareRoot(), (1 - h).squareRoot()))
            return .state(.decimal(DecimalNumber(parsing: JavaDecimal.javaDoubleText(metres)) ?? DecimalNumber(metres)))
        },
        "as": .init { _, r, a, at in
            guard case .type(let t)? = a.first else { throw DSLFlow.failure("as takes a type", at) }
            return DSLOperators.isInstance(r, of: t) ? r : .null
        },
    ]

    private static func point(_ v: DSLValue, _ at: DSLLocation) throws(DSLFlow) -> GeoPoint {
        guard case .state(.point(let p)) = v else { throw DSLFlow.failure("\(v.kindName) is not a PointType", at, type: "ClassCastException") }
        return p
    }

    static let timerMethods: [String: DSLMethodCode] = [
        "reschedule": .init { _, r, a, at in
            guard case .timer(let timer) = r, a.count == 1 else { throw DSLFlow.failure("reschedule takes an instant", at) }
            switch a[0] {
            case .instant(let when): timer.schedule(at: when)
            case .state(.dateTime(let d)): timer.schedule(at: d.instant)
            default: throw DSLFlow.failure("reschedule takes an instant, not \(a[0].kindName)", at)
            }
            return .bool(true)
        },
        "cancel": .init { _, r, _, _ in if case .timer(let t) = r { return .bool(t.cancel()) }; return .bool(false) },
        "isActive": .init { _, r, _, _ in if case .timer(let t) = r { return .bool(t.status.withLock { $0.pending != nil }) }; return .bool(false) },
        "isRunning": .init { _, r, _, _ in if case .timer(let t) = r { return .bool(t.status.withLock { $0.running }) }; return .bool(false) },
        "hasTerminated": .init { _, r, _, _ in if case .timer(let t) = r { return .bool(t.status.withLock { $0.terminated }) }; return .bool(false) },
        "isCancelled": .init { _, r, _, _ in if case .timer(let t) = r { return .bool(t.status.withLock { $0.cancelled }) }; return .bool(false) },
    ]
}
