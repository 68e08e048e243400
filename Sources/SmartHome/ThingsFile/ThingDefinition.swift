/// One Thing or Bridge as a `.things` file declares it (openhab-core `ModelThing`/`ModelBridge`), with its
/// UID already built as openHAB's `GenericThingProvider` builds it (a nested `Thing type id` takes its
/// binding and bridge segments from its Bridge).
public struct ThingDefinition: Sendable, Hashable {
    /// The full Thing UID (`mqtt:topic:broker:sensor`).
    public var uid: String
    /// Whether it is declared with `Bridge`.
    public var isBridge: Bool
    /// The Bridge it sits under (nested, or `(bridge:uid)`), if any.
    public var bridgeUID: String?
    public var label: String?
    /// `@ "Kitchen"`.
    public var location: String?
    /// Its configuration, in file order of keys.
    public var configuration: [ThingConfigEntry]
    /// The channels the file declares, in file order.
    public var channels: [ChannelDefinition]
    public var line: Int
    public var column: Int

    /// The binding id (the UID's first segment).
    public var bindingID: String { String(uid.prefix { $0 != ":" }) }
}

/// A `key=value` of a Thing's or a channel's configuration.
public struct ThingConfigEntry: Sendable, Hashable {
    public var key: String
    public var value: ThingConfigValue
}

/// A configuration value of the grammar: `STRING | NUMBER | BOOLEAN`, or several of them (`key=1, 2, 3`),
/// which openHAB hands to the binding as a list.
public indirect enum ThingConfigValue: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    /// A number as written (openHAB reads it as a `BigDecimal`).
    case number(String)
    case boolean(Bool)
    case list([ThingConfigValue])

    /// The value as text (a list joined by commas), as the twin's `Thing.configuration` holds it.
    public var description: String {
        switch self {
        case .string(let s): s
        case .number(let n): n
        case .boolean(let b): b ? "true" : "false"
        case .list(let values): values.map(\.description).joined(separator: ",")
        }
    }
}

/// A channel of a `.things` file: `[State|Trigger] <ItemType> : id "label" [config]` or `Type <type> : id …`.
public struct ChannelDefinition: Sendable, Hashable {
    /// The channel id, with its group (`status#online`).
    public var id: String
    /// `Trigger` channels fire events; all others carry states.
    public var isTrigger: Bool
    /// The Item type the channel takes (`Switch`, `Number:Temperature`); `nil` for `Type` channels and triggers of no type.
    public var itemType: ItemType?
    /// `Type switch : …` names a channel type of the binding (`mqtt:switch`).
    public var channelType: String?
    public var label: String?
    public var configuration: [ThingConfigEntry]
    public var line: Int
    public var column: Int
}
