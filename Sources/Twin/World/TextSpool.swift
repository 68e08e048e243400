#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import ScenarioFormat
import Synchronization

/// Text written during a run and read back once at its end, in the same pieces: `timeseries.csv`,
/// whose size grows with the run's length and portfolio, is appended tick by tick while the run
/// goes and copied into the report when it is written.
///
/// The first few megabytes stay in memory; beyond that the pieces go to an anonymous temporary
/// file (created in `TMPDIR`, or `/tmp`, and unlinked at once, so nothing is left behind even
/// if the process dies). A failure to write it (a full disk) is kept and reported when the text
/// is read, as `scenario.writeFailed`; nothing is half-written.
package final class TextSpool: Sendable {
    private struct State: @unchecked Sendable {  // the descriptor is only used under the mutex
        var memory: [String] = []
        var memoryBytes = 0
        var descriptor: Int32 = -1
        /// Byte lengths of the pieces in the file, in order (pieces are read back whole, so a
        /// multi-byte character is never split).
        var lengths: [Int] = []
        var failure: String?
    }

    private let state = Mutex(State())
    /// How much stays in memory before the file is used.
    private let memoryLimit: Int
    /// Where the file is made.
    private let directory: String

    /// - Parameter directory: where the anonymous file goes; `nil` for `TMPDIR` (else `/tmp`).
    package init(memoryLimit: Int = 2 << 20, directory: String? = nil) {
        self.memoryLimit = memoryLimit
        self.directory = directory ?? ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    deinit {
        state.withLock { if $0.descriptor >= 0 { close($0.descriptor) } }
    }

    /// Appends a piece.
    package func append(_ piece: String) {
        guard !piece.isEmpty else { return }
        state.withLock { state in
            guard state.failure == nil else { return }
            if state.descriptor < 0 {
                if state.memoryBytes + piece.utf8.count <= memoryLimit {
                    state.memory.append(piece)
                    state.memoryBytes += piece.utf8.count
                    return
                }
                guard Self.open(&state, in: directory) else { return }
                let held = state.memory
                state.memory = []
                for text in held where !Self.put(text, &state) { return }
            }
            _ = Self.put(piece, &state)
        }
    }

    /// Hands out every piece in order, for the file at `path`.
    /// - Throws: ``ScenarioError`` `scenario.writeFailed` when the spool could not be written or read.
    package func read(for path: String, _ piece: (String) -> Void) throws(ScenarioError) {
        let (memory, descriptor, lengths, failure) = state.withLock { ($0.memory, $0.descriptor, $0.lengths, $0.failure) }
        if let failure { throw ScenarioError(.writeFailed, "cannot write \(path): \(failure)", file: path) }
        guard descriptor >= 0 else {
            memory.forEach(piece)
            return
        }
        var offset: off_t = 0
        for length in lengths {
            var bytes = [UInt8](repeating: 0, count: length)
            var done = 0
            while done < length {
                let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, length - done, offset + off_t(done)) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    throw ScenarioError(.writeFailed, "cannot write \(path): cannot read back the spooled rows: \(count < 0 ? Self.systemReason() : "the file is shorter than written").", file: path)
                }
                done += count
            }
            offset += off_t(length)
            piece(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Opens the anonymous file. - Returns: false (with the failure kept) when it cannot be made.
    private static func open(_ state: inout State, in directory: String) -> Bool {
        var template = Array("\(directory)/rental-twin-spool-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            state.failure = "cannot spool the timeseries in \(directory) (set TMPDIR to another directory): \(Self.systemReason())."
            return false
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        state.descriptor = descriptor
        return true
    }

    /// Writes one piece to the file. - Returns: false (with the failure kept) when it cannot be written.
    private static func put(_ text: String, _ state: inout State) -> Bool {
        var text = text
        let descriptor = state.descriptor
        let failure: String? = text.withUTF8 { buffer -> String? in
            var done = 0
            while done < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if count < 0 {
                    if errno == EINTR { continue }
                    return "cannot spool the timeseries in TMPDIR (set TMPDIR to a directory with room): \(Self.systemReason())."
                }
                done += count
            }
            return nil
        }
        if let failure {
            state.failure = failure
            return false
        }
        state.lengths.append(text.utf8.count)
        return true
    }
}

extension TextSpool {
    /// The C library's sentence for `errno`, lower-cased first letter ("no space left on device").
    package static func systemReason() -> String {
        let text = String(cString: strerror(errno))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
