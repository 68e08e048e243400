import Rules
import ScenarioFormat
import Simulation
import SmartHome

extension World {
    /// Starts the scenario's persistence (`persistence`): the store records the chosen Items from now on,
    /// by the strategy, after restoring their newest states. Without `persistence` nothing is recorded.
    /// Rules query the store for the recorded Items.
    static func installPersistence(_ scenario: Scenario, runtime: OpenHABRuntime, store: PersistenceStore, rules: RuleEngine) async {
        guard let spec = scenario.persistence else { return }
        let chosen = selectedItems(spec.items, in: await runtime.items.all())
        await store.record(runtime, items: chosen, strategy: spec.strategy, restoreOnStartup: spec.restoreOnStartup)
        rules.usePersistence(store, items: chosen)
    }

    /// The Items `selectors` name, as a `.persist` file reads them: `*` every Item, `gName*` every Item below
    /// the Group (members of member Groups too, the Groups themselves not), otherwise the Item itself.
    static func selectedItems(_ selectors: [String], in items: [Item]) -> [ItemName] {
        var chosen: Set<ItemName> = []
        var membersOf: [String: [Item]] = [:]
        for item in items { for group in item.groupNames { membersOf[group, default: []].append(item) } }
        for selector in selectors {
            if selector == "*" {
                chosen.formUnion(items.map(\.name))
            } else if selector.hasSuffix("*") {
                var pending = membersOf[String(selector.dropLast())] ?? []
                var seen: Set<String> = [String(selector.dropLast())]
                while let item = pending.popLast() {
                    if case .groupItem = item.type {
                        if seen.insert(item.name.description).inserted { pending += membersOf[item.name.description] ?? [] }
                    } else {
                        chosen.insert(item.name)
                    }
                }
            } else if let name = try? ItemName(selector) {
                chosen.insert(name)
            }
        }
        return chosen.sorted()
    }
}
