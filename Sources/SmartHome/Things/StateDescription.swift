/// How a channel's (and so a linked Item's) state should be shown and bounded.
public struct StateDescription: Sendable, Hashable, Codable {
    /// A selectable value with its label.
    public struct Option: Sendable, Hashable, Codable {
        /// The state value.
        public var value: String
        /// Its label.
        public var label: String?

        /// Creates an option.
        public init(value: String, label: String? = nil) {
            self.value = value
            self.label = label
        }
    }

    /// The lowest value, if bounded.
    public var minimum: Double?
    /// The highest value, if bounded.
    public var maximum: Double?
    /// The step between values.
    public var step: Double?
    /// A format pattern such as `%.1f %unit%`.
    public var pattern: String?
    /// Whether the state can only be read.
    public var readOnly: Bool
    /// Allowed values, if a fixed set.
    public var options: [Option]

    /// Creates a description.
    public init(minimum: Double? = nil, maximum: Double? = nil, step: Double? = nil, pattern: String? = nil,
                readOnly: Bool = false, options: [Option] = []) {
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.pattern = pattern
        self.readOnly = readOnly
        self.options = options
    }
}
