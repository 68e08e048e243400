/// One element of `weather`: `{"id":600,"main":"Snow","description":"light snow","icon":"13n"}`.
public struct OWMWeatherEntry: Sendable, Equatable, Codable {
    /// The condition id (600 = light snow).
    public var id: Int
    /// The condition group (`Snow`).
    public var main: String
    /// The condition in words (`light snow`).
    public var description: String
    /// The icon code, `d` by day and `n` by night (`13n`).
    public var icon: String

    /// Creates an entry.
    public init(id: Int, main: String, description: String, icon: String) {
        self.id = id
        self.main = main
        self.description = description
        self.icon = icon
    }
}
