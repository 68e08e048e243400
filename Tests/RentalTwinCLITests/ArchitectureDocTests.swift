import Foundation
import Testing

/// `Docs/ARCHITECTURE.md` is "the truth about the code": its table of targets must say exactly what
/// `Package.swift` declares, and every target must declare every module it imports. Both files are
/// read as text (the manifest's `.target(…)` calls, the table's rows), so a new target, a new
/// dependency or a stray import fails here until the page and the manifest agree.
@Suite("Docs/ARCHITECTURE.md against Package.swift")
struct ArchitectureDocTests {
    /// A Swift target of the manifest (not a test target, not a system library): its name, declared
    /// dependencies and source folder.
    struct Target: Equatable {
        let name: String
        let dependencies: Set<String>
        let path: String
    }

    /// The toolchain's own modules, which no target declares.
    static let toolchainModules: Set<String> = ["Foundation", "FoundationNetworking", "FoundationEssentials", "Glibc", "Darwin",
                                                "Synchronization", "Dispatch", "Testing", "XCTest"]

    /// Every `.target(` and `.executableTarget(` call of the manifest whose sources are under `Sources/`.
    static func manifestTargets() throws -> [Target] {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        var targets: [Target] = []
        for opener in [".target(", ".executableTarget("] {
            var rest = text[...]
            while let open = rest.range(of: opener) {
                // The call's text: up to the parenthesis that closes it.
                var depth = 0, end = open.upperBound
                for index in text[open.lowerBound...].indices {
                    if text[index] == "(" { depth += 1 }
                    if text[index] == ")" { depth -= 1; if depth == 0 { end = index; break } }
                }
                let call = String(text[open.upperBound..<end])
                rest = text[end...]
                let name = try #require(Self.quoted(after: "name:", in: call).first, "a target without a name: \(call)")
                let path = Self.quoted(after: "path:", in: call).first ?? "Sources/\(name)"
                guard path.hasPrefix("Sources/") else { continue }
                var dependencies = Set<String>()
                if let range = call.range(of: "dependencies:") {
                    let list = call[range.upperBound...].prefix { $0 != "]" }
                    // The quoted names: every second piece between quotes.
                    for (offset, piece) in list.split(separator: "\"", omittingEmptySubsequences: false).enumerated() where offset % 2 == 1 {
                        dependencies.insert(String(piece))
                    }
                }
                targets.append(Target(name: name, dependencies: dependencies, path: path))
            }
        }
        return targets.sorted { $0.name < $1.name }
    }

    /// The first quoted string after `label` in `text`.
    static func quoted(after label: String, in text: String) -> [String] {
        guard let range = text.range(of: label) else { return [] }
        let parts = text[range.upperBound...].split(separator: "\"", maxSplits: 2, omittingEmptySubsequences: false)
        return parts.count >= 2 ? [String(parts[1])] : []
    }

    /// The rows of the "Targets and what each owns" table: target name → the "depends on" column as names.
    static func documentedTargets() throws -> [String: Set<String>] {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("Docs/ARCHITECTURE.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "## Targets and what each owns").dropFirst().first)
            .components(separatedBy: "\n## ").first ?? ""
        var rows: [String: Set<String>] = [:]
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            let first = cells[1]
            // `rental-twin` (`Sources/RentalTwinCLI`) names its folder; other rows name the target itself.
            let name = first.range(of: "`Sources/").map { String(first[$0.upperBound...].prefix { $0 != "`" }) }
                ?? String(first.dropFirst().prefix { $0 != "`" })
            let column = cells[3] == "—" ? "" : cells[3]
            rows[name] = Set(column.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        }
        return rows
    }

    /// The modules a folder's Swift files import, less the toolchain's.
    static func imports(under path: String) throws -> Set<String> {
        let folder = repositoryRoot.appendingPathComponent(path)
        guard let files = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var modules = Set<String>()
        for case let file as String in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(of: "import"), words[..<index].allSatisfy({ $0.hasPrefix("@") }),
                      index + 1 < words.count else { continue }
                modules.insert(String(words[index + 1]))
            }
        }
        return modules.subtracting(toolchainModules)
    }

    @Test("the table lists every target of Package.swift with exactly its dependencies")
    func tableMatchesManifest() throws {
        let manifest = try Self.manifestTargets()
        let documented = try Self.documentedTargets()
        #expect(manifest.count >= 10, "the manifest's targets were not found: \(manifest.map(\.name))")
        #expect(Set(documented.keys) == Set(manifest.map(\.name)),
                "targets only in Package.swift: \(Set(manifest.map(\.name)).subtracting(documented.keys).sorted()); only in the page: \(Set(documented.keys).subtracting(manifest.map(\.name)).sorted())")
        for target in manifest {
            #expect(documented[target.name] == target.dependencies,
                    "\(target.name): Package.swift says \(target.dependencies.sorted()), ARCHITECTURE.md says \(documented[target.name]?.sorted() ?? [])")
        }
    }

    @Test("every target declares each module it imports")
    func importsAreDeclared() throws {
        for target in try Self.manifestTargets() {
            let undeclared = try Self.imports(under: target.path).subtracting(target.dependencies)
            #expect(undeclared.isEmpty, "\(target.name) imports \(undeclared.sorted()) without declaring it in Package.swift")
        }
    }
}
