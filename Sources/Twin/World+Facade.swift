import Simulation

extension World {
    /// Told after each simulated day of a run: the fraction of the scenario's span done (0…1) and the
    /// local date-time reached. Called on the simulation task; it must return quickly.
    public typealias Progress = @Sendable (_ fractionDone: Double, _ reached: String) -> Void
}
