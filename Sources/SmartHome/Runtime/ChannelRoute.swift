/// A channel's route in an ``OpenHABRuntime``: its linked Items in name order, each with its slot in the
/// ``ItemRegistry`` and whether a bus subscriber may hear about it, with the generations of the runtime's
/// Items and links and of the bus's subscriptions it was resolved in. The runtime keeps one per channel in
/// its table; a reporter that holds the runtime keeps its channels' own (``OpenHABRuntime/stateReported(_:from:route:at:)``).
/// Opaque outside SmartHome: a fresh one is resolved at its first use.
public struct ChannelRoute: Sendable {
    /// One Item a channel's state goes to: its slot (-1: no such Item), its name, and whether some bus
    /// subscriber may hear about it (`EventBus.hasSubscribers && EventBus.mayHear(about:)` when resolved).
    struct Target: Sendable {
        var slot: Int
        var name: ItemName
        var heard: Bool
    }

    /// The generations it was resolved in (-1: never).
    var generation = -1
    var busGeneration = -1
    var targets: [Target] = []

    /// A route not yet resolved.
    public init() {}

    /// Whether it was resolved in these generations of the runtime's Items and links and of the bus's subscriptions.
    func isCurrent(generation: Int, busGeneration: Int) -> Bool {
        self.generation == generation && self.busGeneration == busGeneration
    }

    init(generation: Int, busGeneration: Int, targets: [Target]) {
        self.generation = generation
        self.busGeneration = busGeneration
        self.targets = targets
    }
}
