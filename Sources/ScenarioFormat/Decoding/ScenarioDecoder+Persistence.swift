import SmartHome

extension ScenarioDecoder {
    /// `persistence`: `{"items": ["*"], "strategy": "everyChange", "restoreOnStartup": true, "maxStatesPerItem": 100000}`.
    static func decodePersistence(_ field: Field) -> PersistenceSpec? {
        guard let o = field.object(["items", "strategy", "restoreOnStartup", "maxStatesPerItem"]) else { return nil }
        let items = o.required("items")?.array?.compactMap(\.name)
        var strategy = PersistenceStrategy.everyChange
        if let f = o.optional("strategy"), let text = f.name {
            if let s = PersistenceStrategy(rawValue: text) { strategy = s } else {
                f.problem("\"\(text)\" is not a strategy the twin's persistence runs.",
                          hint: "use \(PersistenceStrategy.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")).")
            }
        }
        let restore = o.optional("restoreOnStartup")?.bool ?? true
        var limit = 100_000
        if let f = o.optional("maxStatesPerItem"), let n = f.integer {
            if (2...10_000_000).contains(n) { limit = n } else { f.problem("must be between 2 and 10000000 (states kept per Item).") }
        }
        guard let items else { return nil }
        return PersistenceSpec(items: items, strategy: strategy, restoreOnStartup: restore, maxStatesPerItem: limit, path: o.path)
    }
}
