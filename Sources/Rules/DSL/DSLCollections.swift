import Foundation

/// `List`/`Set`/`Map` methods and Xbase's collection extensions (`IterableExtensions`: forEach, filter, map,
/// reduce, fold, findFirst, exists, forall, sortBy, head, last, take, drop, toList, toSet, …).
enum DSLCollections {
    private static func list(_ r: DSLValue) -> DSLList { if case .list(let l) = r { l } else { DSLList([]) } }

    private static func lambda(_ a: [DSLValue], _ k: Int, _ name: String, _ at: DSLLocation) throws(DSLFlow) -> DSLClosure {
        guard k < a.count, case .lambda(let c) = a[k] else { throw DSLFlow.failure("\(name) takes a lambda [ x | … ]", at, type: "IllegalArgumentException") }
        return c
    }

    private static func index(_ a: [DSLValue], _ k: Int, _ name: String, _ at: DSLLocation) throws(DSLFlow) -> Int {
        guard k < a.count, let n = a[k].numeric else { throw DSLFlow.failure("\(name) takes an index", at, type: "IllegalArgumentException") }
        return Int(clamping: Int64(saturating: n.value))
    }

    private static func checkSize(_ count: Int, _ at: DSLLocation) throws(DSLFlow) {
        if count > DSLLimits.maxCollectionSize {
            throw DSLFlow.fatal("a collection grew past \(DSLLimits.maxCollectionSize) elements; the run was ended (rules.dslValueTooLarge)", at)
        }
    }

    static func truth(_ v: DSLValue, _ at: DSLLocation) throws(DSLFlow) -> Bool {
        guard case .bool(let b) = v else { throw DSLFlow.failure("the lambda must give true or false, not \(v.kindName)", at, type: "ClassCastException") }
        return b
    }

    /// The extensions that call a lambda (each call's arguments, and what its result does: ``DSLLambdaLoop``).
    static let listLoops: [String: DSLLoopCode] = [
        "forEach": .init { r, a, at in
            let f = try lambda(a, 0, "forEach", at)
            return DSLLambdaLoop(f, .forEach, list(r).values, indexed: f.syntax.parameters.count == 2, at)
        },
        "filter": .init { r, a, at in try each("filter", r, a, at, .select(keep: true, isSet: list(r).isSet)) },
        "reject": .init { r, a, at in try each("reject", r, a, at, .select(keep: false, isSet: list(r).isSet)) },
        "map": .init { r, a, at in try each("map", r, a, at, .map) },
        "reduce": .init { r, a, at in
            let f = try lambda(a, 0, "reduce", at)
            let values = list(r).values
            guard let first = values.first else { return DSLLambdaLoop(none: .null, at) }
            return DSLLambdaLoop(accumulating: f, from: first, Array(values.dropFirst()), at)
        },
        "fold": .init { r, a, at in
            guard a.count == 2 else { throw DSLFlow.failure("fold takes a start value and a lambda [ acc, x | … ]", at) }
            return DSLLambdaLoop(accumulating: try lambda(a, 1, "fold", at), from: a[0], list(r).values, at)
        },
        "findFirst": .init { r, a, at in DSLLambdaLoop(try lambda(a, 0, "findFirst", at), .find, list(r).values, at) },
        "findLast": .init { r, a, at in DSLLambdaLoop(try lambda(a, 0, "findLast", at), .find, list(r).values.reversed(), at) },
        "exists": .init { r, a, at in try each("exists", r, a, at, .exists) },
        "forall": .init { r, a, at in try each("forall", r, a, at, .forall) },
        "count": .init { r, a, at in
            guard !a.isEmpty else { return DSLLambdaLoop(none: .int(Int64(list(r).count)), at) }
            return try each("count", r, a, at, .count)
        },
        "sortBy": .init { r, a, at in try each("sortBy", r, a, at, .keyed(.sort)) },
        "maxBy": .init { r, a, at in try each("maxBy", r, a, at, .keyed(.max)) },
        "minBy": .init { r, a, at in try each("minBy", r, a, at, .keyed(.min)) },
        "sortWith": .init { r, a, at in DSLLambdaLoop(sorting: try lambda(a, 0, "sortWith", at), list(r).values, at) },
    ]

    /// `name[ x | … ]` on a list: the lambda called with each element in turn.
    private static func each(_ name: String, _ r: DSLValue, _ a: [DSLValue], _ at: DSLLocation, _ kind: DSLLambdaLoop.Kind) throws(DSLFlow) -> DSLLambdaLoop {
        DSLLambdaLoop(try lambda(a, 0, name, at), kind, list(r).values, at)
    }

    static let listMethods: [String: DSLMethodCode] = [
        "filterNull": .init { _, r, _, _ in .list(DSLList(list(r).values.filter { if case .null = $0 { false } else { true } })) },
        "sort": .init { _, r, _, at in .list(DSLList(try sorted(list(r).values.map { ($0, $0) }, at).map(\.1))) },
        "max": .init { _, r, _, at in try sorted(list(r).values.map { ($0, $0) }, at).last?.1 ?? .null },
        "min": .init { _, r, _, at in try sorted(list(r).values.map { ($0, $0) }, at).first?.1 ?? .null },
        "head": .init { _, r, _, _ in list(r).values.first ?? .null },
        // java.util.Queue (a LinkedList as rules use one): peek and element look at the head, poll and
        // remove() take it (poll gives null on an empty queue), offer adds at the tail.
        "peek": .init { _, r, _, _ in list(r).values.first ?? .null },
        "element": .init { _, r, _, at in
            guard let first = list(r).values.first else { throw DSLFlow.failure("the queue is empty", at, type: "NoSuchElementException") }
            return first
        },
        "poll": .init { _, r, _, _ in
            try list(r).update { (v: inout [DSLValue]) throws(DSLFlow) -> DSLValue in v.isEmpty ? .null : v.removeFirst() }
        },
        "offer": .init { _, r, a, at in
            guard a.count == 1 else { throw DSLFlow.failure("offer takes one value", at) }
            try list(r).update { (v: inout [DSLValue]) throws(DSLFlow) in
                guard v.count < DSLLimits.maxCollectionSize else { throw DSLFlow.fatal("a list grew past \(DSLLimits.maxCollectionSize) elements; the run was ended (rules.dslValueTooLarge)", at) }
                v.append(a[0])
            }
            return .bool(true)
        },
        "getFirst": .init { _, r, _, _ in list(r).values.first ?? .null },
        "last": .init { _, r, _, _ in list(r).values.last ?? .null },
        "getLast": .init { _, r, _, _ in list(r).values.last ?? .null },
        "tail": .init { _, r, _, _ in .list(DSLList(Array(list(r).values.dropFirst()))) },
        "take": .init { _, r, a, at in .list(DSLList(Array(list(r).values.prefix(max(0, try index(a, 0, "take", at)))))) },
        "drop": .init { _, r, a, at in .list(DSLList(Array(list(r).values.dropFirst(max(0, try index(a, 0, "drop", at)))))) },
        "toList": .init { _, r, _, _ in .list(DSLList(list(r).values)) },
        "toSet": .init { _, r, _, _ in .list(DSLList(DSLLibrary.unique(list(r).values), isSet: true)) },
        "size": .init { _, r, _, _ in .int(Int64(list(r).count)) },
        "length": .init { _, r, _, _ in .int(Int64(list(r).count)) },
        "isEmpty": .init { _, r, _, _ in .bool(list(r).count == 0) },
        "isNullOrEmpty": .init { _, r, _, _ in .bool(list(r).count == 0) },
        "contains": .init { _, r, a, _ in .bool(a.count == 1 && list(r).values.contains { DSLOperators.equal($0, a[0]) }) },
        "indexOf": .init { _, r, a, _ in .int(Int64(list(r).values.firstIndex { DSLOperators.equal($0, a.first ?? .null) } ?? -1)) },
        "get": .init { _, r, a, at in
            let k = try index(a, 0, "get", at)
            let values = list(r).values
            guard k >= 0, k < values.count else { throw DSLFlow.failure("Index \(k) out of bounds for length \(values.count)", at, type: "IndexOutOfBoundsException") }
            return values[k]
        },
        "set": .init { _, r, a, at in
            guard a.count == 2 else { throw DSLFlow.failure("set takes an index and a value", at) }
            let k = try index(a, 0, "set", at)
            return try list(r).update { (v: inout [DSLValue]) throws(DSLFlow) -> DSLValue in
                guard k >= 0, k < v.count else { throw DSLFlow.failure("Index \(k) out of bounds for length \(v.count)", at, type: "IndexOutOfBoundsException") }
                let old = v[k]
                v[k] = a[1]
                return old
            }
        },
        "add": .init { _, r, a, at in
            let l = list(r)
            return try l.update { (v: inout [DSLValue]) throws(DSLFlow) -> DSLValue in
                if a.count == 2, let k = a[0].numeric {
                    let n = Int(Int64(saturating: k.value))
                    guard n >= 0, n <= v.count else { throw DSLFlow.failure("Index \(n) out of bounds for length \(v.count)", at, type: "IndexOutOfBoundsException") }
                    v.insert(a[1], at: n)
                    return .null
                }
                guard a.count == 1 else { throw DSLFlow.failure("add takes a value", at) }
                if l.isSet, v.contains(where: { DSLOperators.equal($0, a[0]) }) { return .bool(false) }
                v.append(a[0])
                try checkSize(v.count, at)
                return .bool(true)
            }
        },
        "addAll": .init { _, r, a, at in
            let l = list(r)
            guard case .list(let other)? = a.first else { throw DSLFlow.failure("addAll takes a collection", at) }
            let more = other.values
            return try l.update { (v: inout [DSLValue]) throws(DSLFlow) -> DSLValue in
                for x in more where !(l.isSet && v.contains { DSLOperators.equal($0, x) }) { v.append(x) }
                try checkSize(v.count, at)
                return .bool(true)
            }
        },
        "remove": .init { _, r, a, at in
            let l = list(r)
            guard a.count == 1 else { throw DSLFlow.failure("remove takes a value or an index", at) }
            return try l.update { (v: inout [DSLValue]) throws(DSLFlow) -> DSLValue in
                if !l.isSet, case .int(let k) = a[0] {
                    guard k >= 0, k < v.count else { throw DSLFlow.failure("Index \(k) out of bounds for length \(v.count)", at, type: "IndexOutOfBoundsException") }
                    return v.remove(at: Int(k))
                }
                guard let k = v.firstIndex(where: { DSLOperators.equal($0, a[0]) }) else { return .bool(false) }
                v.remove(at: k)
                return .bool(true)
            }
        },
        "removeAll": .init { _, r, a, _ in
            guard case .list(let other)? = a.first else { return .bool(false) }
            let gone = other.values
            _ = try list(r).update { (v: inout [DSLValue]) throws(DSLFlow) in v.removeAll { x in gone.contains { DSLOperators.equal($0, x) } } }
            return .bool(true)
        },
        "clear": .init { _, r, _, _ in _ = try list(r).update { (v: inout [DSLValue]) throws(DSLFlow) in v.removeAll() }; return .null },
        "join": .init { i, r, a, at in try DSLOperators.checkedString(list(r).values.map(i.describe).joined(separator: a.first?.text ?? ""), at) },
        "reverse": .init { _, r, _, _ in .list(DSLList(list(r).values.reversed())) },
        "subList": .init { _, r, a, at in
            let values = list(r).values
            let from = try index(a, 0, "subList", at), to = try index(a, 1, "subList", at)
            guard from >= 0, to <= values.count, from <= to else { throw DSLFlow.failure("subList(\(from), \(to)) of \(values.count)", at, type: "IndexOutOfBoundsException") }
            return .list(DSLList(Array(values[from..<to])))
        },
        "getKey": .init { _, r, _, _ in list(r).values.first ?? .null },
        "getValue": .init { _, r, _, _ in list(r).values.count > 1 ? list(r).values[1] : .null },
    ]

    static func sorted(_ keyed: [(DSLValue, DSLValue)], _ at: DSLLocation) throws(DSLFlow) -> [(DSLValue, DSLValue)] {
        var failure: DSLFlow?
        let out = keyed.enumerated().sorted { x, y in
            do throws(DSLFlow) {
                let c = try DSLOperators.compare(x.element.0, y.element.0, at)
                return c == 0 ? x.offset < y.offset : c < 0
            } catch {
                failure = error
                return x.offset < y.offset
            }
        }.map(\.element)
        if let failure { throw failure }
        return out
    }

    private static func map(_ r: DSLValue) -> DSLMap { if case .map(let m) = r { m } else { DSLMap() } }

    static let mapMethods: [String: DSLMethodCode] = [
        "put": .init { _, r, a, at in
            guard a.count == 2 else { throw DSLFlow.failure("put takes a key and a value", at) }
            let old = map(r).entries.first { DSLOperators.equal($0.key, a[0]) }?.value ?? .null
            try DSLLibrary.put(map(r), a[0], a[1], at)
            return old
        },
        "get": .init { _, r, a, _ in map(r).entries.first { DSLOperators.equal($0.key, a.first ?? .null) }?.value ?? .null },
        "getOrDefault": .init { _, r, a, at in
            guard a.count == 2 else { throw DSLFlow.failure("getOrDefault takes a key and a default", at) }
            return map(r).entries.first { DSLOperators.equal($0.key, a[0]) }?.value ?? a[1]
        },
        "containsKey": .init { _, r, a, _ in .bool(map(r).entries.contains { DSLOperators.equal($0.key, a.first ?? .null) }) },
        "containsValue": .init { _, r, a, _ in .bool(map(r).entries.contains { DSLOperators.equal($0.value, a.first ?? .null) }) },
        "remove": .init { _, r, a, _ in
            try map(r).update { (e: inout [DSLMap.Entry]) throws(DSLFlow) -> DSLValue in
                guard let k = e.firstIndex(where: { DSLOperators.equal($0.key, a.first ?? .null) }) else { return .null }
                return e.remove(at: k).value
            }
        },
        "keySet": .init { _, r, _, _ in .list(DSLList(map(r).entries.map(\.key), isSet: true)) },
        "values": .init { _, r, _, _ in .list(DSLList(map(r).entries.map(\.value))) },
        "entrySet": .init { _, r, _, _ in .list(DSLList(map(r).entries.map { .list(DSLList([$0.key, $0.value])) }, isSet: true)) },
        "size": .init { _, r, _, _ in .int(Int64(map(r).entries.count)) },
        "isEmpty": .init { _, r, _, _ in .bool(map(r).entries.isEmpty) },
        "clear": .init { _, r, _, _ in _ = try map(r).update { (e: inout [DSLMap.Entry]) throws(DSLFlow) in e.removeAll() }; return .null },
    ]

    static let mapLoops: [String: DSLLoopCode] = [
        "forEach": .init { r, a, at in
            let f = try lambda(a, 0, "forEach", at)
            return DSLLambdaLoop(f, .forEach, entries: map(r).entries, at)
        },
    ]
}

/// The calls a method makes of a lambda, written once for both of the interpreter's walks, as a plain loop: the
/// interpreter holds it in a variable and calls ``step(_:)`` with the previous call's result (`nil` before the
/// first), which writes the next call's arguments into ``arguments`` (`false`: no more calls); ``result()`` is
/// then the method's value. What each call's result does is the ``Kind``, so the loop's state is this struct's
/// own (no closures over captured counters). The arguments are one array rewritten in place for each call: the
/// interpreter has let go of the previous call's by then (no array per call).
struct DSLLambdaLoop {
    /// What a call's result does, calling the lambda with each element (and its index, when `indexed`).
    enum Kind {
        case forEach  // nothing; the value is null
        case map  // collected
        case select(keep: Bool, isSet: Bool)  // the element kept when the result is `keep` (filter, reject)
        case find  // the first element it is true for; then no more calls
        case exists, forall  // stops at the first true (false)
        case count
        case keyed(Pick)  // the element's key (sortBy, maxBy, minBy)
        // Not by element: no call, one call, fold/reduce, sortWith's insertion sort.
        case none(DSLValue), once, accumulate, sortWith
    }

    enum Pick { case sort, max, min }

    /// `nil`: no lambda to call (`count()` without one, `apply` on what is no lambda).
    let lambda: DSLClosure?
    private let kind: Kind
    private let at: DSLLocation
    /// The elements (sortWith: the list being sorted).
    private var values: [DSLValue]
    /// A map's entries (`forEach[ k, v | … ]`), instead of `values`.
    private let entries: [DSLMap.Entry]?
    private let indexed: Bool
    /// The next call's arguments.
    private(set) var arguments: [DSLValue]
    private var next = 0
    private var stopped = false
    /// once, find, accumulate: the value so far; exists, forall: the last truth.
    private var value: DSLValue = .null
    private var collected: [DSLValue] = []
    private var keys: [(DSLValue, DSLValue)] = []
    private var counted: Int64 = 0
    /// sortWith: element `k` sinks while the comparator says its left neighbour (`j - 1`) is greater.
    private var k = 1, j = 1

    private init(_ lambda: DSLClosure?, _ kind: Kind, _ values: [DSLValue], entries: [DSLMap.Entry]? = nil, indexed: Bool = false,
                 width: Int, _ at: DSLLocation) {
        self.lambda = lambda
        self.kind = kind
        self.values = values
        self.entries = entries
        self.indexed = indexed
        self.at = at
        arguments = [DSLValue](repeating: .null, count: width)
        switch kind {
        case .forall: value = .bool(true)
        case .exists: value = .bool(false)
        // What the calls keep, at most one per element: room made once, not grown call by call (a filter's list keeps
        // its room, so only a short one's is made in advance).
        case .map: collected.reserveCapacity(values.count)
        case .select: collected.reserveCapacity(min(values.count, 16))
        case .keyed: keys.reserveCapacity(values.count)
        default: break
        }
    }

    /// Calls `lambda` with each of `values` in turn (and its index, when `indexed`).
    init(_ lambda: DSLClosure, _ kind: Kind, _ values: [DSLValue], indexed: Bool = false, _ at: DSLLocation) {
        self.init(lambda, kind, values, indexed: indexed, width: indexed ? 2 : 1, at)
    }

    /// Calls `lambda` with each of a map's entries in turn (key, value).
    init(_ lambda: DSLClosure, _ kind: Kind, entries: [DSLMap.Entry], _ at: DSLLocation) {
        self.init(lambda, kind, [], entries: entries, width: 2, at)
    }

    /// No call; `value` is the value.
    init(none value: DSLValue, _ at: DSLLocation) {
        self.init(nil, .none(value), [], width: 0, at)
    }

    /// One call of `lambda` with `arguments`; its result is the value.
    init(once lambda: DSLClosure, _ arguments: [DSLValue], _ at: DSLLocation) {
        self.init(lambda, .once, [], width: 0, at)
        self.arguments = arguments
    }

    /// `reduce`/`fold`: the lambda called with the value so far and each element.
    init(accumulating lambda: DSLClosure, from start: DSLValue, _ values: [DSLValue], _ at: DSLLocation) {
        self.init(lambda, .accumulate, values, width: 2, at)
        value = start
    }

    /// `sortWith`: insertion sort with the comparator lambda (stable, as Java's List.sort).
    init(sorting lambda: DSLClosure, _ values: [DSLValue], _ at: DSLLocation) {
        self.init(lambda, .sortWith, values, width: 2, at)
    }

    /// Takes the previous call's result (`nil`: none yet) and writes the next call's arguments; `false`: no more calls.
    mutating func step(_ last: DSLValue?) throws(DSLFlow) -> Bool {
        switch kind {
        case .none:
            return false
        case .once:
            if let last { value = last }
            if next > 0 { return false }
            next = 1
            return true
        case .accumulate:
            if let last { value = last }
            guard next < values.count else { return false }
            arguments[0] = value
            arguments[1] = values[next]
            next += 1
            return true
        case .sortWith:
            if let last {
                if let c = last.numeric, c.value > 0 { values.swapAt(j - 1, j); j -= 1 } else { k += 1; j = k }
            }
            while k < values.count {
                if j > 0 {
                    arguments[0] = values[j - 1]
                    arguments[1] = values[j]
                    return true
                }
                k += 1; j = k
            }
            return false
        default:
            if let last, !(try take(last, next - 1)) { stopped = true }
            if let entries {
                guard !stopped, next < entries.count else { return false }
                arguments[0] = entries[next].key
                arguments[1] = entries[next].value
            } else {
                guard !stopped, next < values.count else { return false }
                arguments[0] = values[next]
                if indexed { arguments[1] = .int(Int64(next)) }
            }
            next += 1
            return true
        }
    }

    /// What call `index`'s result `v` does; `false`: no more calls.
    private mutating func take(_ v: DSLValue, _ index: Int) throws(DSLFlow) -> Bool {
        switch kind {
        case .map: collected.append(v)
        case .select(let keep, _): if try DSLCollections.truth(v, at) == keep { collected.append(values[index]) }
        case .find:
            guard try DSLCollections.truth(v, at) else { return true }
            value = values[index]
            return false
        case .exists:
            let found = try DSLCollections.truth(v, at)
            value = .bool(found)
            return !found
        case .forall:
            let all = try DSLCollections.truth(v, at)
            value = .bool(all)
            return all
        case .count: if try DSLCollections.truth(v, at) { counted += 1 }
        case .keyed: keys.append((v, values[index]))
        case .forEach, .none, .once, .accumulate, .sortWith: break
        }
        return true
    }

    /// The method's value, after the last call.
    func result() throws(DSLFlow) -> DSLValue {
        switch kind {
        case .none(let v): return v
        case .once, .find, .accumulate, .exists, .forall: return value
        case .forEach: return .null
        case .map: return .list(DSLList(collected))
        case .select(_, let isSet): return .list(DSLList(collected, isSet: isSet))
        case .count: return .int(counted)
        case .keyed(let pick):
            let sorted = try DSLCollections.sorted(keys, at)
            switch pick {
            case .sort: return .list(DSLList(sorted.map(\.1)))
            case .max: return sorted.last?.1 ?? .null
            case .min: return sorted.first?.1 ?? .null
            }
        case .sortWith: return .list(DSLList(values))
        }
    }
}
