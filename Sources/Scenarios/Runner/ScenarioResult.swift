import Booking
import Reports
import Simulation

/// What running one scenario produced: failures (empty = passed), figures, and everything the
/// reports need.
public struct ScenarioResult: Sendable {
    /// The scenario that ran.
    public let scenario: Scenario
    /// Every failed expectation or step, in the order they happened.
    public let failures: [ScenarioFailure]
    /// Timeline steps executed.
    public let stepsRun: Int
    /// Expectations checked.
    public let expectationsChecked: Int
    /// Events the kernel processed.
    public let kernelEvents: Int
    /// Events published on the openHAB event bus.
    public let busEvents: Int
    /// Events the listener of ``World/Options/observesEveryBusEvent`` received (`nil` without one).
    public let observedBusEvents: Int?
    /// The exact meter snapshots and power transitions of the run.
    public let ledger: EnergyLedger
    /// What a run with reports gathered for them while it ran (`nil` without a timeseries interval).
    public let reports: RecordedReports?
    /// Every reservation at the end, for `stays.csv`.
    public let stays: [StayRecord]
    /// Automation and step log, one line each, in time order.
    public let log: [String]

    /// Whether every expectation held and every step behaved as expected.
    public var passed: Bool { failures.isEmpty }
}
