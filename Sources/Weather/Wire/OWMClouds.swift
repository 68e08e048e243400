/// `clouds`: cloud cover, % (`{"all":90}`).
public struct OWMClouds: Sendable, Equatable, Codable {
    /// Cloud cover, %.
    public var all: Int

    /// Creates the block.
    public init(all: Int) { self.all = all }
}
