import Foundation
import Simulation
import SmartHome

extension ScenarioDecoder {
    /// `itemFiles`: openHAB `.items` files relative to the scenario. Their Items join the scenario's virtual
    /// Items (``VirtualItemSpec/definition`` set); every problem of every file is a located issue
    /// (`file:line: column N: items.code: …`). A name declared twice (in one file, two files, or a file and
    /// `items`) is reported where it is declared again, and only its first declaration is kept.
    static func decodeItemFiles(_ field: Field, virtualItems: [VirtualItemSpec]) -> (files: [String], items: [VirtualItemSpec])? {
        guard let list = field.array else { return nil }
        let scenarioDirectory = (field.issues.file as NSString).deletingLastPathComponent
        var files: [String] = []
        var parsed: [(file: String, path: String, items: [ItemDefinition])] = []
        for (index, f) in list.enumerated() {
            guard let path = f.name else { continue }
            guard path.lowercased().hasSuffix(".items") else {
                f.problem("\"\(path)\" is not an .items file.", hint: "name openHAB Item files *.items, e.g. \"openhab/home.items\".")
                continue
            }
            let resolved = path.hasPrefix("/") || scenarioDirectory.isEmpty ? path : "\(scenarioDirectory)/\(path)"
            guard let bytes = readItemsBytes(f, resolved: resolved) else { continue }
            let result = ItemsFileParser.parse(bytes: bytes, file: resolved)
            let fileIssues = IssueCollector(file: resolved)
            for issue in result.issues { add(issue, to: fileIssues) }
            for notice in result.notices { add(notice, to: fileIssues, asNotice: true) }
            field.issues.absorb(fileIssues)
            files.append(resolved)
            parsed.append((resolved, "itemFiles[\(index)]", result.items))
        }
        // Across files and the scenario's own Items: names, Groups, cycles.
        let others = Dictionary(virtualItems.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
        var kept: [String: String] = Dictionary(virtualItems.map { ($0.name, "items") }, uniquingKeysWith: { first, _ in first })
        var specs: [VirtualItemSpec] = []
        var unique: [(file: String, items: [ItemDefinition])] = []
        for (file, path, items) in parsed {
            var fileItems: [ItemDefinition] = []
            let fileIssues = IssueCollector(file: file)
            for item in items {
                if let first = kept[item.name] {
                    // The same file's repeats are already reported by the parser. An Item declared again in
                    // another file loads as openHAB loads it: the ItemRegistry keeps the first and refuses the
                    // second with a warning ("an element with the same UID already exists",
                    // AbstractRegistry.added); the twin keeps the one of the first file in `itemFiles`.
                    if first == "items" {
                        add(ItemsFileIssue(.duplicate, file: file, line: item.line, column: item.column,
                                           "the Item \"\(item.name)\" is already declared in the scenario's \"items\".",
                                           hint: "declare each Item once."), to: fileIssues)
                    } else if first != file {
                        add(ItemsFileIssue(.duplicate, file: file, line: item.line, column: item.column,
                                           "the Item \"\(item.name)\" is already declared in \(first); openHAB keeps the first it loads and so does the twin (this one is left out).",
                                           hint: "declare each Item once."), to: fileIssues, asNotice: true)
                    }
                    continue
                }
                kept[item.name] = file
                fileItems.append(item)
                specs.append(VirtualItemSpec(name: item.name, type: item.type, state: nil, label: item.label, members: [],
                                             path: path, definition: item, sourceFile: file))
            }
            field.issues.absorb(fileIssues)
            unique.append((file, fileItems))
        }
        for issue in ItemsFileChecks.crossCheck(unique, otherItems: others) {
            let collector = IssueCollector(file: issue.file)
            add(issue, to: collector)
            field.issues.absorb(collector)
        }
        return (files, specs)
    }

    /// `itemBindings`: `{"Bath_Setpoint": "flat-1/heating/setpoint", …}` (checked against the Items and
    /// devices by the validator).
    static func decodeItemBindings(_ field: Field) -> [ItemBindingSpec]? {
        guard case .object(let members) = field.node.value else {
            field.problem("expected an object of Item name → device path, found \(field.node.kindDescription).",
                          hint: "write e.g. {\"Bath_Setpoint\": \"flat-1/heating/setpoint\"}.")
            return nil
        }
        var bindings: [ItemBindingSpec] = []
        for member in members {
            let f = Field(node: member.value, path: field.path.isEmpty ? member.key : "\(field.path).\(member.key)", issues: field.issues)
            guard let target = f.name else { continue }
            bindings.append(ItemBindingSpec(item: member.key, target: target, path: f.path))
        }
        return bindings
    }

    private static func add(_ issue: ItemsFileIssue, to collector: IssueCollector, asNotice: Bool = false) {
        let text = "column \(issue.column): \(issue.code.rawValue): \(issue.message)"
        if asNotice { collector.notice("", line: issue.line, text, hint: issue.hint) } else { collector.add("", line: issue.line, text, hint: issue.hint) }
    }

    /// The bytes of an `.items` file (the parser locates bytes that are not UTF-8 itself).
    private static func readItemsBytes(_ f: Field, resolved: String) -> [UInt8]? {
        if let text = f.issues.sideFiles[resolved] { return Array(text.utf8) }  // the fuzzer's mutant, in memory
        let attributes = try? FileManager.default.attributesOfItem(atPath: resolved)
        guard let size = attributes?[.size] as? Int, attributes?[.type] as? FileAttributeType == .typeRegular else {
            f.problem("cannot read \(resolved): there is no such file.",
                      hint: "give the .items file's path relative to the scenario file, e.g. \"openhab/home.items\".")
            return nil
        }
        guard size <= ItemsFileParser.maxFileBytes else {
            f.problem("\(resolved) has \(size) bytes, over the limit of \(ItemsFileParser.maxFileBytes) for an .items file.")
            return nil
        }
        guard let data = FileManager.default.contents(atPath: resolved) else {
            f.problem("cannot read \(resolved).")
            return nil
        }
        return [UInt8](data)
    }
}
