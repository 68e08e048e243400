/// `coord`: a location, degrees (`{"lon":19.04,"lat":47.5}`).
public struct OWMCoordinates: Sendable, Equatable, Codable {
    /// Longitude, degrees east.
    public var lon: Double
    /// Latitude, degrees north.
    public var lat: Double

    /// Creates coordinates.
    public init(lon: Double, lat: Double) {
        self.lon = lon
        self.lat = lat
    }
}
