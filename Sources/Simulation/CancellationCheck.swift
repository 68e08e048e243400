/// How a long synchronous loop hears Ctrl-C: ``isDue()`` asks `Task.isCancelled` once every `stride` calls,
/// so a loop of cheap steps pays one decrement a step and still notices a cancelled task within
/// milliseconds.
///
/// The command line cancels its work task on SIGINT and SIGTERM; every loop whose length the input
/// decides (parsing, checking, compiling, a run, writing reports, merging) carries one of these, so any
/// command stops within a second (Docs/RULES.md, "Budgets").
public struct CancellationCheck: Sendable {
    private var left: Int
    private let stride: Int

    /// A check that asks the task every `stride` calls (at least 1).
    public init(every stride: Int = 4_096) {
        self.stride = max(1, stride)
        self.left = self.stride
    }

    /// Whether the current task has been cancelled; looked up once every `stride` calls, `false` between.
    public mutating func isDue() -> Bool {
        left -= 1
        guard left <= 0 else { return false }
        left = stride
        return Task.isCancelled
    }
}
