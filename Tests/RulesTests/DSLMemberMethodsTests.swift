import SmartHome
import Testing
@testable import Rules

/// Issue 40: a member call reads its method at the receiver's class (``DSLMemberMethods``), resolved once per
/// written name. The table must pick exactly what the search it replaced picked: for the name's candidates in
/// order, the receiver's kinds from the most specific, the first method found.
@Suite("Rules DSL: member methods resolved by receiver class")
struct DSLMemberMethodsTests {
    /// The kinds each class is searched in, written out as the search before the table had them (most specific first).
    static let searchedKinds: [DSLReceiverClass: [DSLReceiver]] = [
        .item: [.item, .any], .state: [.state, .any], .stateNumber: [.state, .number, .any], .colorState: [.color, .state, .any],
        .number: [.number, .any], .string: [.string, .any], .instant: [.instant, .any], .localTime: [.localTime, .any],
        .localDate: [.localDate, .any], .localDateTime: [.localDateTime, .any], .random: [.random, .any],
        .thingStatus: [.thingStatus, .any], .duration: [.duration, .any], .dayOfWeek: [.dayOfWeek, .any], .timer: [.timer, .any],
        .lambda: [.lambda, .any], .list: [.list, .any], .map: [.map, .any], .formatter: [.formatter, .any],
        .exception: [.exception, .any], .builder: [.builder, .any], .historic: [.historic, .any], .actions: [.actions, .any],
        .lock: [.lock, .any], .constant: [.constant, .any], .any: [.any],
    ]

    static func tag(_ m: DSLMethodEntry) -> String {
        switch m {
        case .sync: "sync"
        case .suspending: "suspending"
        case .loop: "loop"
        }
    }

    @Test func theTablePicksWhatTheSearchPicksForEveryNameAndClass() throws {
        #expect(Set(Self.searchedKinds.keys) == Set(DSLReceiverClass.allCases))
        #expect(DSLLibrary.memberMethods.count == DSLLibrary.dispatch.count)
        var compared = 0, found = 0
        for (name, rows) in DSLLibrary.dispatch {
            let resolved = try #require(DSLLibrary.memberMethods[name])
            #expect(resolved.byClass.count == DSLReceiverClass.allCases.count && DSLMemberMethods.resolve(rows).count == resolved.byClass.count)
            for receiverClass in DSLReceiverClass.allCases {
                let kinds = try #require(Self.searchedKinds[receiverClass])
                #expect(receiverClass.kinds == kinds)
                // The search, as the call path ran it before.
                var searched: (row: Int, kind: DSLReceiver, entry: DSLMethodEntry)?
                search: for (r, row) in rows.enumerated() {
                    for kind in kinds {
                        if let m = row[kind.rawValue] { searched = (r, kind, m); break search }
                    }
                }
                let table = resolved.method(for: receiverClass)
                let origin = DSLMemberMethods.resolve(rows)[receiverClass.rawValue]?.origin
                compared += 1
                #expect((searched == nil) == (table == nil), "\(name) on \(receiverClass)")
                #expect((searched == nil) == (origin == nil), "\(name) on \(receiverClass)")
                if let searched, let table, let origin {
                    found += 1
                    #expect(searched.row == origin.row && searched.kind == origin.kind, "\(name) on \(receiverClass)")
                    #expect(Self.tag(searched.entry) == Self.tag(table), "\(name) on \(receiverClass)")
                }
            }
        }
        // Many names, and a method found for many of them (a table of nils would not do).
        #expect(compared == DSLLibrary.dispatch.count * DSLReceiverClass.allCases.count)
        #expect(found > 1000)
    }

    @Test func valuesFallInTheClassesTheSearchGaveThem() throws {
        let cases: [(DSLValue, DSLReceiverClass)] = [
            (.item(try ItemName("Lamp")), .item),
            (.state(.decimal(DecimalNumber(1.5))), .stateNumber), (.state(.percent(DecimalNumber(50))), .stateNumber),
            (.state(.onOff(.on)), .state), (.state(.null), .state), (.state(.string("x")), .state),
            (.int(1), .number), (.number(1.5), .number), (.string("s"), .string), (.bool(true), .any), (.null, .any),
            (.type("Number"), .any), (.list(DSLList([])), .list), (.builder(DSLList([])), .builder), (.map(DSLMap()), .map),
            (.dayOfWeek(1), .dayOfWeek), (.formatter("HH:mm"), .formatter), (.constant(type: "ChronoUnit", name: "DAYS"), .constant),
            (.exception(type: "Exception", message: "m"), .exception), (.actions(scope: "mqtt", thing: "t"), .actions),
        ]
        for (value, receiverClass) in cases {
            #expect(DSLLibrary.receiverClass(value) == receiverClass, "\(value)")
        }
    }
}
