import Foundation
import Synchronization

/// The `node` the twin drives: found through `RENTAL_TWIN_NODE` or `PATH`, checked to be Node.js 18 or newer.
public struct NodeExecutable: Sendable, Equatable {
    /// The executable's path.
    public let path: String
    /// The major version (`20` for v20.20.2).
    public let majorVersion: Int

    /// The oldest Node.js major version the runtime is written for (`vm` contexts, `Intl` with full ICU).
    public static let minimumMajorVersion = 18
    /// The environment variable naming the executable (overrides `PATH`).
    public static let environmentVariable = "RENTAL_TWIN_NODE"
    /// What to install, said once when none is found.
    public static let installHint = "install Node.js 18 or newer (Debian/Ubuntu: apt-get install nodejs) or name it with RENTAL_TWIN_NODE=/path/to/node"

    private static let found = Mutex<[String: Result<NodeExecutable, JavaScriptError>]>([:])

    /// The environment `node` is looked up in for the current task: the process's, unless a caller (a test)
    /// names another with `NodeExecutable.$environmentOverride.withValue(…)` — without touching the process's
    /// environment, which other work in the process reads at the same time.
    @TaskLocal public static var environmentOverride: [String: String]?

    /// ``environmentOverride`` or else the process's environment.
    public static var currentEnvironment: [String: String] { environmentOverride ?? ProcessInfo.processInfo.environment }

    /// The executable to use under `environment` (the process's own by default), checked once per path.
    /// - Throws: ``JavaScriptError`` `rules.jsNodeMissing`.
    public static func locate(environment: [String: String] = NodeExecutable.currentEnvironment) throws(JavaScriptError) -> NodeExecutable {
        let candidate: String
        if let named = environment[environmentVariable], !named.isEmpty {
            candidate = named
        } else {
            let dirs = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
            guard let hit = dirs.map({ "\($0)/node" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
                throw JavaScriptError(.nodeMissing, "JavaScript rules need Node.js, and no node is on PATH: \(installHint).")
            }
            candidate = hit
        }
        if let known = found.withLock({ $0[candidate] }) { return try known.get() }
        let result = check(candidate)
        found.withLock { $0[candidate] = result }
        return try result.get()
    }

    private static func check(_ path: String) -> Result<NodeExecutable, JavaScriptError> {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            return .failure(JavaScriptError(.nodeMissing, "JavaScript rules need Node.js, and \(path) is not an executable: \(installHint)."))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--version"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            return .failure(JavaScriptError(.nodeMissing, "JavaScript rules need Node.js, and \(path) does not start (\(error.localizedDescription)): \(installHint)."))
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("v"), let major = Int(text.dropFirst().prefix { $0.isNumber }) else {
            return .failure(JavaScriptError(.nodeMissing, "\(path) --version printed \"\(text.prefix(40))\", not a Node.js version: \(installHint)."))
        }
        guard major >= minimumMajorVersion else {
            return .failure(JavaScriptError(.nodeMissing, "\(path) is Node.js \(text); JavaScript rules need Node.js \(minimumMajorVersion) or newer: \(installHint)."))
        }
        return .success(NodeExecutable(path: path, majorVersion: major))
    }
}
