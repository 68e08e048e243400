/// A listing's ratings summarised: computed from the ratings, never stored.
public struct RatingSummary: Hashable, Sendable {
    /// Number of ratings.
    public var count: Int
    /// Mean stars, `nil` without ratings.
    public var average: Double?
    /// How many ratings have 1, 2, 3, 4, 5 stars (index 0 is one star).
    public var distribution: [Int]

    /// Summarises `stars` (each 1…5).
    public init(stars: [Int]) {
        var distribution = [Int](repeating: 0, count: 5)
        for value in stars where (1...5).contains(value) { distribution[value - 1] += 1 }
        self.count = stars.count
        self.average = stars.isEmpty ? nil : Double(stars.reduce(0, +)) / Double(stars.count)
        self.distribution = distribution
    }
}
