/// What one `.persist` file configures: one persistence service (the file name without `.persist` is its
/// id: `rrd4j`, `mapdb`, `influxdb`, `jdbc`, …), as openhab-core's `PersistenceModelManager` reads it.
public struct PersistenceFileDefinition: Sendable, Hashable {
    /// The service id (the file's name).
    public var service: String
    /// `Strategies { name : "cron" }`, in file order.
    public var cronStrategies: [CronStrategyDefinition]
    /// `Strategies { default = everyChange }` (openHAB 4 and before): the strategies of Items that name none.
    public var defaults: [String]
    /// `Filters { name : … }`, in file order.
    public var filters: [PersistenceFilterDefinition]
    /// `Items { … }`, in file order.
    public var configurations: [PersistenceItemConfiguration]
    /// `Aliases { Item -> alias }`: the name the Item has in the service's database.
    public var aliases: [String: String]
}

/// `name : "0 0 * * * ?"`.
public struct CronStrategyDefinition: Sendable, Hashable {
    public var name: String
    public var cron: String
    public var line: Int
    public var column: Int
}

/// One `Items` line: `selectors : strategy = a, b filter = f, g`.
public struct PersistenceItemConfiguration: Sendable, Hashable {
    public var selectors: [PersistenceSelector]
    /// Strategy names as written (global or cron); empty: the file's defaults.
    public var strategies: [String]
    /// Filter names as written.
    public var filters: [String]
    public var line: Int
    public var column: Int
}

/// Which Items an `Items` line names.
public enum PersistenceSelector: Sendable, Hashable {
    /// `*`: every Item.
    case all
    /// `Item`.
    case item(String)
    /// `gGroup*`: every Item below the Group (not the Groups themselves).
    case group(String)
    /// `!Item`.
    case excludeItem(String)
    /// `!gGroup*`.
    case excludeGroup(String)
}

/// `name : <definition>`: a filter an Items line may name.
public struct PersistenceFilterDefinition: Sendable, Hashable {
    public var name: String
    public var kind: PersistenceFilterKind
    public var line: Int
    public var column: Int
}

/// The filters of openhab-core (`org.openhab.core.persistence.filter`).
public enum PersistenceFilterKind: Sendable, Hashable {
    /// `> [%] value [unit]`: store a number only when it moved more than `value` (or `value` percent) from
    /// the last stored one (`PersistenceThresholdFilter`).
    case threshold(value: Double, relative: Bool, unit: String?)
    /// `T value s|m|h|d`: store at most once per period (`PersistenceTimeFilter`).
    case time(seconds: Int64)
    /// `= "a", "b"`: store only these states (`PersistenceEqualsFilter`); `! "a"` all but these.
    case equals([String], inverted: Bool)
    /// `[] lower upper [unit]`: store only numbers in the range (inclusive); `][` only numbers outside it
    /// (`PersistenceIncludeFilter`).
    case include(lower: Double, upper: Double, unit: String?, inverted: Bool)
}

extension PersistenceFileDefinition {
    /// The Items the file persists, as the scenario's `persistence.items` writes selectors (`*`, `gName*`, a
    /// name), exclusions left out: what the validator checks a rule's persistence reads against.
    public var selectorTexts: [String] {
        configurations.flatMap(\.selectors).compactMap { selector in
            switch selector {
            case .all: "*"
            case .group(let g): "\(g)*"
            case .item(let i): i
            case .excludeItem, .excludeGroup: nil
            }
        }
    }
}
