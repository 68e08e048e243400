/// The checks of `.items` definitions beyond the grammar: units of the Items' dimensions, names given
/// twice, Groups that exist and hold no cycle.
public enum ItemsFileChecks {
    /// One file's own checks: `unit` metadata against the Item's dimension (an issue), state-pattern units
    /// (a notice: openHAB 4+ uses a pattern's unit only to display the state — the Item's unit is its `unit`
    /// metadata or the dimension's default — and shows the state unconverted when the pattern's unit is
    /// unknown or of another dimension), names given twice in the file.
    static func check(_ result: inout ItemsFileParser.Result, file: String) {
        var issues = IssueList(file: file, list: result.issues)
        var notices = IssueList(file: file, list: result.notices)
        var seen: [String: Int] = [:]
        for item in result.items {
            if let first = seen[item.name] {
                issues.add(.duplicate, item.line, item.column, "the Item \(ItemsFileIssue.quoted(item.name)) is already declared on line \(first).",
                           hint: "give one of them another name.")
            } else {
                seen[item.name] = item.line
            }
            if let expire = item.metadata["expire"],
               case .failure(let error) = ExpireManager.Config.parse(expire, type: item.aggregation?.baseType ?? item.type) {
                issues.add(.invalidExpire, item.line, item.column, "the expire metadata of \(ItemsFileIssue.quoted(item.name)) is not valid: \(error.message)",
                           hint: "write e.g. expire=\"10m\", expire=\"1h,state=OFF\" or expire=\"5m,command=OFF\".")
            }
            guard case .numberItem(let dimension?) = item.aggregation?.baseType ?? item.type else { continue }
            if let unit = item.metadata[ItemMetadata.unitNamespace]?.value {
                checkUnit(unit, of: dimension, item: item, where: "unit metadata", into: &issues)
            }
            if let patternUnit = item.statePattern.flatMap(patternUnit) {
                checkUnit(patternUnit, of: dimension, item: item, where: "state pattern", into: &notices,
                          consequence: " openHAB loads the Item and shows its state without converting it; so does the twin.")
            }
        }
        result.issues = issues.list
        result.notices = notices.list
    }

    private static func checkUnit(_ symbol: String, of dimension: Dimension, item: ItemDefinition, where place: String,
                                  into issues: inout IssueList, consequence: String = "") {
        let known = QuantityUnit.units(of: dimension).map(\.symbol)
        guard let unit = QuantityUnit(symbol: symbol) else {
            issues.add(.unknownUnit, item.line, item.column,
                       "the \(place) of \(ItemsFileIssue.quoted(item.name)) names \(ItemsFileIssue.quoted(symbol)), which is not a unit.\(consequence)",
                       hint: ItemsFileIssue.didYouMean(symbol, in: known) ?? "units of \(dimension.rawValue): \(known.joined(separator: ", ")) (and SI prefixes).")
            return
        }
        guard unit.dimension == dimension else {
            issues.add(.unknownUnit, item.line, item.column,
                       "the \(place) of \(ItemsFileIssue.quoted(item.name)) names \(unit.symbol), a unit of \(unit.dimension.rawValue), not of \(dimension.rawValue).\(consequence)",
                       hint: "units of \(dimension.rawValue): \(known.joined(separator: ", ")).")
            return
        }
    }

    /// The unit of a number pattern (`%.1f °C` → `°C`, `%d %%` → `%`); `nil` for `%unit%`, transformations
    /// and patterns without a unit.
    static func patternUnit(_ pattern: String) -> String? {
        guard pattern.hasPrefix("%") else { return nil }
        let scalars = Array(pattern.unicodeScalars)
        var i = 1
        while i < scalars.count, "-+ 0#.123456789".unicodeScalars.contains(scalars[i]) { i += 1 }
        guard i < scalars.count, "dfeEgGsx".unicodeScalars.contains(scalars[i]) else { return nil }
        var rest = String(String.UnicodeScalarView(scalars[(i + 1)...]))
        while rest.first == " " { rest.removeFirst() }
        while rest.last == " " { rest.removeLast() }
        if rest.isEmpty || rest == "%unit%" { return nil }
        if rest == "%%" { return "%" }
        return rest.contains(" ") || rest.contains("%") ? nil : rest
    }

    /// Checks across every definition a scenario loads: a name declared in two files, a Group named in
    /// `(…)` that is not a Group, and Groups that are members of each other.
    /// - Parameter otherItems: names and types of Items declared elsewhere (the scenario's `items`, devices).
    public static func crossCheck(_ files: [(file: String, items: [ItemDefinition])],
                                  otherItems: [String: ItemType]) -> [ItemsFileIssue] {
        var issues: [ItemsFileIssue] = []
        var declared: [String: (file: String, item: ItemDefinition)] = [:]
        for (file, items) in files {
            for item in items {
                if let other = declared[item.name] {
                    if other.file != file {
                        issues.append(ItemsFileIssue(.duplicate, file: file, line: item.line, column: item.column,
                                                     "the Item \(ItemsFileIssue.quoted(item.name)) is already declared in \(other.file):\(other.item.line)."))
                    }
                    continue
                }
                if otherItems[item.name] != nil {
                    issues.append(ItemsFileIssue(.duplicate, file: file, line: item.line, column: item.column,
                                                 "the Item \(ItemsFileIssue.quoted(item.name)) already exists (a device's Item or one under the scenario's \"items\")."))
                    continue
                }
                declared[item.name] = (file, item)
            }
        }
        let groupNames = Array(declared.values.filter { $0.item.type == .groupItem }.map(\.item.name))
            + otherItems.filter { $0.value == .groupItem }.map(\.key)
        let groupSet = Set(groupNames)
        // An Item put in a Group no file declares, or in an Item that is not a Group, loads as openHAB loads
        // it: ItemRegistryImpl.addToGroupItems looks each group name up and ignores one that is missing or not
        // a GroupItem ("the group might not yet be registered"). The Item keeps the name in its groupNames; no
        // Group has it as a member. Real configurations do this often (Groups of a binding's old files,
        // sitemap-only names), so refusing it would refuse files openHAB runs.
        // Cycles: Group → its parent Groups; an iterative depth-first search (no recursion on deep chains).
        var state: [String: UInt8] = [:]  // 1 on the path, 2 done
        for start in groupNames.sorted() where state[start] == nil {
            var stack: [(name: String, next: Int)] = [(start, 0)]
            state[start] = 1
            while let top = stack.last {
                let parents = declared[top.name]?.item.groups.filter(groupSet.contains) ?? []
                if top.next < parents.count {
                    stack[stack.count - 1].next += 1
                    let parent = parents[top.next]
                    switch state[parent] {
                    case nil:
                        state[parent] = 1
                        stack.append((parent, 0))
                    case 1:
                        let path = stack.map(\.name).drop { $0 != parent }.prefix(8)
                        if let def = declared[top.name] {
                            issues.append(ItemsFileIssue(.groupCycle, file: def.file, line: def.item.line, column: def.item.column,
                                                         "the Groups \(path.map { ItemsFileIssue.quoted($0) }.joined(separator: " → ")) → \(ItemsFileIssue.quoted(parent)) are members of each other.",
                                                         hint: "a Group cannot contain itself; remove one of the memberships."))
                        }
                    default: break
                    }
                } else {
                    state[top.name] = 2
                    stack.removeLast()
                }
            }
        }
        return issues
    }
}
