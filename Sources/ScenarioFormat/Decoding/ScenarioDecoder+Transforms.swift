import Foundation
import Rules

extension ScenarioDecoder {
    /// `transformFiles`: openHAB's `$OPENHAB_CONF/transform` files, relative to the scenario — each a `.map`
    /// or `.scale` file, or a directory whose `.map` and `.scale` files (not its subdirectories) are all
    /// loaded. A rule names a file by its file name, as openHAB does (`transform("MAP", "en.map", x)`). Every
    /// problem of a file is located (`file:line: transform.code: …`); two files of one name are refused.
    /// - Parameter confFiles: the files an `openhabConf` directory adds: an entry openHAB ignores with a warning
    ///   (`transform.badEntry`) is a warning there, as openHAB loads the rest of the file.
    static func decodeTransformFiles(_ field: Field, confFiles: Set<String> = []) -> (paths: [String], files: [TransformFile])? {
        guard let list = field.array else { return nil }
        var paths: [String] = []
        var files: [TransformFile] = []
        var byName: [String: String] = [:]
        for f in list {
            guard let path = f.name else { continue }
            let resolved = resolvedSidePath(path, scenarioFile: f.issues.file)
            var isDirectory: ObjCBool = false
            var members: [String]
            if f.issues.sideFiles[resolved] == nil, FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: resolved)) ?? []
                members = names.filter { TransformFile.kind(ofFileNamed: $0) != nil }.sorted().map { "\(resolved)/\($0)" }
                if members.isEmpty {
                    f.problem("the directory \(resolved) has no .map or .scale file.",
                              hint: "name openHAB's transform directory or its files, e.g. \"openhab/transform\" or \"openhab/transform/en.map\".")
                    continue
                }
            } else {
                guard TransformFile.kind(ofFileNamed: resolved) != nil else {
                    f.problem("\"\(path)\" is not a .map or .scale file.",
                              hint: "the twin runs MAP (.map) and SCALE (.scale) files; JSONPATH and REGEX need none.")
                    continue
                }
                members = [resolved]
            }
            for file in members {
                let name = (file as NSString).lastPathComponent
                guard let text = readTransformFile(f, resolved: file) else { continue }
                if let first = byName[name] {
                    f.problem("\(file) has the name \(name), as \(first) has; a rule could not tell them apart.",
                              hint: "openHAB names a transformation by its file name: keep one of them.")
                    continue
                }
                byName[name] = file
                let parsed = TransformFile.parse(text, name: name)
                if !parsed.issues.isEmpty {
                    let collector = IssueCollector(file: file, strict: field.issues.strict)
                    for issue in parsed.issues {
                        if confFiles.contains(path), issue.code == .badEntry {
                            collector.warning("", line: issue.line, "\(issue.code.rawValue): \(issue.message)", hint: issue.hint)
                        } else {
                            collector.add("", line: issue.line, "\(issue.code.rawValue): \(issue.message)", hint: issue.hint)
                        }
                    }
                    field.issues.absorb(collector)
                }
                if let transform = parsed.file {
                    files.append(transform)
                    paths.append(file)
                }
            }
        }
        return (paths, files)
    }

    /// The text of a transformation file at its resolved path (the fuzzer's mutant first).
    private static func readTransformFile(_ f: Field, resolved: String) -> String? {
        if let text = f.issues.sideFiles[resolved] { return text }
        let attributes = try? FileManager.default.attributesOfItem(atPath: resolved)
        guard let size = attributes?[.size] as? Int, attributes?[.type] as? FileAttributeType == .typeRegular else {
            f.problem("cannot read \(resolved): there is no such file.",
                      hint: "give the path relative to the scenario file, e.g. \"openhab/transform/en.map\" or the directory \"openhab/transform\".")
            return nil
        }
        guard size <= maxSideFileBytes else {
            f.problem("\(resolved) has \(size) bytes, over the limit of \(maxSideFileBytes) for a transformation file.")
            return nil
        }
        guard let data = FileManager.default.contents(atPath: resolved), let text = String(data: data, encoding: .utf8) else {
            f.problem("cannot read \(resolved) as UTF-8 text.")
            return nil
        }
        return text
    }
}
