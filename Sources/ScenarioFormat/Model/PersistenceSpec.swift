import SmartHome

/// The scenario's `persistence`: which Items the twin's persistence service stores and how, as a
/// `.persist` file's `Items { … : strategy = everyChange, restoreOnStartup }` says.
public struct PersistenceSpec: Sendable {
    /// `*` (every Item), `gName*` (every non-Group member of the Group, nested ones too) or an Item name.
    public var items: [String]
    /// `everyChange` (default) or `everyUpdate`.
    public var strategy: PersistenceStrategy
    /// Give Items in state `NULL` their newest stored state when the world starts (default true).
    public var restoreOnStartup: Bool
    /// How many states each Item keeps at most (default 100,000; the oldest go first).
    public var maxStatesPerItem: Int
    /// Where it was written.
    public var path: String
}
