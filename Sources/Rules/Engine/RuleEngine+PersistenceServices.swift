import SmartHome

extension RuleEngine {
    /// Gives rules the persistence services of the scenario's `.persist` files (one per service id: `rrd4j`,
    /// `mapdb`, …) and the default service, which a query without a service id reads, as openHAB's
    /// `PersistenceServiceRegistry.getDefault()` (before ``start()``). The scenario's `persistence` key, given
    /// through ``usePersistence(_:items:)``, stays one more service: it answers a service id no file defines.
    public func usePersistenceServices(_ services: [String: (store: PersistenceStore, items: [ItemName])], defaultService: String?) {
        persistenceServices.withLock { $0 = (services.mapValues { ($0.store, Set($0.items)) }, defaultService) }
    }

    /// Why a persistence query finds no store.
    public enum PersistenceRefusal: Error, Sendable {
        /// The service records other Items.
        case notPersisted(service: String?)
        /// No service has this id.
        case unknownService(String, known: [String])
    }

    /// The store a query of `item` reads: the named `service`, else the default service, as openHAB picks it.
    public func persistence(for item: ItemName, service: String?) -> Result<PersistenceStore, PersistenceRefusal> {
        let (services, defaultService) = persistenceServices.withLock { $0 }
        let scenarioStore = persistenceAccess.withLock { $0 }
        guard !services.isEmpty else {
            // Only the scenario's `persistence`: it is every service (the twin had one store before `.persist` files).
            if let scenarioStore, scenarioStore.items.contains(item) { return .success(scenarioStore.store) }
            return .failure(.notPersisted(service: nil))
        }
        func answer(_ chosen: (store: PersistenceStore, items: Set<ItemName>), _ id: String?) -> Result<PersistenceStore, PersistenceRefusal> {
            chosen.items.contains(item) ? .success(chosen.store) : .failure(.notPersisted(service: id))
        }
        if let service {
            if let chosen = services[service] { return answer(chosen, service) }
            // The scenario's `persistence` answers an id no `.persist` file defines.
            if let scenarioStore { return answer(scenarioStore, nil) }
            return .failure(.unknownService(service, known: services.keys.sorted()))
        }
        // No id: the scenario's `persistence` when it has one, else the default service.
        if let scenarioStore { return answer(scenarioStore, nil) }
        if let defaultService, let chosen = services[defaultService] { return answer(chosen, defaultService) }
        return .failure(.unknownService("", known: services.keys.sorted()))
    }
}
