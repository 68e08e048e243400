/// The body of a successful `GET /data/2.5/forecast` (5 days in 3-hour steps).
///
/// Wire order: `cod, message, cnt, list, city`; `cod` is the string `"200"`.
public struct OWMForecastResponse: Sendable, Equatable, Codable {
    /// `"200"`.
    public var cod: OWMCode
    /// Internal parameter; the feed sends `0`.
    public var message: Double
    /// The number of entries in ``list``.
    public var cnt: Int
    /// The forecast steps, in time order.
    public var list: [OWMForecastEntry]
    /// The city.
    public var city: OWMForecastCity

    /// Creates a response.
    public init(cod: OWMCode = .text("200"), message: Double = 0, cnt: Int, list: [OWMForecastEntry], city: OWMForecastCity) {
        self.cod = cod
        self.message = message
        self.cnt = cnt
        self.list = list
        self.city = city
    }
}
