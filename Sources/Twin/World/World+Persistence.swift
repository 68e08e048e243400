import Rules
import ScenarioFormat
import Simulation
import SmartHome

extension World {
    /// Starts the scenario's persistence (`persistence`): the store records the chosen Items from now on,
    /// by the strategy, after restoring their newest states. Without `persistence` nothing is recorded.
    /// Rules query the store for the recorded Items.
    static func installPersistence(_ scenario: Scenario, runtime: OpenHABRuntime, store: PersistenceStore, rules: RuleEngine,
                                   services: [String: PersistenceStore] = [:], kernel: SimulationKernel? = nil) async {
        if let spec = scenario.persistence {
            let chosen = selectedItems(spec.items, in: await runtime.items.all())
            await store.record(runtime, items: chosen, strategy: spec.strategy, restoreOnStartup: spec.restoreOnStartup)
            rules.usePersistence(store, items: chosen)
        }
        guard !scenario.persistenceServices.isEmpty, let kernel else { return }
        let items = await runtime.items.all()
        var recorded: [String: (store: PersistenceStore, items: [ItemName])] = [:]
        for definition in scenario.persistenceServices {
            guard let serviceStore = services[definition.service] else { continue }
            var all: Set<ItemName> = []
            for configuration in definition.configurations {
                let chosen = selectedItems(configuration.selectors, in: items)
                all.formUnion(chosen)
                let strategies = configuration.strategies.isEmpty ? definition.defaults : configuration.strategies
                let filters = definition.filters.filter { configuration.filters.contains($0.name) }.map(\.kind)
                let chain = PersistenceFilterChain(filters)
                for name in strategies {
                    switch name {
                    case "everyChange": serviceStore.record(runtime, items: chosen, strategy: .everyChange, filters: chain)
                    case "everyUpdate": serviceStore.record(runtime, items: chosen, strategy: .everyUpdate, filters: chain)
                    case "restoreOnStartup", "forecast":
                        // The store is empty when the world starts: nothing to restore. Forecasts are stored by bindings.
                        break
                    default:
                        guard let cron = definition.cronStrategies.first(where: { $0.name == name }),
                              let expression = try? CronExpression(cron.cron) else { continue }
                        scheduleCron(expression, items: chosen, store: serviceStore, filters: chain, runtime: runtime, kernel: kernel,
                                     calendar: scenario.calendar, label: "\(definition.service).persist \(name)")
                    }
                }
            }
            recorded[definition.service] = (serviceStore, all.sorted())
        }
        let ids = recorded.keys.sorted()
        rules.usePersistenceServices(recorded, defaultService: ids.contains("rrd4j") ? "rrd4j" : ids.first)
    }

    /// The stores of the `.persist` services by id (mapdb keeps only each Item's last state, as in openHAB).
    static func persistenceServiceStores(_ scenario: Scenario) -> [String: PersistenceStore] {
        var stores: [String: PersistenceStore] = [:]
        for definition in scenario.persistenceServices {
            stores[definition.service] = PersistenceStore(maxEntriesPerItem: definition.service == "mapdb" ? 1 : 100_000)
        }
        return stores
    }

    /// The store `World.persistenceStore` hands out (`serve`'s `/rest/persistence`): the scenario's `persistence`,
    /// else the default `.persist` service.
    static func defaultPersistenceStore(_ scenario: Scenario, services: [String: PersistenceStore]) -> PersistenceStore {
        if scenario.persistence == nil, !services.isEmpty {
            let ids = services.keys.sorted()
            if let store = services[ids.contains("rrd4j") ? "rrd4j" : ids[0]] { return store }
        }
        return PersistenceStore(maxEntriesPerItem: scenario.persistence?.maxStatesPerItem ?? 100_000)
    }

    /// A cron strategy: every firing stores the chosen Items' current states (through the filters).
    private static func scheduleCron(_ expression: CronExpression, items: [ItemName], store: PersistenceStore, filters: PersistenceFilterChain,
                                     runtime: OpenHABRuntime, kernel: SimulationKernel, calendar: LocalCalendar, label: String) {
        guard let first = expression.nextFire(after: kernel.now, in: calendar) else { return }
        kernel.schedule(at: first, then: { expression.nextFire(after: $0, in: calendar) }, label: label) { now in
            for name in items {
                // The persistence services (rrd4j, mapdb, influxdb, jdbc …) store no NULL or UNDEF.
                guard let state = runtime.items.current(name)?.state, state != .null, state != .undef else { continue }
                if filters.admit(name, state, at: now) { store.store(name, state, at: now) }
            }
        }
    }

    /// The Items `selectors` name, as a `.persist` file reads them: `*` every Item, `gName*` every Item below
    /// the Group (members of member Groups too, the Groups themselves not), otherwise the Item itself.
    static func selectedItems(_ selectors: [PersistenceSelector], in items: [Item]) -> [ItemName] {
        var included: [String] = []
        var excluded: [String] = []
        for selector in selectors {
            switch selector {
            case .all: included.append("*")
            case .item(let name): included.append(name)
            case .group(let group): included.append("\(group)*")
            case .excludeItem(let name): excluded.append(name)
            case .excludeGroup(let group): excluded.append("\(group)*")
            }
        }
        let out = Set(selectedItems(excluded, in: items))
        return selectedItems(included, in: items).filter { !out.contains($0) }
    }

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
