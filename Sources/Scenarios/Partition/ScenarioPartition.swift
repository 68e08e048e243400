import ScenarioFormat
import Simulation

/// How a scenario splits by listing into parts that run apart and merge into exactly the output of one
/// run (`rental-twin run --jobs N`, `--partition K/N`, `rental-twin merge`).
///
/// Listings are independent unless something in the file couples them; coupled listings stay in one
/// part (a connected component of the coupling graph). What couples:
/// - a reservation id that two listings' `book` steps use (the second is refused as a duplicate, which
///   depends on the first);
/// - rules (`rules`, `ruleFiles`) and virtual Items (`items`): a rule can name any Item, a Rules DSL
///   script can build Item names at run time, and a Group can hold members of several listings — so a
///   scenario with either runs every listing in one part.
///
/// What does not couple, because nothing in a world reads across listings through it: a guest who
/// books several listings (the booking service checks overlaps per listing, a rating per stay, a lock
/// per listing's reservations), the weather (each city's weather is seeded by city and hour), the
/// users (every part has all of them), the weather watcher (one recurring run per time zone that acts
/// on each listing on its own). A city-wide step (`weather`, `feed`) goes to every part with a
/// listing in that city and counts once in the merged result. Steps and expectations that name no
/// listing (an unknown reservation, a rule) go with the first part.
public struct ScenarioPartition: Sendable, Equatable {
    /// One part: its listings (ids in the scenario's order) and which of the scenario's timeline steps
    /// and expectations it runs, as indices into the whole scenario's arrays (ascending).
    public struct Part: Sendable, Equatable {
        /// The listing ids of the part, in the order the scenario lists them.
        public let listings: [String]
        /// Indices of the timeline steps the part runs, ascending.
        public let steps: [Int]
        /// Indices of the expectations the part checks, ascending.
        public let expectations: [Int]
        /// Indices (among ``steps``) of city-wide steps that other parts run too: counted once in a merge.
        public let sharedSteps: [Int]
    }

    /// The parts, in order (part 1 first). Each holds at least one listing.
    public let parts: [Part]
    /// Sentences for `--log`: how many components, and what coupled listings.
    public let notes: [String]

    /// Splits `scenario` into at most `count` parts (fewer when it has fewer independent components).
    ///
    /// Components are dealt largest first (by listing count, ties by their first listing's position)
    /// onto the part with the fewest listings so far (ties: the lower part number), so the split depends
    /// only on the file and `count`.
    public static func plan(_ scenario: Scenario, parts count: Int) -> ScenarioPartition {
        plan(scenario) { components in deal(components.map(\.count), into: count) }
    }

    /// The plan of ``plan(_:parts:)`` with its part `part` (1-based) split again into at most `subparts`
    /// parts the same way, the other parts as they are: the refined plan, and the numbers (1-based) of the
    /// parts `part` became, in order. The scenario must have `count` parts (``plan(_:parts:)``). Every part keeps its steps and expectations, so the refined parts of
    /// `part` run together as `part` runs (``PortfolioRun/runPartition(_:part:of:jobs:world:withLog:directory:progress:)``).
    static func plan(_ scenario: Scenario, parts count: Int, splitting part: Int, into subparts: Int) -> (plan: ScenarioPartition, parts: [Int]) {
        let refined = plan(scenario) { components in
            let whole = deal(components.map(\.count), into: count)
            let inPart = components.indices.filter { whole[$0] == part - 1 }
            let sub = deal(inPart.map { components[$0].count }, into: subparts)
            var assignment = whole.map { $0 * (subparts + 1) }
            for (k, index) in inPart.enumerated() { assignment[index] += sub[k] }
            return assignment
        }
        // Every other part stays one part (the caller checks the scenario has `count` parts), so `part`
        // became the parts from its own number on.
        let became = refined.parts.count - count + 1
        return (refined, Array(part..<(part + became)))
    }

    /// Components (by listing count) dealt largest first (ties by position) onto the part with the fewest
    /// listings so far (ties: the lower part number): each component's part, 0-based, fewer than `count`.
    private static func deal(_ sizes: [Int], into count: Int) -> [Int] {
        let partCount = max(1, min(count, sizes.count))
        var load = [Int](repeating: 0, count: partCount)
        var assignment = [Int](repeating: 0, count: sizes.count)
        for index in sizes.indices.sorted(by: { (sizes[$0], -$0) > (sizes[$1], -$1) }) {
            let target = load.indices.min { (load[$0], $0) < (load[$1], $1) } ?? 0
            load[target] += sizes[index]
            assignment[index] = target
        }
        return assignment
    }

    /// Splits `scenario` by `assign`, which is given the components (listing indices, each component in
    /// the scenario's order, components ordered by their first listing) and returns each one's part
    /// (0-based; parts without a component are dropped, the others keep their order).
    static func plan(_ scenario: Scenario, assign: ([[Int]]) -> [Int]) -> ScenarioPartition {
        let listingIDs = scenario.listings.map(\.id)
        var position: [String: Int] = [:]
        for (index, id) in listingIDs.enumerated() where position[id] == nil { position[id] = index }
        var links = UnionFind(count: listingIDs.count)
        var notes: [String] = []

        // Reservation ids → the listings whose `book` steps use them.
        var reservationListings: [String: [Int]] = [:]
        for step in scenario.timeline {
            if case .book(let id, _, let listing, _, _, _) = step.action, let index = position[listing] {
                reservationListings[id, default: []].append(index)
            }
        }
        for (reservation, indices) in reservationListings.sorted(by: { $0.key < $1.key }) where Set(indices).count > 1 {
            for index in indices.dropFirst() { links.union(indices[0], index) }
            let names = Set(indices).sorted().map { listingIDs[$0] }
            notes.append("reservation \(reservation) is booked at \(names.joined(separator: ", ")): one part")
        }
        let coupledByRules = !scenario.rules.isEmpty || !scenario.ruleFiles.isEmpty || !scenario.items.isEmpty
        if coupledByRules, listingIDs.count > 1 {
            for index in listingIDs.indices.dropFirst() { links.union(0, index) }
            notes.append("the scenario has rules or virtual Items, which can reach any listing's Items: every listing in one part")
        }

        /// The listing (index) a step or expectation belongs to; nil for city-wide or unanchored ones.
        func listing(ofItem path: String) -> Int? {
            guard let slash = path.firstIndex(of: "/") else { return nil }
            return position[String(path[..<slash])]
        }
        func listing(ofReservation id: String) -> Int? { reservationListings[id]?.first }
        func anchor(_ action: Step.Action) -> Int? {
            switch action {
            case .book(_, _, let listing, _, _, _), .rate(_, let listing, _, _): position[listing]
            case .cancel(let r), .arrive(let r), .depart(let r), .message(_, let r, _): listing(ofReservation: r)
            case .unlock(let item, _), .lock(let item, _), .command(let item, _), .update(let item, _): listing(ofItem: item)
            case .thing(let thing, _): listing(ofItem: thing)
            case .weather, .feed, .runRule, .enableRule, .trigger: nil
            }
        }
        func anchor(_ check: Expectation.Check) -> Int? {
            switch check {
            case .itemState(let item, _), .itemBetween(let item, _, _): listing(ofItem: item)
            case .reservationStatus(let r, _): listing(ofReservation: r)
            case .energy(let listing, _, _, _, _, _), .discomfort(let listing, _, _, _): position[listing]
            case .ruleRuns, .outbox: nil
            }
        }

        // Components, each in the scenario's listing order, ordered by their first listing.
        var members: [Int: [Int]] = [:]
        for index in listingIDs.indices { members[links.find(index), default: []].append(index) }
        let components = members.values.sorted { $0[0] < $1[0] }
        let given = assign(components)
        let used = Set(given).sorted()
        let renumber = Dictionary(uniqueKeysWithValues: used.enumerated().map { ($0.element, $0.offset) })
        let partCount = max(1, used.count)
        var partOf = [Int](repeating: 0, count: listingIDs.count)
        var partListings = [[Int]](repeating: [], count: partCount)
        for (index, component) in components.enumerated() {
            let target = renumber[given[index]] ?? 0
            for listing in component { partOf[listing] = target }
            partListings[target].append(contentsOf: component)
        }
        if listingIDs.isEmpty { partListings = [[]] }
        let firstPart = listingIDs.isEmpty ? 0 : partOf[0]

        var steps = [[Int]](repeating: [], count: partCount)
        var shared = [[Int]](repeating: [], count: partCount)
        for (index, step) in scenario.timeline.enumerated() {
            switch step.action {
            case .weather(let city, _, _, _, _), .feed(let city, _):
                let targets = Set(scenario.listings.indices.filter { scenario.listings[$0].city == city }.map { partOf[$0] })
                let chosen = targets.isEmpty ? [firstPart] : targets.sorted()
                for part in chosen {
                    steps[part].append(index)
                    if chosen.count > 1 { shared[part].append(index) }
                }
            default:
                steps[anchor(step.action).map { partOf[$0] } ?? firstPart].append(index)
            }
        }
        var expectations = [[Int]](repeating: [], count: partCount)
        for (index, expectation) in scenario.expectations.enumerated() {
            expectations[anchor(expectation.check).map { partOf[$0] } ?? firstPart].append(index)
        }
        // The notes describe the scenario, not the split, so a log says the same for any number of parts.
        notes.insert("\(listingIDs.count) listing(s) in \(components.count) independent group(s)", at: 0)
        let parts = (0..<partCount).map { part in
            Part(listings: partListings[part].sorted().map { listingIDs[$0] }, steps: steps[part], expectations: expectations[part],
                 sharedSteps: shared[part])
        }
        return ScenarioPartition(parts: parts, notes: notes)
    }
}

extension Scenario {
    /// The scenario a part runs: its listings, its steps and expectations (in file order, keeping their
    /// paths and lines), and everything shared whole — users, weather, cities, automations, tariff.
    public func restricted(to part: ScenarioPartition.Part) -> Scenario {
        var copy = self
        let kept = Set(part.listings)
        copy.listings = listings.filter { kept.contains($0.id) }
        copy.timeline = part.steps.map { timeline[$0] }
        copy.expectations = part.expectations.map { expectations[$0] }
        return copy
    }
}

/// Disjoint sets over `0..<count` (path halving, union by index).
private struct UnionFind {
    private var parent: [Int]

    init(count: Int) { parent = Array(0..<count) }

    mutating func find(_ x: Int) -> Int {
        var x = x
        while parent[x] != x {
            parent[x] = parent[parent[x]]
            x = parent[x]
        }
        return x
    }

    mutating func union(_ a: Int, _ b: Int) {
        let (ra, rb) = (find(a), find(b))
        if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
    }
}
