import Foundation
import Testing

/// Compares report text byte for byte with a file under `Tests/ReportsTests/Golden/`.
///
/// Set `REPORTS_UPDATE_GOLDEN=1` to rewrite the files from the current output instead; the
/// test then fails on purpose, so a rewrite never passes unnoticed — review the diff and run again.
enum GoldenFile {
    /// The golden directory, found from this source file's path (no bundle resources).
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden", isDirectory: true)

    /// Expects `actual` to equal the golden file `name`, byte for byte.
    static func expectMatches(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["REPORTS_UPDATE_GOLDEN"] == "1" {
            try Data(actual.utf8).write(to: url)
            Issue.record("Rewrote golden file \(name); review it and run the tests again without REPORTS_UPDATE_GOLDEN.",
                         sourceLocation: sourceLocation)
            return
        }
        let expected = try Data(contentsOf: url)
        #expect(Data(actual.utf8) == expected,
                "\(name) differs from the golden file; if the change is intended, rerun with REPORTS_UPDATE_GOLDEN=1 and review the diff.\n--- actual ---\n\(actual)",
                sourceLocation: sourceLocation)
    }
}
