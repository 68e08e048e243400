/// `rain` or `snow`: precipitation, mm, over the last hour (current weather, `"1h"`) or the
/// three hours of a forecast step (`"3h"`). Present only when there is precipitation.
public struct OWMPrecipitation: Sendable, Equatable, Codable {
    /// mm over the last hour.
    public var oneHour: Double?
    /// mm over three hours.
    public var threeHours: Double?

    /// The wire names.
    enum CodingKeys: String, CodingKey {
        case oneHour = "1h"
        case threeHours = "3h"
    }

    /// Creates the block.
    public init(oneHour: Double? = nil, threeHours: Double? = nil) {
        self.oneHour = oneHour
        self.threeHours = threeHours
    }
}
