import Reports
import Rules
import ScenarioFormat
import Simulation

/// `index.html`, the one page of a run (`--report DIR`): the verdict and every expectation (pass or fail,
/// expected, actual, a link to its moment), each failed expectation on the first screen with the
/// timeline and the measured rows around it, a timeline of the run filterable by listing, Item, rule and
/// kind, per listing the chart with the expectations' moments marked, the outbox, the energy and KPI
/// tables, and with `--coverage` the rule files' rules never started and lines never run.
///
/// Built after the run from what the reports are built from (a run without `--report` does nothing
/// more). Deterministic: the same run gives the same bytes. Self-contained: inline CSS, inline SVG, a
/// few lines of inline script for the filters, links only to the report files beside it. A large run
/// stays small: charts inline up to a byte budget (the rest are links to their SVG files), the
/// timeline up to a row budget (the rest is in `--log` and the CSV files).
public enum ReportPage {
    /// The page's file name in the report directory.
    public static let fileName = "index.html"
    /// Timeline rows shown at most; failures' surroundings are always kept.
    static let maxTimelineRows = 2000
    /// Bytes of inline charts at most (charts of listings with a failure are always inline).
    static let chartBudget = 1_000_000
    /// How far around a failed expectation the page shows events (each side), and measured rows.
    static let contextSpan = SimDuration.minutes(120), measuredSpan = SimDuration.minutes(60)

    /// Where the page reads what the report files beside it hold: one run's result, or a run's parts.
    protocol Sources {
        /// A listing's chart as `chart-<listing>.svg` holds it (`nil`: none drawn).
        func chart(_ listing: String) throws(ScenarioError) -> String?
        /// Hands `timeseries.csv` to `piece` in pieces, in order; `false` when the run recorded none.
        func timeseries(_ piece: (String) -> Void) throws(ScenarioError) -> Bool
        /// `kpi.csv`'s text (`nil`: none).
        func kpi() throws(ScenarioError) -> String?
    }

    /// The report files of one run, made again from its result.
    struct ResultSources: Sources {
        let result: ScenarioResult
        let staysByListing: [String: [StayRecord]]

        init(_ result: ScenarioResult) {
            self.result = result
            staysByListing = Dictionary(grouping: result.stays, by: \.listing)
        }

        private func failed(_ error: ReportsError) -> ScenarioError {
            ScenarioError(.reportFailed, "cannot build the report page of \(result.scenario.file): \(error.message)", file: result.scenario.file)
        }

        func chart(_ listing: String) throws(ScenarioError) -> String? {
            guard let trace = result.reports?.stream.trace(listing: listing) else { return nil }
            do throws(ReportsError) {
                return try ListingChart.svg(listing: listing, trace: trace, stays: staysByListing[listing] ?? [], calendar: result.scenario.calendar)
            } catch { throw failed(error) }
        }

        func timeseries(_ piece: (String) -> Void) throws(ScenarioError) -> Bool {
            guard let reports = result.reports else { return false }
            try reports.timeseries.read(for: "timeseries.csv", piece)
            return true
        }

        func kpi() throws(ScenarioError) -> String? {
            guard let reports = result.reports else { return nil }
            let scenario = result.scenario
            do throws(ReportsError) {
                return try KPIReport.csv(ledger: result.ledger, stream: reports.stream, listings: scenario.listings.map(\.id), stays: result.stays,
                                         co2KgPerKWh: scenario.co2KgPerKWh)
            } catch { throw failed(error) }
        }
    }

    /// The page of `result`, whose report files `files` (names, as written) sit beside it.
    /// - Throws: ``ScenarioError`` `scenario.reportFailed` when a chart cannot be drawn or the timeseries read.
    public static func html(_ result: ScenarioResult, files: [String]) throws(ScenarioError) -> String {
        try html(result.scenario, summary: RunSummary(result), record: PageRecord(result), files: files, sources: ResultSources(result))
    }

    /// The page of a run of `scenario` that ended as `summary` and `record` say (one run's, or its parts'
    /// merged: the same bytes), whose report files `files` sit beside it and are read through `sources`.
    /// - Throws: ``ScenarioError`` `scenario.reportFailed` when a source cannot be read.
    static func html(_ scenario: Scenario, summary: RunSummary, record: PageRecord, files: [String], sources: some Sources) throws(ScenarioError) -> String {
        let calendar = scenario.calendar
        let names = Names(scenario, stays: record.stays)
        var failedPaths: [String: ScenarioFailure] = [:]
        for failure in summary.failures where failedPaths[failure.path] == nil { failedPaths[failure.path] = failure }
        let events = events(scenario, record: record, names: names, failedPaths: failedPaths)
        let e = HTMLPage.escape
        var page = HTMLPage.open(title: "\(summary.passed ? "PASS" : "FAIL") — \(scenario.name)")
        // The verdict, what ran, and the failures: the first screen.
        page += "<header>\n<h1>\(e(scenario.name))</h1>\n"
        page += "<p><span id=\"verdict\" class=\"verdict \(summary.passed ? "pass" : "fail")\">\(summary.passed ? "PASS" : "FAIL")</span> "
        page += "<span class=\"meta\">\(e(scenario.file)) · \(e(calendar.localDateTime(at: scenario.start).description)) to "
        page += "\(e(calendar.localDateTime(at: scenario.end).description)) (\(e(calendar.identifier))) · \(number(summary.simulatedSeconds / 3600)) h simulated · "
        page += "\(summary.stepsRun) step(s) · \(summary.expectationsChecked) expectation(s), \(summary.failures.count) failed · \(record.ruleRuns) rule run(s)</span></p>\n"
        if let description = scenario.description { page += "<p class=\"meta\">\(e(description))</p>\n" }
        page += "<nav><a href=\"#expectations\">Expectations</a><a href=\"#charts\">Charts</a><a href=\"#timeline\">Timeline</a>"
        page += "<a href=\"#outbox\">Outbox</a><a href=\"#energy\">Energy and KPIs</a>"
        if record.coverage != nil { page += "<a href=\"#coverage\">Rule coverage</a>" }
        page += "<a href=\"#files\">Files</a></nav>\n</header>\n"
        if !summary.failures.isEmpty {
            page += try failuresSection(scenario, failures: summary.failures, events: events, failedPaths: failedPaths, names: names,
                                        record: record, sources: sources)
        }
        page += expectationsSection(scenario, failures: summary.failures, failedPaths: failedPaths)
        let overlays = Dictionary(record.listings.map { ($0.id, $0.overlay) }, uniquingKeysWith: { first, _ in first })
        page += try chartsSection(scenario, failedPaths: failedPaths, names: names, overlay: { overlays[$0] ?? "" }) { listing throws(ScenarioError) in
            try sources.chart(listing)
        }
        page += timelineSection(events, scenario: scenario)
        page += outboxSection(scenario, record: record)
        page += try energySection(scenario, record: record, sources: sources)
        if let coverage = record.coverage { page += coverageSection(coverage) }
        page += "<h2 id=\"files\">Files</h2>\n<p>" + files.map { "<a href=\"\(HTMLPage.href($0))\">\(e($0))</a>" }.joined(separator: " · ") + "</p>\n"
        page += filterScript
        page += HTMLPage.close
        return page
    }

    // MARK: Failures

    /// Each failure in a box: expected, actual, when, links to its moment and its chart; then the events
    /// around it that touch its Item, listing or rule (rule runs all), and the listing's measured rows.
    static func failuresSection(_ scenario: Scenario, failures: [ScenarioFailure], events: [Event], failedPaths: [String: ScenarioFailure],
                                names: Names, record: PageRecord, sources: some Sources) throws(ScenarioError) -> String {
        let e = HTMLPage.escape
        var text = "<section id=\"failures\">\n<h2>\(failures.count) failure(s)</h2>\n"
        // Where each failure is: its expectation or step, the instant, what it concerns.
        var places: [(failure: ScenarioFailure, at: SimInstant, listing: String, item: String?, rule: String)] = []
        for failure in failures {
            if let expectation = scenario.expectations.first(where: { $0.path == failure.path }) {
                let concern = concerns(expectation, names: names, scenario: scenario)
                places.append((failure, expectation.at ?? scenario.end, concern.listing, concern.item, concern.rule))
            } else if let step = scenario.timeline.first(where: { $0.path == failure.path }) {
                let event = events.first { $0.kind == .step && $0.anchor == "t-" + HTMLPage.anchor(step.path) }
                places.append((failure, step.at, event?.listing ?? "", event?.items.first, event?.rule ?? ""))
            } else {
                places.append((failure, scenario.end, "", nil, ""))
            }
        }
        let measured = try measuredRows(scenario, sources: sources, interval: record.intervalMilliseconds, around: places.map { ($0.listing, $0.at) })
        for (index, place) in places.enumerated() {
            let failure = place.failure
            text += "<div class=\"failure\" id=\"failure-\(index + 1)\">\n"
            text += "<p><b>\(e(failure.path))</b>\(failure.line.map { " (line \($0))" } ?? "") at <b>\(e(failure.at))</b>"
            text += " · <a href=\"#t-\(HTMLPage.anchor(failure.path))\">its moment in the timeline</a>"
            if !place.listing.isEmpty { text += " · <a href=\"#chart-\(HTMLPage.anchor(place.listing))\">chart of \(e(place.listing))</a>" }
            text += "</p>\n<p>expected <code>\(e(failure.expected))</code><br>actual <span class=\"actual\">\(e(failure.actual))</span></p>\n"
            let from = place.at - contextSpan, to = place.at + contextSpan
            let item = place.item.map(Names.ruleSide)
            func touches(_ event: Event) -> Bool {
                event.kind != .check && ((item.map { item in event.items.contains { Names.ruleSide($0) == item } } ?? false)
                    || (!place.listing.isEmpty && event.listing == place.listing) || (!place.rule.isEmpty && event.rule == place.rule))
            }
            var near = events.filter { event in event.at >= from && event.at <= to && (touches(event) || event.kind == .rule) }
            // Too little nearby to say why: the last few events before it that touch it, however long ago.
            var earlier = 0
            if near.count < 5 {
                let before = events.filter { $0.at < from && touches($0) }.suffix(5 - near.count)
                earlier = before.count
                near = Array(before) + near
            }
            let shown = near.count > 40 ? Array(near.filter { $0.at <= place.at }.suffix(30) + near.filter { $0.at > place.at }.prefix(10)) : near
            let subject = [place.item.map { "Item \($0)" }, place.listing.isEmpty ? nil : "listing \(place.listing)",
                           place.rule.isEmpty ? nil : "rule \(place.rule)"].compactMap { $0 }
            text += "<details open><summary>Around \(e(failure.at)): \(near.count - earlier) event(s) within 2 h"
            text += subject.isEmpty ? "" : " touching \(e(subject.joined(separator: ", "))), and every rule run"
            text += earlier > 0 ? "; before that, the last \(earlier) touching it" : ""
            text += shown.count < near.count ? " (\(shown.count) shown)" : ""
            text += "</summary>\n"
            if shown.isEmpty {
                text += "<p class=\"meta\">Nothing touching it happened within two hours of this moment.</p>\n"
            } else {
                text += "<table><tr><th>time</th><th>kind</th><th>what</th></tr>\n"
                for event in shown {
                    text += "<tr class=\"k-\(event.kind.name)\"><td>\(e(scenario.calendar.localDateTime(at: event.at).description))</td>"
                        + "<td>\(event.kind.name)</td><td>\(e(event.text))</td></tr>\n"
                }
                text += "</table>\n"
            }
            if let rows = measured[index], !rows.isEmpty {
                text += "<p class=\"small\">Measured (timeseries.csv) for \(e(place.listing)) within an hour:</p>\n<table>"
                text += "<tr>" + TimeseriesReport.header.map { "<th>\(e($0))</th>" }.joined() + "</tr>\n"
                for row in rows { text += "<tr>" + row.map { "<td>\(e($0))</td>" }.joined() + "</tr>\n" }
                text += "</table>\n"
            }
            text += "</details>\n</div>\n"
        }
        return text + "</section>\n"
    }

    /// For each `(listing, at)`, the timeseries rows of the listing within ``measuredSpan`` of `at` (`nil`
    /// without a listing), read in one pass over the spooled `timeseries.csv`.
    static func measuredRows(_ scenario: Scenario, sources: some Sources, interval: Int64,
                             around places: [(listing: String, at: SimInstant)]) throws(ScenarioError) -> [[[String]]?] {
        guard interval > 0, places.contains(where: { !$0.listing.isEmpty }) else {
            return places.map { _ in nil }
        }
        let calendar = scenario.calendar, start = scenario.start
        // The ticks wanted, as timeseries.csv writes their times: "time,listing," opens each wanted row.
        var wanted: [String: [Int]] = [:]
        for (index, place) in places.enumerated() where !place.listing.isEmpty {
            let from = (place.at - measuredSpan - start).milliseconds, to = (place.at + measuredSpan - start).milliseconds
            var tick = max(0, (from + interval - 1) / interval) * interval
            while tick <= to {
                let at = start + .milliseconds(tick)
                if at <= scenario.end {
                    wanted[calendar.timestamp(at: at) + "," + CSVWriter.field(place.listing) + ",", default: []].append(index)
                }
                tick += interval
            }
        }
        var rows = places.map { $0.listing.isEmpty ? nil : [[String]]() }
        var pending = ""
        func take(_ line: Substring) {
            guard let comma = line.firstIndex(of: ","), let second = line[line.index(after: comma)...].firstIndex(of: ",") else { return }
            guard let indices = wanted[String(line[...second])] else { return }
            let fields = CSVRecordLine.fields(String(line))
            for index in indices { rows[index]?.append(fields) }
        }
        let recorded = try sources.timeseries { piece in
            pending += piece
            var lines = pending.split(separator: "\n", omittingEmptySubsequences: false)
            pending = String(lines.removeLast())
            for line in lines { take(line) }
        }
        guard recorded else { return places.map { _ in nil } }
        if !pending.isEmpty { take(Substring(pending)) }
        return rows
    }

    // MARK: Expectations

    /// The expectations' table, each linked to its row in the timeline.
    static func expectationsSection(_ scenario: Scenario, failures: [ScenarioFailure], failedPaths: [String: ScenarioFailure]) -> String {
        let e = HTMLPage.escape
        var text = "<h2 id=\"expectations\">Expectations (\(scenario.expectations.count), \(failures.filter { $0.path.hasPrefix("expect") }.count) failed)</h2>\n"
        let stepFailures = failures.filter { !$0.path.hasPrefix("expect") }
        if !stepFailures.isEmpty {
            text += "<p>\(stepFailures.count) timeline step(s) did not behave as expected: "
                + stepFailures.map { "<a href=\"#t-\(HTMLPage.anchor($0.path))\">\(e($0.path))</a>" }.joined(separator: ", ") + ".</p>\n"
        }
        guard !scenario.expectations.isEmpty else { return text + "<p class=\"meta\">The scenario has no expectations.</p>\n" }
        text += "<table id=\"expectation-table\"><tr><th>expectation</th><th>line</th><th>at</th><th>result</th><th>expected</th><th>actual</th></tr>\n"
        for expectation in scenario.expectations {
            let failure = failedPaths[expectation.path]
            let at = scenario.calendar.localDateTime(at: expectation.at ?? scenario.end).description + (expectation.at == nil ? " (end)" : "")
            let name = "<a href=\"#t-\(HTMLPage.anchor(expectation.path))\">\(e(expectation.path))</a>"
            text += "<tr class=\"\(failure == nil ? "passed" : "failed")\"><td>\(name)</td>"
            text += "<td class=\"n\">\(expectation.line)</td><td>\(e(at))</td><td class=\"s\">\(failure == nil ? "pass" : "FAIL")</td>"
            text += "<td>\(e(failure?.expected ?? describe(expectation, calendar: scenario.calendar)))</td>"
            text += "<td>\(failure.map { e($0.actual) } ?? "as expected")</td></tr>\n"
        }
        return text + "</table>\n"
    }

    // MARK: Charts

    /// Per listing its chart (as `chart-<listing>.svg` draws it) with the expectations' moments marked
    /// (red: failed); inline within ``chartBudget``, else a link to the SVG file.
    static func chartsSection(_ scenario: Scenario, failedPaths: [String: ScenarioFailure], names: Names,
                              overlay: (String) -> String = { _ in "" },
                              chart: (String) throws(ScenarioError) -> String?) throws(ScenarioError) -> String {
        let e = HTMLPage.escape
        var text = "<h2 id=\"charts\">Charts</h2>\n<p class=\"small meta\">Indoor and outdoor temperature, heating and cooling on, stays "
            + "(grey); dashed verticals mark the expectations' moments (red: failed); the green steps are each thermostat's setpoint as "
            + "the timeline, the rules and the automations commanded it (what the device made of a command is in the timeline).</p>\n"
        var chartNames = Set<String>()
        var spent = 0, linked: [(String, String)] = []
        for listing in scenario.listings.map(\.id).sorted() {
            let file = ReportWriter.listingFileName("chart", listing, "svg", taken: &chartNames)
            let marks = scenario.expectations.compactMap { expectation -> (SimInstant, Bool, String)? in
                guard concerns(expectation, names: names, scenario: scenario).listing == listing else { return nil }
                return (expectation.at ?? scenario.end, failedPaths[expectation.path] != nil, expectation.path)
            }
            let failing = marks.contains { $0.1 }
            guard spent < chartBudget || failing, var svg = try chart(listing) else {
                linked.append((listing, file))
                continue
            }
            if let declaration = svg.range(of: "?>\n") { svg.removeSubrange(svg.startIndex..<declaration.upperBound) }
            let drawn = overlay(listing)
            if !marks.isEmpty || !drawn.isEmpty, let close = svg.range(of: "</svg>", options: .backwards) {
                var overlay = drawn + "<g id=\"marks-\(HTMLPage.anchor(listing))\">\n"
                for (at, failed, path) in marks.sorted(by: { ($0.0, $0.2) < ($1.0, $1.2) }) {
                    let x = Figures.decimal(ListingChart.plotX(at, start: scenario.start, end: scenario.end), 1)
                    overlay += "<line x1=\"\(x)\" x2=\"\(x)\" y1=\"\(Int(ListingChart.plotTop))\" y2=\"\(Int(ListingChart.plotBottom))\" "
                        + "stroke=\"\(failed ? "#c0392b" : "#7f8c8d")\" stroke-width=\"\(failed ? 2 : 1)\" stroke-dasharray=\"4 3\">"
                        + "<title>\(e(path))\(failed ? " failed" : " holds")</title></line>\n"
                }
                svg.replaceSubrange(close, with: overlay + "</g>\n</svg>")
            }
            spent += svg.utf8.count
            text += "<h3 id=\"chart-\(HTMLPage.anchor(listing))\">\(e(listing)) <a class=\"small\" href=\"\(HTMLPage.href(file))\">\(e(file))</a></h3>\n" + svg
        }
        if !linked.isEmpty {
            text += "<p>\(linked.count) more chart(s), linked to keep this page small: "
                + linked.map { "<a id=\"chart-\(HTMLPage.anchor($0.0))\" href=\"\(HTMLPage.href($0.1))\">\(e($0.0))</a>" }.joined(separator: " · ") + "</p>\n"
        }
        return text
    }

    /// The commanded setpoints as stepped green lines over a chart drawn from `trace`, with a legend entry.
    static func setpointOverlay(_ setpoints: [(device: String, points: [(SimInstant, Double)])], trace: ListingChart.Trace,
                                scenario: Scenario) -> String {
        guard !setpoints.isEmpty else { return "" }
        var text = "<g id=\"setpoints\">\n"
        func x(_ at: SimInstant) -> String { Figures.decimal(ListingChart.plotX(at, start: scenario.start, end: scenario.end), 1) }
        let scale = ListingChart.plotYScale(trace: trace)
        func y(_ celsius: Double) -> String {
            Figures.decimal(min(max(scale(celsius), ListingChart.plotTop), ListingChart.plotBottom), 1)
        }
        for (device, points) in setpoints {
            var coordinates: [String] = []
            for (index, point) in points.enumerated() {
                if index > 0 { coordinates.append("\(x(point.0)),\(y(points[index - 1].1))") }
                coordinates.append("\(x(point.0)),\(y(point.1))")
            }
            if let last = points.last { coordinates.append("\(x(scenario.end)),\(y(last.1))") }
            text += "<polyline class=\"setpoint\" fill=\"none\" stroke=\"#27ae60\" stroke-width=\"1.5\" points=\"\(coordinates.joined(separator: " "))\">"
                + "<title>\(HTMLPage.escape(device)) setpoint (commanded)</title></polyline>\n"
        }
        text += "<line x1=\"714\" x2=\"736\" y1=\"38\" y2=\"38\" stroke=\"#27ae60\" stroke-width=\"2\"/>"
            + "<text x=\"742\" y=\"42\">setpoint (commanded)</text>\n</g>\n"
        return text
    }

    // MARK: Timeline

    /// The run's events with filters by listing, Item, rule and kind; at most ``maxTimelineRows`` rows
    /// (the checks and every event within ``contextSpan`` of a failure always, then the earliest).
    static func timelineSection(_ events: [Event], scenario: Scenario) -> String {
        let e = HTMLPage.escape
        let calendar = scenario.calendar
        var keep = [Bool](repeating: false, count: events.count)
        let failures = Array(events.filter { $0.status == "fail" }.map(\.at).prefix(50))
        var kept = 0
        for (index, event) in events.enumerated()
        where event.kind == .check || failures.contains(where: { event.at >= $0 - contextSpan && event.at <= $0 + contextSpan }) {
            if kept < maxTimelineRows * 2 || event.kind == .check { keep[index] = true; kept += 1 }
        }
        for index in events.indices where !keep[index] && kept < maxTimelineRows {
            keep[index] = true
            kept += 1
        }
        let shown = events.indices.filter { keep[$0] }.map { events[$0] }
        var text = "<h2 id=\"timeline\">Timeline</h2>\n"
        if shown.count < events.count {
            text += "<p class=\"meta\">Showing \(shown.count) of \(events.count) events: every check, everything within two hours of a "
                + "failure, then the earliest. The whole log: <code>rental-twin run \(e(scenario.file)) --log</code>.</p>\n"
        }
        func options(_ values: [String]) -> String {
            Set(values).subtracting([""]).sorted().prefix(1000).map { "<option>\(e($0))</option>" }.joined()
        }
        text += "<form id=\"filters\" onsubmit=\"return false\">"
        text += "<label>listing <select id=\"f-listing\"><option value=\"\">all</option>\(options(shown.map(\.listing)))</select></label>"
        text += "<label>Item <select id=\"f-item\"><option value=\"\">all</option>\(options(shown.flatMap(\.items)))</select></label>"
        text += "<label>rule <select id=\"f-rule\"><option value=\"\">all</option>\(options(shown.map(\.rule)))</select></label>"
        text += "<label>kind <select id=\"f-kind\"><option value=\"\">all</option>"
            + [Event.Kind.step, .automation, .rule, .outbox, .check].map { "<option>\($0.name)</option>" }.joined() + "</select></label>"
        text += " <span id=\"f-count\" class=\"small meta\"></span></form>\n"
        text += "<table id=\"timeline-table\"><thead><tr><th>time</th><th>kind</th><th>listing</th><th>what</th></tr></thead><tbody>\n"
        for event in shown {
            let status = event.status.map { $0 == "fail" ? " failed" : " passed" } ?? ""
            text += "<tr class=\"k-\(event.kind.name)\(status)\"\(event.anchor.map { " id=\"\($0)\"" } ?? "") data-l=\"\(e(event.listing))\" "
                + "data-i=\"\(e(event.items.joined(separator: " ")))\" data-r=\"\(e(event.rule))\" data-k=\"\(event.kind.name)\">"
                + "<td>\(e(calendar.localDateTime(at: event.at).description))</td><td>\(event.kind.name)</td><td>\(e(event.listing))</td>"
                + "<td\(event.status == nil ? "" : " class=\"s\"")>\(e(event.text))</td></tr>\n"
        }
        return text + "</tbody></table>\n"
    }

    /// Hides the timeline rows the filters exclude (the page's one script).
    static let filterScript = """
        <script>
        (function(){
          var ids=["f-listing","f-item","f-rule","f-kind"];
          function apply(){
            var v=ids.map(function(id){return document.getElementById(id).value;});
            var rows=document.querySelectorAll("#timeline-table tbody tr"),shown=0;
            for(var n=0;n<rows.length;n++){
              var d=rows[n].dataset;
              var ok=(!v[0]||d.l===v[0])&&(!v[1]||(" "+d.i+" ").indexOf(" "+v[1]+" ")>=0)&&(!v[2]||d.r===v[2])&&(!v[3]||d.k===v[3]);
              rows[n].hidden=!ok;if(ok)shown++;
            }
            document.getElementById("f-count").textContent=shown+" of "+rows.length+" rows";
          }
          ids.forEach(function(id){document.getElementById(id).addEventListener("change",apply);});
          document.getElementById("f-count").textContent=document.querySelectorAll("#timeline-table tbody tr").length+" rows";
        })();
        </script>

        """

    // MARK: Outbox, energy, KPIs

    static func outboxSection(_ scenario: Scenario, record: PageRecord) -> String {
        let e = HTMLPage.escape
        var text = "<h2 id=\"outbox\">Outbox</h2>\n"
        guard !record.outbox.isEmpty else { return text + "<p class=\"meta\">The rules sent nothing.</p>\n" }
        let shown = record.outbox.prefix(500)
        text += "<table><tr>" + OutboxReport.header.map { "<th>\(e($0))</th>" }.joined() + "</tr>\n"
        for m in shown {
            text += "<tr><td>\(e(scenario.calendar.localDateTime(at: m.at).description))</td><td>\(e(m.rule))</td><td>\(e(m.channel))</td>"
                + "<td>\(e(m.action))</td><td>\(e(m.recipient))</td><td>\(e(m.text))</td></tr>\n"
        }
        text += "</table>\n"
        let more = record.outbox.count - shown.count + record.outboxDropped
        if more > 0 { text += "<p>… and \(more) more in <a href=\"\(OutboxReport.fileName)\">\(OutboxReport.fileName)</a>.</p>\n" }
        return text
    }

    static func energySection(_ scenario: Scenario, record: PageRecord, sources: some Sources) throws(ScenarioError) -> String {
        let e = HTMLPage.escape
        let figures = Dictionary(record.listings.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var text = "<h2 id=\"energy\">Energy and KPIs</h2>\n<h3>Energy over the run, kWh</h3>\n"
        text += "<table><tr><th>listing</th><th>device</th><th>type</th><th>kWh</th></tr>\n"
        var rows = 0
        for listing in scenario.listings.sorted(by: { $0.id < $1.id }) {
            guard rows < 400 else { break }
            let figure = figures[listing.id]
            for (index, device) in listing.devices.enumerated() {
                let kWh = figure.flatMap { index < $0.deviceKWh.count ? $0.deviceKWh[index] : nil } ?? "–"
                text += "<tr><td>\(e(listing.id))</td><td>\(e(device.id))</td><td>\(e(device.kind.typeName))</td><td class=\"n\">\(e(kWh))</td></tr>\n"
                rows += 1
            }
            text += "<tr><td><b>\(e(listing.id))</b></td><td>all</td><td></td><td class=\"n\"><b>\(e(figure?.totalKWh ?? "–"))</b></td></tr>\n"
        }
        text += "</table>\n"
        if rows >= 400 { text += "<p>More listings in <a href=\"energy-daily.csv\">energy-daily.csv</a>.</p>\n" }
        guard let kpi = try sources.kpi() else { return text }
        return text + kpiTable(kpi)
    }

    /// The KPI table from `kpi.csv`'s text: every row, or only the listings' rows when there are many stays.
    static func kpiTable(_ kpi: String) -> String {
        let e = HTMLPage.escape
        var text = ""
        let records = kpi.split(separator: "\n").map { CSVRecordLine.fields(String($0)) }
        guard let header = records.first else { return text }
        let body = records.dropFirst()
        let shown = body.count > 300 ? Array(body.filter { $0.first == "listing" }.prefix(300)) : Array(body)
        text += "<h3>KPIs (kpi.csv)</h3>\n<table><tr>" + header.map { "<th>\(e($0))</th>" }.joined() + "</tr>\n"
        for record in shown {
            text += "<tr>" + record.enumerated().map { $0.offset >= 5 ? "<td class=\"n\">\(e($0.element))</td>" : "<td>\(e($0.element))</td>" }.joined() + "</tr>\n"
        }
        text += "</table>\n"
        if shown.count < body.count { text += "<p>Per-stay rows (\(body.count - shown.count)) in <a href=\"kpi.csv\">kpi.csv</a>.</p>\n" }
        return text
    }

    // MARK: Coverage

    /// Per rule file: rules started, lines run and branches taken, and which rules never started and
    /// which lines never ran.
    static func coverageSection(_ files: [RuleFileCoverage]) -> String {
        let e = HTMLPage.escape
        var text = "<h2 id=\"coverage\">Rule coverage</h2>\n"
        guard !files.isEmpty else { return text + "<p class=\"meta\">The scenario loads no rule files.</p>\n" }
        text += coverageTable(files)
        for file in files where !file.rulesNeverStarted.isEmpty || !file.linesNeverRun.isEmpty {
            text += "<p><code>\(e(file.file))</code>: "
            if !file.rulesNeverStarted.isEmpty {
                text += "never started: " + file.rulesNeverStarted.map { "\"\(e(Rule.shown($0.name)))\" (line \($0.line))" }.joined(separator: ", ") + ". "
            }
            if !file.linesNeverRun.isEmpty { text += "Lines never run: \(lineRanges(file.linesNeverRun))." }
            text += "</p>\n"
        }
        return text
    }

    /// The per-file coverage table (the suite index shows it too).
    static func coverageTable(_ files: [RuleFileCoverage]) -> String {
        let e = HTMLPage.escape
        var text = "<table class=\"coverage\"><tr><th>rule file</th><th>rules started</th><th>lines run</th><th>branches taken</th></tr>\n"
        for file in files {
            let started = file.functions.filter { $0.count > 0 }.count, run = file.lines.values.filter { $0 > 0 }.count
            let taken = file.branches.filter { $0.count > 0 }.count
            text += "<tr><td><code>\(e(file.file))</code></td><td class=\"n\">\(started) of \(file.functions.count)</td>"
                + "<td class=\"n\">\(run) of \(file.lines.count)</td><td class=\"n\">\(taken) of \(file.branches.count)</td></tr>\n"
        }
        return text + "</table>\n"
    }

    /// `3, 7–9, 12`.
    static func lineRanges(_ lines: [Int]) -> String {
        var parts: [String] = []
        var index = 0
        while index < lines.count {
            var end = index
            while end + 1 < lines.count, lines[end + 1] == lines[end] + 1 { end += 1 }
            parts.append(end == index ? "\(lines[index])" : "\(lines[index])–\(lines[end])")
            index = end + 1
        }
        return parts.joined(separator: ", ")
    }
}
