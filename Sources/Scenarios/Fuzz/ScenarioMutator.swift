import ScenarioFormat
import Simulation

/// Structure-aware mutations of a scenario's JSON tree, driven by one seeded ``SplitMix64``: the
/// same generator state and tree always give the same mutant.
///
/// Each mutation picks a node (uniformly over the tree, or a timeline step) and changes it the way
/// a careless or hostile author would: numbers to extremes, scaled, negated or quoted (`"NaN"`);
/// strings to other ids of the corpus, edge dates and durations, control characters, long or empty
/// text; keys renamed, dropped, duplicated or added; array elements dropped, duplicated, swapped or
/// repeated; values replaced by another type or a subtree of any seed scenario; steps moved to
/// another step's instant or given another step's action.
struct ScenarioMutator {
    var random: SplitMix64
    let dictionary: FuzzDictionary

    /// One to four stacked mutations of `root` (one in half the cases, so that more mutants get past
    /// the validator and run).
    mutating func mutate(_ root: JSONNode) -> JSONNode {
        var node = root
        for _ in 0..<(chance(0.5) ? 1 : 2 + pick(3)) {
            node = chance(0.15) ? mutateStep(node) : mutateAnywhere(node)
        }
        // A mutation can change nothing (a number set to the value it had); mutate again, a few times at most.
        for _ in 0..<8 where node == root { node = mutateAnywhere(node) }
        return node
    }

    // MARK: Randomness

    private mutating func pick(_ count: Int) -> Int { count <= 1 ? 0 : Int(random.next() % UInt64(count)) }
    private mutating func chance(_ p: Double) -> Bool { random.nextUnit() < p }
    private mutating func element<T>(_ array: [T]) -> T? { array.isEmpty ? nil : array[pick(array.count)] }

    // MARK: Tree surgery

    /// Child indices from the root to every node (the root is `[]`).
    private static func paths(_ node: JSONNode, prefix: [Int] = [], into result: inout [[Int]]) {
        result.append(prefix)
        switch node.value {
        case .array(let elements): for (i, e) in elements.enumerated() { paths(e, prefix: prefix + [i], into: &result) }
        case .object(let members): for (i, m) in members.enumerated() { paths(m.value, prefix: prefix + [i], into: &result) }
        default: break
        }
    }

    private static func node(_ root: JSONNode, at path: ArraySlice<Int>) -> JSONNode {
        guard let first = path.first else { return root }
        switch root.value {
        case .array(let elements): return node(elements[first], at: path.dropFirst())
        case .object(let members): return node(members[first].value, at: path.dropFirst())
        default: return root
        }
    }

    private static func replacing(_ root: JSONNode, at path: ArraySlice<Int>, with new: JSONNode) -> JSONNode {
        guard let first = path.first else { return new }
        switch root.value {
        case .array(var elements):
            elements[first] = replacing(elements[first], at: path.dropFirst(), with: new)
            return root.with(.array(elements))
        case .object(var members):
            let m = members[first]
            members[first] = JSONNode.Member(key: m.key, keyLine: m.keyLine, value: replacing(m.value, at: path.dropFirst(), with: new))
            return root.with(.object(members))
        default: return root
        }
    }

    private mutating func mutateAnywhere(_ root: JSONNode) -> JSONNode {
        var all: [[Int]] = []
        Self.paths(root, into: &all)
        let path = all[pick(all.count)]
        return Self.replacing(root, at: path[...], with: mutateNode(Self.node(root, at: path[...])))
    }

    // MARK: Node mutations

    private mutating func mutateNode(_ node: JSONNode) -> JSONNode {
        if chance(0.12) { return replaceKind(node) }
        switch node.value {
        case .number(let value, let text): return node.with(mutateNumber(value, text: text))
        case .string(let s): return node.with(.string(mutateString(s)))
        case .bool(let b): return node.with(chance(0.7) ? .bool(!b) : .null)
        case .null: return replaceKind(node)
        case .array(let elements): return node.with(.array(mutateArray(elements)))
        case .object(let members): return node.with(.object(mutateObject(members)))
        }
    }

    /// Another type, or a subtree of some seed scenario.
    private mutating func replaceKind(_ node: JSONNode) -> JSONNode {
        switch pick(7) {
        case 0: return node.with(.null)
        case 1: return node.with(.bool(chance(0.5)))
        case 2: return node.with(.number(0, text: "0"))
        case 3: return node.with(.string(""))
        case 4: return node.with(.array([]))
        case 5: return node.with(.object([]))
        default: return element(dictionary.nodes) ?? node
        }
    }

    private mutating func mutateNumber(_ value: Double, text: String) -> JSONNode.Value {
        func number(_ v: Double) -> JSONNode.Value {
            guard v.isFinite else { return .number(1e308, text: "1e308") }
            let t = v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)"
            return .number(v, text: t)
        }
        switch pick(7) {
        case 0, 1:
            let t = element(FuzzDictionary.extremeNumbers) ?? "0"
            return .number(Double(t) ?? .infinity, text: t)  // "1e999" stays as text: the parser must refuse it
        case 2:
            var exponent = Double(pick(25) - 12)
            if exponent == 0 { exponent = 3 }
            return number(value * pow10(exponent))
        case 3: return number(-value)
        case 4: return number(value + (chance(0.5) ? 1 : -1))
        case 5: return number(value + (random.nextUnit() - 0.5) * max(1, abs(value)))
        default: return .string(element(FuzzDictionary.nonFiniteTexts) ?? "NaN")
        }
    }

    private func pow10(_ e: Double) -> Double {
        var result = 1.0
        for _ in 0..<Int(abs(e)) { result *= 10 }
        return e < 0 ? 1 / result : result
    }

    private mutating func mutateString(_ s: String) -> String {
        if FuzzDictionary.looksLikeInstant(s), chance(0.6) { return mutateInstant(s) }
        if s.hasPrefix("P"), chance(0.6) { return element(FuzzDictionary.durations) ?? s }
        switch pick(7) {
        case 0, 1: return element(dictionary.strings) ?? s
        case 2: return element(FuzzDictionary.hostileStrings) ?? s
        case 3: return element(FuzzDictionary.nonFiniteTexts) ?? s
        case 4: return String(repeating: s.isEmpty ? "x" : s, count: 1 + pick(200))
        case 5: return s + (element(["\u{1B}[0m", "\u{0}", "\n", " ", "é", "\u{202E}"]) ?? "")
        default:
            var chars = Array(s)
            guard !chars.isEmpty else { return "x" }
            let i = pick(chars.count)
            switch pick(3) {
            case 0: chars.remove(at: i)
            case 1: chars.insert(chars[i], at: i)
            default: chars[i] = element(Array("aZ0-_/.: ")) ?? "a"
            }
            return String(chars)
        }
    }

    /// Another instant of the corpus, or one part of this one set to an edge value.
    private mutating func mutateInstant(_ s: String) -> String {
        if chance(0.3), let other = element(dictionary.instants) { return other }
        var chars = Array(s)
        let (range, values): (Range<Int>, [String]) = switch pick(5) {
        case 0: (0..<4, FuzzDictionary.years)
        case 1: (5..<7, FuzzDictionary.months)
        case 2: (8..<10, FuzzDictionary.days)
        case 3: (11..<13, FuzzDictionary.hours)
        default: (14..<16, FuzzDictionary.minutes)
        }
        chars.replaceSubrange(range, with: Array(element(values) ?? ""))
        return String(chars)
    }

    private mutating func mutateArray(_ elements: [JSONNode]) -> [JSONNode] {
        var e = elements
        guard !e.isEmpty else { return element(dictionary.nodes).map { [$0] } ?? [] }
        switch pick(6) {
        case 0: e.remove(at: pick(e.count))
        case 1: e.insert(e[pick(e.count)], at: pick(e.count + 1))
        case 2: e.swapAt(pick(e.count), pick(e.count))
        case 3: e = []
        case 4: e += Array(repeating: e[pick(e.count)], count: 1 + pick(20))
        default: if let splice = element(dictionary.nodes) { e.insert(splice, at: pick(e.count + 1)) }
        }
        return e
    }

    private mutating func mutateObject(_ members: [JSONNode.Member]) -> [JSONNode.Member] {
        var m = members
        guard !m.isEmpty else { return m }
        let i = pick(m.count)
        switch pick(6) {
        case 0: m.remove(at: i)
        case 1: m.insert(m[i], at: pick(m.count + 1))  // a duplicate key
        case 2:
            let key = chance(0.7) ? (element(dictionary.keys) ?? m[i].key) : mutateString(m[i].key)
            m[i] = JSONNode.Member(key: key, keyLine: m[i].keyLine, value: m[i].value)
        case 3:
            if let key = element(dictionary.keys), let value = element(dictionary.nodes), !m.contains(where: { $0.key == key }) {
                m.append(JSONNode.Member(key: key, keyLine: m[i].keyLine, value: value))
            }
        case 4:
            let j = pick(m.count)
            let (a, b) = (m[i].value, m[j].value)
            m[i] = JSONNode.Member(key: m[i].key, keyLine: m[i].keyLine, value: b)
            m[j] = JSONNode.Member(key: m[j].key, keyLine: m[j].keyLine, value: a)
        default: m.swapAt(i, pick(m.count))
        }
        return m
    }

    // MARK: Steps

    /// A timeline step moved to another step's instant, given another step's action, or duplicated.
    private mutating func mutateStep(_ root: JSONNode) -> JSONNode {
        guard case .object(var members) = root.value, let t = members.firstIndex(where: { $0.key == "timeline" }),
              case .array(var steps) = members[t].value.value, !steps.isEmpty else { return mutateAnywhere(root) }
        let i = pick(steps.count), j = pick(steps.count)
        guard case .object(var a) = steps[i].value, case .object(let b) = steps[j].value else { return mutateAnywhere(root) }
        switch pick(4) {
        case 0:  // take the other step's instant
            if let at = b.first(where: { $0.key == "at" }), let k = a.firstIndex(where: { $0.key == "at" }) {
                a[k] = JSONNode.Member(key: "at", keyLine: a[k].keyLine, value: at.value)
            }
            steps[i] = steps[i].with(.object(a))
        case 1:  // take the other step's action (every member but `at`)
            let at = a.filter { $0.key == "at" }
            steps[i] = steps[i].with(.object(at + b.filter { $0.key != "at" }))
        case 2:  // the same step twice
            steps.insert(steps[i], at: j)
        default:  // the other step's action at this step's instant, added
            let at = a.filter { $0.key == "at" }
            steps.insert(steps[i].with(.object(at + b.filter { $0.key != "at" })), at: i)
        }
        members[t] = JSONNode.Member(key: "timeline", keyLine: members[t].keyLine, value: members[t].value.with(.array(steps)))
        return root.with(.object(members))
    }
}

extension JSONNode {
    /// This node with another value (same position, for messages).
    func with(_ value: Value) -> JSONNode { JSONNode(value: value, line: line, column: column) }
}
