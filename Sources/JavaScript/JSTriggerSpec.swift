/// A trigger as a `triggers.*` factory made it: openHAB's module type and configuration.
public struct JSTriggerSpec: Sendable, Equatable {
    /// The module id (the factory's last argument, else its position from 1).
    public let id: String
    /// openHAB's module type UID (`core.ItemStateChangeTrigger`).
    public let type: String
    /// The configuration, every value as text, in the factory's order.
    public let configuration: [(key: String, value: String)]
    /// Where the factory was called (`automation/js/heating.js:12`), when known.
    public let line: Int?

    /// Equal module id, type, configuration (keys and values in order) and line.
    public static func == (a: JSTriggerSpec, b: JSTriggerSpec) -> Bool {
        a.id == b.id && a.type == b.type && a.configuration.map(\.key) == b.configuration.map(\.key)
            && a.configuration.map(\.value) == b.configuration.map(\.value) && a.line == b.line
    }

    /// The value of configuration `key`.
    public subscript(key: String) -> String? { configuration.first { $0.key == key }?.value }
}
