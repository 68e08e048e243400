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

    private static func truth(_ v: DSLValue, _ at: DSLLocation) throws(DSLFlow) -> Bool {
        guard case .bool(let b) = v else { throw DSLFlow.failure("the lambda must give true or false, not \(v.kindName)", at, type: "ClassCastException") }
        return b
    }

    /// The extensions that call a lambda (each call's arguments, and what its result does).
    static let listLoops: [String: DSLLoopMethod] = [
        "forEach": { r, a, at in
            let f = try lambda(a, 0, "forEach", at)
            let withIndex = f.syntax.parameters.count == 2
            return .each(f, list(r).values, indexed: withIndex, take: { _, _ in true }, result: { .null })
        },
        "filter": { r, a, at in try select("filter", r, a, at, keep: true) },
        "reject": { r, a, at in try select("reject", r, a, at, keep: false) },
        "map": { r, a, at in
            let f = try lambda(a, 0, "map", at)
            var out: [DSLValue] = []
            return .each(f, list(r).values, take: { v, _ in out.append(v); return true }, result: { .list(DSLList(out)) })
        },
        "reduce": { r, a, at in
            let f = try lambda(a, 0, "reduce", at)
            let values = list(r).values
            guard let first = values.first else { return .none(.null) }
            return accumulate(f, first, Array(values.dropFirst()))
        },
        "fold": { r, a, at in
            guard a.count == 2 else { throw DSLFlow.failure("fold takes a start value and a lambda [ acc, x | … ]", at) }
            return accumulate(try lambda(a, 1, "fold", at), a[0], list(r).values)
        },
        "findFirst": { r, a, at in try find("findFirst", list(r).values, a, at) },
        "findLast": { r, a, at in try find("findLast", list(r).values.reversed(), a, at) },
        "exists": { r, a, at in
            let f = try lambda(a, 0, "exists", at)
            var found = false
            return .each(f, list(r).values, take: { v, _ throws(DSLFlow) in found = try truth(v, at); return !found }, result: { .bool(found) })
        },
        "forall": { r, a, at in
            let f = try lambda(a, 0, "forall", at)
            var all = true
            return .each(f, list(r).values, take: { v, _ throws(DSLFlow) in all = try truth(v, at); return all }, result: { .bool(all) })
        },
        "count": { r, a, at in
            guard !a.isEmpty else { return .none(.int(Int64(list(r).count))) }
            let f = try lambda(a, 0, "count", at)
            var n: Int64 = 0
            return .each(f, list(r).values, take: { v, _ throws(DSLFlow) in if try truth(v, at) { n += 1 }; return true }, result: { .int(n) })
        },
        "sortBy": { r, a, at in try keyed("sortBy", r, a, at) { .list(DSLList($0.map(\.1))) } },
        "maxBy": { r, a, at in try keyed("maxBy", r, a, at) { $0.last?.1 ?? .null } },
        "minBy": { r, a, at in try keyed("minBy", r, a, at) { $0.first?.1 ?? .null } },
        "sortWith": { r, a, at in
            let f = try lambda(a, 0, "sortWith", at)
            var values = list(r).values
            // Insertion sort with the comparator lambda (stable, as Java's List.sort): element k sinks while
            // the comparator says its left neighbour is greater.
            var k = 1, j = 1
            return DSLLambdaLoop(lambda: f, step: { last in
                if let last {
                    if let c = last.numeric, c.value > 0 { values.swapAt(j - 1, j); j -= 1 } else { k += 1; j = k }
                }
                while k < values.count {
                    if j > 0 { return [values[j - 1], values[j]] }
                    k += 1; j = k
                }
                return nil
            }, result: { .list(DSLList(values)) })
        },
    ]

    /// `filter` (`keep`: the elements the lambda says true for) and `reject` (false).
    private static func select(_ name: String, _ r: DSLValue, _ a: [DSLValue], _ at: DSLLocation, keep: Bool) throws(DSLFlow) -> DSLLambdaLoop {
        let f = try lambda(a, 0, name, at)
        let l = list(r), values = l.values
        var out: [DSLValue] = []
        return .each(f, values, take: { v, k throws(DSLFlow) in
            if try truth(v, at) == keep { out.append(values[k]) }
            return true
        }, result: { .list(DSLList(out, isSet: l.isSet)) })
    }

    /// `findFirst`/`findLast`: the first of `values` the lambda says true for.
    private static func find(_ name: String, _ values: [DSLValue], _ a: [DSLValue], _ at: DSLLocation) throws(DSLFlow) -> DSLLambdaLoop {
        let f = try lambda(a, 0, name, at)
        var found = DSLValue.null
        return .each(f, values, take: { v, k throws(DSLFlow) in
            guard try truth(v, at) else { return true }
            found = values[k]
            return false
        }, result: { found })
    }

    /// `reduce`/`fold`: the lambda called with the value so far and each element.
    private static func accumulate(_ f: DSLClosure, _ start: DSLValue, _ values: [DSLValue]) -> DSLLambdaLoop {
        var acc = start
        var next = 0
        var arguments: [DSLValue] = [.null, .null]  // rewritten in place for each call (see `DSLLambdaLoop.each`)
        return DSLLambdaLoop(lambda: f, step: { last in
            if let last { acc = last }
            guard next < values.count else { return nil }
            arguments[0] = acc
            arguments[1] = values[next]
            next += 1
            return arguments
        }, result: { acc })
    }

    /// `sortBy`/`maxBy`/`minBy`: the elements sorted by the lambda's key; `pick` gives the value.
    private static func keyed(_ name: String, _ r: DSLValue, _ a: [DSLValue], _ at: DSLLocation,
                              pick: @escaping ([(DSLValue, DSLValue)]) -> DSLValue) throws(DSLFlow) -> DSLLambdaLoop {
        let f = try lambda(a, 0, name, at)
        let values = list(r).values
        var keys: [(DSLValue, DSLValue)] = []
        return .each(f, values, take: { v, k in keys.append((v, values[k])); return true },
                     result: { () throws(DSLFlow) in pick(try sorted(keys, at)) })
    }

    static let listMethods: [String: DSLMethod] = [
        "filterNull": { _, r, _, _ in .list(DSLList(list(r).values.filter { if case .null = $0 { false } else { true } })) },
        "sort": { _, r, _, at in .list(DSLList(try sorted(list(r).values.map { ($0, $0) }, at).map(\.1))) },
        "max": { _, r, _, at in try sorted(list(r).values.map { ($0, $0) }, at).last?.1 ?? .null },
        "min": { _, r, _, at in try sorted(list(r).values.map { ($0, $0) }, at).first?.1 ?? .null },
        "head": { _, r, _, _ in list(r).values.first ?? .null },
        // java.util.Queue (a LinkedList as rules use one): peek and element look at the head, poll and
        // remove() take it (poll gives null on an empty queue), offer adds at the tail.
        "peek": { _, r, _, _ in list(r).values.first ?? .null },
        "element": { _, r, _, at in
            guard let first = list(r).values.first else { throw DSLFlow.failure("the queue is empty", at, type: "NoSuchElementException") }
            return first
        },
        "poll": { _, r, _, _ in
            try list(r).update { (v: inout [DSLValue]) throws(DSLFlow) -> DSLValue in v.isEmpty ? .null : v.removeFirst() }
        },
        "offer": { _, r, a, at in
            guard a.count == 1 else { throw DSLFlow.failure("offer takes one value", at) }
            try list(r).update { (v: inout [DSLValue]) throws(DSLFlow) in
                guard v.count < DSLLimits.maxCollectionSize else { throw DSLFlow.fatal("a list grew past \(DSLLimits.maxCollectionSize) elements; the run was ended (rules.dslValueTooLarge)", at) }
                v.append(a[0])
            }
            return .bool(true)
        },
        "getFirst": { _, r, _, _ in list(r).values.first ?? .null },
        "last": { _, r, _, _ in list(r).values.last ?? .null },
        "getLast": { _, r, _, _ in list(r).values.last ?? .null },
        "tail": { _, r, _, _ in .list(DSLList(Array(list(r).values.dropFirst()))) },
        "take": { _, r, a, at in .list(DSLList(Array(list(r).values.prefix(max(0, try index(a, 0, "take", at)))))) },
        "drop": { _, r, a, at in .list(DSLList(Array(list(r).values.dropFirst(max(0, try index(a, 0, "drop", at)))))) },
        "toList": { _, r, _, _ in .list(DSLList(list(r).values)) },
        "toSet": { _, r, _, _ in .list(DSLList(DSLLibrary.unique(list(r).values), isSet: true)) },
        "size": { _, r, _, _ in .int(Int64(list(r).count)) },
        "length": { _, r, _, _ in .int(Int64(list(r).count)) },
        "isEmpty": { _, r, _, _ in .bool(list(r).count == 0) },
        "isNullOrEmpty": { _, r, _, _ in .bool(list(r).count == 0) },
        "contains": { _, r, a, _ in .bool(a.count == 1 && list(r).values.contains { DSLOperators.equal($0, a[0]) }) },
        "indexOf": { _, r, a, _ in .int(Int64(list(r).values.firstIndex { DSLOperators.equal($0, a.first ?? .null) } ?? -1)) },
        "get": { _, r, a, at in
            let k = try index(a, 0, "get", at)
            let values = list(r).values
            guard k >= 0, k < values.count else { throw DSLFlow.failure("Index \(k) out of bounds for length \(values.count)", at, type: "IndexOutOfBoundsException") }
            return values[k]
        },
        "set": { _, r, a, at in
            guard a.count == 2 else { throw DSLFlow.failure("set takes an index and a value", at) }
            let k = try index(a, 0, "set", at)
            return try list(r).update { (v: inout [DSLValue]) throws(DSLFlow) -> DSLValue in
                guard k >= 0, k < v.count else { throw DSLFlow.failure("Index \(k) out of bounds for length \(v.count)", at, type: "IndexOutOfBoundsException") }
                let old = v[k]
                v[k] = a[1]
                return old
            }
        },
        "add": { _, r, a, at in
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
        "addAll": { _, r, a, at in
            let l = list(r)
            guard case .list(let other)? = a.first else { throw DSLFlow.failure("addAll takes a collection", at) }
            let more = other.values
            return try l.update { (v: inout [DSLValue]) throws(DSLFlow) -> DSLValue in
                for x in more where !(l.isSet && v.contains { DSLOperators.equal($0, x) }) { v.append(x) }
                try checkSize(v.count, at)
                return .bool(true)
            }
        },
        "remove": { _, r, a, at in
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
        "removeAll": { _, r, a, _ in
            guard case .list(let other)? = a.first else { return .bool(false) }
            let gone = other.values
            _ = try list(r).update { (v: inout [DSLValue]) throws(DSLFlow) in v.removeAll { x in gone.contains { DSLOperators.equal($0, x) } } }
            return .bool(true)
        },
        "clear": { _, r, _, _ in _ = try list(r).update { (v: inout [DSLValue]) throws(DSLFlow) in v.removeAll() }; return .null },
        "join": { i, r, a, at in try DSLOperators.checkedString(list(r).values.map(i.describe).joined(separator: a.first?.text ?? ""), at) },
        "reverse": { _, r, _, _ in .list(DSLList(list(r).values.reversed())) },
        "subList": { _, r, a, at in
            let values = list(r).values
            let from = try index(a, 0, "subList", at), to = try index(a, 1, "subList", at)
            guard from >= 0, to <= values.count, from <= to else { throw DSLFlow.failure("subList(\(from), \(to)) of \(values.count)", at, type: "IndexOutOfBoundsException") }
            return .list(DSLList(Array(values[from..<to])))
        },
        "getKey": { _, r, _, _ in list(r).values.first ?? .null },
        "getValue": { _, r, _, _ in list(r).values.count > 1 ? list(r).values[1] : .null },
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

    static let mapMethods: [String: DSLMethod] = [
        "put": { _, r, a, at in
            guard a.count == 2 else { throw DSLFlow.failure("put takes a key and a value", at) }
            let old = map(r).entries.first { DSLOperators.equal($0.key, a[0]) }?.value ?? .null
            try DSLLibrary.put(map(r), a[0], a[1], at)
            return old
        },
        "get": { _, r, a, _ in map(r).entries.first { DSLOperators.equal($0.key, a.first ?? .null) }?.value ?? .null },
        "getOrDefault": { _, r, a, at in
            guard a.count == 2 else { throw DSLFlow.failure("getOrDefault takes a key and a default", at) }
            return map(r).entries.first { DSLOperators.equal($0.key, a[0]) }?.value ?? a[1]
        },
        "containsKey": { _, r, a, _ in .bool(map(r).entries.contains { DSLOperators.equal($0.key, a.first ?? .null) }) },
        "containsValue": { _, r, a, _ in .bool(map(r).entries.contains { DSLOperators.equal($0.value, a.first ?? .null) }) },
        "remove": { _, r, a, _ in
            try map(r).update { (e: inout [DSLMap.Entry]) throws(DSLFlow) -> DSLValue in
                guard let k = e.firstIndex(where: { DSLOperators.equal($0.key, a.first ?? .null) }) else { return .null }
                return e.remove(at: k).value
            }
        },
        "keySet": { _, r, _, _ in .list(DSLList(map(r).entries.map(\.key), isSet: true)) },
        "values": { _, r, _, _ in .list(DSLList(map(r).entries.map(\.value))) },
        "entrySet": { _, r, _, _ in .list(DSLList(map(r).entries.map { .list(DSLList([$0.key, $0.value])) }, isSet: true)) },
        "size": { _, r, _, _ in .int(Int64(map(r).entries.count)) },
        "isEmpty": { _, r, _, _ in .bool(map(r).entries.isEmpty) },
        "clear": { _, r, _, _ in _ = try map(r).update { (e: inout [DSLMap.Entry]) throws(DSLFlow) in e.removeAll() }; return .null },
    ]

    static let mapLoops: [String: DSLLoopMethod] = [
        "forEach": { r, a, at in
            let f = try lambda(a, 0, "forEach", at)
            let entries = map(r).entries
            return .each(f, count: entries.count, width: 2, fill: { k, arguments in
                arguments[0] = entries[k].key
                arguments[1] = entries[k].value
            }, take: { _, _ in true }, result: { .null })
        },
    ]
}
