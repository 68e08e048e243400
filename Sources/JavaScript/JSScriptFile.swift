/// A JavaScript script file of a scenario: its path relative to the scenario's folder and its text.
public struct JSScriptFile: Sendable, Equatable {
    /// The path relative to the scenario's folder (`automation/js/heating.js`): how the run log and errors name it.
    public let path: String
    /// The file's text (a mutated copy under the fuzzer).
    public let source: String

    public init(path: String, source: String) {
        self.path = path
        self.source = source
    }
}
