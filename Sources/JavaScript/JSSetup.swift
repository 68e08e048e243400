/// What a JavaScript host is started with: the scenario's folder, conf directory, zone, seed and budget.
public struct JSSetup: Sendable, Equatable {
    /// The scenario's folder: nothing outside it is read. Absolute.
    public var root: String
    /// The openHAB conf directory (`$OPENHAB_CONF`): where `automation/js/node_modules` is. Absolute.
    public var conf: String
    /// The scenario's IANA zone (`time` computes in it with Node's ICU).
    public var zone: String
    /// The scenario's seed (`Math.random`).
    public var seed: UInt64
    /// The scenario's start, epoch milliseconds.
    public var startMilliseconds: Int64
    /// The wall-clock budget of one run, load or timer callback.
    public var budgetMilliseconds: Int

    /// The default run budget: 5 s of wall time (a runaway loop's bound, far above any real run even on a loaded machine).
    public static let defaultBudgetMilliseconds = 5_000

    public init(root: String, conf: String, zone: String, seed: UInt64, startMilliseconds: Int64,
                budgetMilliseconds: Int = JSSetup.defaultBudgetMilliseconds) {
        self.root = root
        self.conf = conf
        self.zone = zone
        self.seed = seed
        self.startMilliseconds = startMilliseconds
        self.budgetMilliseconds = budgetMilliseconds
    }
}
