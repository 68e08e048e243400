import Foundation

/// A fresh temporary directory for one test's database files, deleted when released.
final class StoreTestDirectory {
    /// The directory's path.
    let path: String

    /// Creates the directory with `mkdtemp` (a unique name without any random generator of ours).
    init() throws {
        var template = Array((NSTemporaryDirectory() + "/booking-store-tests-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        guard created != nil else { throw CocoaError(.fileWriteUnknown) }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` inside the directory.
    func file(_ name: String) -> String { path + "/" + name }
}
