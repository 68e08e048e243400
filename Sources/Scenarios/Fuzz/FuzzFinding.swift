import ScenarioFormat
/// Something a fuzz input did that no input may do, with the input to replay it.
public struct FuzzFinding: Sendable, Equatable {
    /// The kinds of finding, each with a stable name (used in file names and the summary).
    public enum Kind: String, Sendable, CaseIterable, Comparable {
        /// The run needed more kernel events than the per-input budget (an endless loop or an event storm).
        case hang
        /// The validator accepted the file but the world refused it or the run stopped with an error
        /// (`scenario.runFailed`): a check the validator lacks, or a bug.
        case runFailed = "run-failed"
        /// The reports could not be built from a finished run.
        case reportFailed = "report-failed"
        /// A printed line or a report holds `nan`, `inf` or `infinity` that the input did not contain.
        case nonFinite = "non-finite"
        /// Run again with typed seams (``World/Seams/typed``), the input printed or reported something else: the
        /// typed path is not the same run.
        case seamsDiffer = "seams-differ"

        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    /// What kind.
    public let kind: Kind
    /// The input's number in the campaign (same seed, same number, same input).
    public let index: Int
    /// The seed scenario it was mutated from.
    public let base: String
    /// What happened, in one or two sentences.
    public let detail: String
    /// The scenario text to replay (`rental-twin run FILE`).
    public let text: String
    /// The kind of file the input mutated (``FuzzTarget/name``).
    public var target = FuzzTarget.scenario.name
    /// The mutated side file the scenario loads, for a side-file target.
    public var sideFile: ScenarioFuzzer.SideFile?

    public init(kind: Kind, index: Int, base: String, detail: String, text: String, target: String = FuzzTarget.scenario.name,
                sideFile: ScenarioFuzzer.SideFile? = nil) {
        self.kind = kind
        self.index = index
        self.base = base
        self.detail = detail
        self.text = text
        self.target = target
        self.sideFile = sideFile
    }

    /// The input it came from.
    public var input: ScenarioFuzzer.Input { ScenarioFuzzer.Input(index: index, base: base, text: text, target: target, sideFile: sideFile) }
}
