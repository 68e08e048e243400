import Simulation

/// An openHAB Item: the virtual layer a user or a service reads and commands.
public struct Item: Sendable, Hashable {
    /// The unique name.
    public let name: ItemName
    /// The type, which decides accepted states and commands.
    public var type: ItemType { didSet { unit = Self.unit(type: type, aggregation: aggregation, metadata: metadata) } }
    /// A human-readable label.
    public var label: String?
    /// The icon category, e.g. `temperature`.
    public var category: String?
    /// Semantic tags, e.g. `Setpoint`, kept sorted.
    public var tags: [String]
    /// Groups this Item belongs to.
    public var groupNames: [String]
    /// The current state (`NULL` for a fresh Item).
    public var state: State
    /// The state before the last change (`nil` until the first change), as openHAB's `getLastState()`.
    public var lastState: State?
    /// When the state was last updated, changed or not (`nil` before the first update).
    public var lastStateUpdate: SimInstant?
    /// When the state last changed (`nil` before the first change).
    public var lastStateChange: SimInstant?
    /// Metadata by namespace (`unit`, `autoupdate`, …), as openHAB's metadata registry keeps it per Item.
    public var metadata: [String: ItemMetadata] {
        didSet { unit = Self.unit(type: type, aggregation: aggregation, metadata: metadata) }
    }
    /// Whether the Item was created through the API (editable); file-defined Items are not.
    public var isManaged: Bool
    /// A Group's base type and aggregation function (`Group:Switch:OR(ON,OFF)`); `nil` for a Group without
    /// a base type and for every other Item.
    public var aggregation: GroupAggregation? = nil {
        didSet { unit = Self.unit(type: type, aggregation: aggregation, metadata: metadata) }
    }
    /// The state pattern of the label (`%.1f °C` of `[%.1f °C]`), openHAB's state description pattern.
    public var statePattern: String? = nil

    /// A fresh Item in state `NULL`.
    public init(name: ItemName, type: ItemType, label: String? = nil, category: String? = nil,
                tags: [String] = [], groupNames: [String] = [], metadata: [String: ItemMetadata] = [:], isManaged: Bool = true) {
        self.name = name
        self.type = type
        self.label = label
        self.category = category
        self.tags = tags.sorted()
        self.groupNames = groupNames
        self.state = .null
        self.metadata = metadata
        self.isManaged = isManaged
        self.unit = Self.unit(type: type, aggregation: nil, metadata: metadata)
    }

    /// The unit a `Number:Dimension` Item holds its state in: the `unit` metadata when it names a unit
    /// of the Item's dimension (openHAB's `NumberItem.getUnit()`), else the dimension's default
    /// (°C, W, kWh, and ONE for `Number:Dimensionless`); `nil` for other types.
    ///
    /// Worked out whenever ``type``, ``aggregation`` or ``metadata`` change, not per state an Item takes
    /// (a device's every reading passes through ``accepting(_:)``).
    public private(set) var unit: QuantityUnit?

    private static func unit(type: ItemType, aggregation: GroupAggregation?, metadata: [String: ItemMetadata]) -> QuantityUnit? {
        guard case .numberItem(let dimension?) = aggregation?.baseType ?? type else { return nil }
        if let symbol = metadata[ItemMetadata.unitNamespace]?.value, let unit = QuantityUnit(symbol: symbol),
           unit.dimension == dimension {
            return unit
        }
        return dimension.defaultUnit
    }

    /// The state this Item takes when handed `state` (by a device, autoupdate or the REST API), or `nil`
    /// when it drops it (``ItemType/accepting(_:unit:)`` with this Item's ``unit``).
    /// A Group with a base type takes what its base type takes.
    public func accepting(_ state: State) -> State? {
        // The type first: only a Group looks at its aggregation (not read, a large value, for other Items).
        guard case .groupItem = type, let aggregation else { return type.accepting(state, unit: unit) }
        return aggregation.baseType.accepting(state, unit: unit)
    }
}

/// One namespace of an Item's metadata: a value and an optional configuration (openHAB's `Metadata`).
public struct ItemMetadata: Sendable, Hashable {
    /// The namespace openHAB reads an Item's unit from.
    public static let unitNamespace = "unit"

    /// The main value, e.g. `%` in the `unit` namespace.
    public var value: String
    /// Extra key/value settings; empty for most namespaces.
    public var config: [String: String]

    /// Metadata with `value` and `config`.
    public init(value: String, config: [String: String] = [:]) {
        self.value = value
        self.config = config
    }
}
