import Simulation

/// A self-contained SVG chart of one listing: indoor and outdoor temperature, heater and cooler on-periods, stays.
///
/// The chart has a title, a legend, a °C axis with gridlines, a time axis with a tick at each
/// local midnight (labelled with the date; every *k*-th day when there are more than 12), the
/// indoor and outdoor temperatures as one `<polyline>` each (`id="indoor"`, `id="outdoor"`),
/// non-cancelled stays of the listing as grey bands behind them (`class="stay"`), and one lane
/// per heating or cooling device below the plot with a bar (`class="on-period"`) for every
/// period the device drew power.
///
/// The output is deterministic text: fixed layout, numbers with fixed decimals via
/// ``CSVWriter/decimal(_:places:)``, no scripts, no external references, text XML-escaped.
public enum ListingChart {
    /// The SVG for `listing` over `[start, end]`.
    /// - Parameters:
    ///   - listing: the listing id; snapshots, transitions and stays of other listings are ignored.
    ///   - snapshots: meter snapshots (any order); those inside `[start, end]` make the temperature lines.
    ///   - transitions: power transitions (any order; equal times keep their order) for the device lanes.
    ///   - stays: reservations; the listing's non-cancelled ones are shaded.
    ///   - calendar: the time zone of the day ticks.
    ///   - start: the left edge of the time axis.
    ///   - end: the right edge of the time axis; must be after `start`.
    /// - Returns: the SVG document, starting with an XML declaration and ending in `\n`.
    /// - Throws: ``ReportsError`` `report.invalidRange` when `end` is not after `start`, or
    ///   `report.nonFinite` when a temperature is not a finite number.
    public static func svg(listing: String, snapshots: [MeterSnapshot], transitions: [PowerTransition], stays: [StayRecord],
                           calendar: LocalCalendar, start: SimInstant, end: SimInstant) throws(ReportsError) -> String {
        try checkRange(listing: listing, start: start, end: end)
        var trace = Trace(start: start, end: end)
        for snapshot in snapshots.enumerated().filter({ $0.element.listing == listing })
            .sorted(by: { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }).map(\.element) {
            trace.add(snapshot)
        }
        for transition in transitions.enumerated().filter({ $0.element.listing == listing })
            .sorted(by: { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }).map(\.element) {
            trace.add(transition)
        }
        return try svg(listing: listing, trace: trace, stays: stays, calendar: calendar)
    }

    /// The SVG for `listing`, with its snapshots and transitions taken from `ledger`.
    /// - Throws: as ``svg(listing:snapshots:transitions:stays:calendar:start:end:)``.
    public static func svg(listing: String, ledger: EnergyLedger, stays: [StayRecord], calendar: LocalCalendar,
                           start: SimInstant, end: SimInstant) throws(ReportsError) -> String {
        try svg(listing: listing, snapshots: ledger.snapshots(listing: listing), transitions: ledger.transitions(listing: listing),
                stays: stays, calendar: calendar, start: start, end: end)
    }

    /// The SVG for `listing` from its ``Trace``, gathered over the trace's `[start, end]` while the run went.
    /// - Throws: ``ReportsError`` `report.nonFinite` when a temperature in the trace is not a finite number.
    public static func svg(listing: String, trace: Trace, stays: [StayRecord], calendar: LocalCalendar) throws(ReportsError) -> String {
        let start = trace.layout.start, end = trace.layout.end
        try checkRange(listing: listing, start: start, end: end)
        if let at = trace.nonFiniteAt {
            throw ReportsError(.nonFiniteNumber,
                               "The snapshot of \"\(listing)\" at \(at) has a temperature that is not a finite number; a meter is broken, so the chart was not drawn.")
        }
        let indoor = trace.indoor.points, outdoor = trace.outdoor.points
        let lanes = trace.lanes()
        // Each column keeps its lowest and highest point, so the thinned lines span the same range as the run's.
        let layout = Layout(start: start, end: end, laneCount: lanes.count,
                            temperatures: indoor.map(\.1) + outdoor.map(\.1))
        var svg = SVGBuilder()
        svg.open(layout)
        let title = "\(listing): temperature \(calendar.timestamp(at: start)) to \(calendar.timestamp(at: end))"
        svg.line("<title>\(XMLText.escape(title))</title>")
        svg.line("<rect x=\"0\" y=\"0\" width=\"\(layout.width)\" height=\"\(layout.height)\" fill=\"#ffffff\"/>")
        svg.line("<text x=\"\(layout.width / 2)\" y=\"22\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">\(XMLText.escape(title))</text>")
        try legend(&svg, layout)
        try stayBands(&svg, layout, listing: listing, stays: stays)
        try temperatureAxis(&svg, layout)
        try timeAxis(&svg, layout, calendar: calendar)
        try series(&svg, layout, id: "outdoor", colour: Palette.outdoor, dashed: true, points: outdoor)
        try series(&svg, layout, id: "indoor", colour: Palette.indoor, dashed: false, points: indoor)
        try deviceBands(&svg, layout, lanes: lanes)
        svg.line("</svg>")
        return svg.text
    }

    /// Refuses a chart whose time range does not end after it starts.
    private static func checkRange(listing: String, start: SimInstant, end: SimInstant) throws(ReportsError) {
        guard start < end else {
            throw ReportsError(.invalidRange,
                               "The chart of \"\(listing)\" needs a time range that ends after it starts, not \(start) to \(end); pass the scenario start and end.")
        }
    }

    // MARK: Parts

    /// Colours of the series and bands.
    enum Palette {
        static let indoor = "#c0392b"
        static let outdoor = "#2c3e50"
        static let heating = "#e67e22"
        static let cooling = "#3498db"
        static let stay = "#95a5a6"
        static let grid = "#d5d8dc"
    }

    /// A heating or cooling device that gets a lane.
    struct Lane: Equatable {
        let device: String
        let type: String
    }

    private static func legend(_ svg: inout SVGBuilder, _ layout: Layout) throws(ReportsError) {
        let y = 42.0
        svg.line("<g id=\"legend\">")
        let entries: [(kind: String, colour: String, label: String)] = [
            ("line", Palette.indoor, "indoor °C"), ("dash", Palette.outdoor, "outdoor °C"),
            ("band", Palette.heating, "heating on"), ("band", Palette.cooling, "cooling on"), ("band", Palette.stay, "stay"),
        ]
        for (index, entry) in entries.enumerated() {
            let x = layout.plotLeft + Double(index) * 130
            switch entry.kind {
            case "band":
                svg.line("<rect x=\(q(x)) y=\(q(y - 9)) width=\"22\" height=\"10\" fill=\"\(entry.colour)\" fill-opacity=\"\(entry.colour == Palette.stay ? "0.35" : "0.8")\"/>")
            default:
                let dash = entry.kind == "dash" ? " stroke-dasharray=\"5 3\"" : ""
                svg.line("<line x1=\(q(x)) y1=\(q(y - 4)) x2=\(q(x + 22)) y2=\(q(y - 4)) stroke=\"\(entry.colour)\" stroke-width=\"2\"\(dash)/>")
            }
            svg.line("<text x=\(q(x + 28)) y=\(q(y))>\(XMLText.escape(entry.label))</text>")
        }
        svg.line("</g>")
    }

    private static func stayBands(_ svg: inout SVGBuilder, _ layout: Layout, listing: String, stays: [StayRecord]) throws(ReportsError) {
        let shown = stays.enumerated().filter { $0.element.listing == listing && !$0.element.isCancelled }
            .sorted { ($0.element.windowStart, $0.element.reservation, $0.offset) < ($1.element.windowStart, $1.element.reservation, $1.offset) }
            .map(\.element)
        svg.line("<g id=\"stays\">")
        for stay in shown {
            let from = max(stay.windowStart, layout.start), to = min(stay.windowEnd, layout.end)
            guard from < to else { continue }
            let x0 = layout.x(from), x1 = layout.x(to)
            svg.line("<rect class=\"stay\" x=\(q(x0)) y=\(q(layout.plotTop)) width=\(q(x1 - x0)) height=\(q(layout.plotBottom - layout.plotTop)) fill=\"\(Palette.stay)\" fill-opacity=\"0.2\"/>")
            svg.line("<text x=\(q(x0 + 3)) y=\(q(layout.plotTop + 12)) font-size=\"10\" fill=\"#566573\">\(XMLText.escape(stay.reservation))</text>")
        }
        svg.line("</g>")
    }

    private static func temperatureAxis(_ svg: inout SVGBuilder, _ layout: Layout) throws(ReportsError) {
        svg.line("<g id=\"temperature-axis\">")
        let places = layout.stepC < 1 ? 1 : 0
        var index = 0
        while true {
            let value = layout.lowC + Double(index) * layout.stepC
            guard value <= layout.highC + layout.stepC / 1_000 else { break }
            let y = layout.y(value)
            svg.line("<line x1=\(q(layout.plotLeft)) y1=\(q(y)) x2=\(q(layout.plotRight)) y2=\(q(y)) stroke=\"\(Palette.grid)\" stroke-width=\"1\"/>")
            svg.line("<text x=\(q(layout.plotLeft - 6)) y=\(q(y + 4)) text-anchor=\"end\">\(try CSVWriter.decimal(value, places: places))</text>")
            index += 1
        }
        let middle = (layout.plotTop + layout.plotBottom) / 2
        svg.line("<text x=\"16\" y=\(q(middle)) text-anchor=\"middle\" transform=\"rotate(-90 16 \(try CSVWriter.decimal(middle, places: 1)))\">°C</text>")
        svg.line("</g>")
    }

    private static func timeAxis(_ svg: inout SVGBuilder, _ layout: Layout, calendar: LocalCalendar) throws(ReportsError) {
        svg.line("<g id=\"time-axis\">")
        var midnights: [(CivilDate, SimInstant)] = []
        for slice in calendar.daySlices(from: layout.start, to: layout.end) {
            let midnight = calendar.startOfDay(slice.date)
            if midnight >= layout.start { midnights.append((slice.date, midnight)) }
        }
        let next = calendar.date(at: layout.end)
        if calendar.startOfDay(next) == layout.end { midnights.append((next, layout.end)) }
        let every = max(1, (midnights.count + 11) / 12)
        for (date, midnight) in midnights {
            let (_, phase) = date.daysSinceEpoch.floorDivided(by: Int64(every))
            guard phase == 0 else { continue }
            let x = layout.x(midnight)
            svg.line("<line x1=\(q(x)) y1=\(q(layout.plotTop)) x2=\(q(x)) y2=\(q(layout.plotBottom + 5)) stroke=\"\(Palette.grid)\" stroke-width=\"1\"/>")
            svg.line("<text x=\(q(x)) y=\(q(layout.plotBottom + 17)) text-anchor=\"middle\">\(date.description)</text>")
        }
        svg.line("<rect x=\(q(layout.plotLeft)) y=\(q(layout.plotTop)) width=\(q(layout.plotRight - layout.plotLeft)) height=\(q(layout.plotBottom - layout.plotTop)) fill=\"none\" stroke=\"#566573\" stroke-width=\"1\"/>")
        svg.line("</g>")
    }

    private static func series(_ svg: inout SVGBuilder, _ layout: Layout, id: String, colour: String, dashed: Bool,
                               points: [(SimInstant, Double)]) throws(ReportsError) {
        var coordinates: [String] = []
        for (at, value) in points {
            coordinates.append("\(try CSVWriter.decimal(layout.x(at), places: 1)),\(try CSVWriter.decimal(layout.y(value), places: 1))")
        }
        let dash = dashed ? " stroke-dasharray=\"5 3\"" : ""
        svg.line("<polyline id=\"\(id)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\"\(dash) points=\"\(coordinates.joined(separator: " "))\"/>")
    }

    private static func deviceBands(_ svg: inout SVGBuilder, _ layout: Layout,
                                    lanes: [(lane: Lane, bands: [(SimInstant, SimInstant)])]) throws(ReportsError) {
        svg.line("<g id=\"devices\">")
        for (index, (lane, bands)) in lanes.enumerated() {
            let top = layout.laneTop(index)
            let colour = lane.type == "cooling" ? Palette.cooling : Palette.heating
            svg.line("<text x=\(q(layout.plotLeft - 6)) y=\(q(top + 10)) text-anchor=\"end\" font-size=\"10\">\(XMLText.escape(lane.device))</text>")
            svg.line("<rect x=\(q(layout.plotLeft)) y=\(q(top)) width=\(q(layout.plotRight - layout.plotLeft)) height=\"12\" fill=\"#f4f6f6\"/>")
            for (from, to) in bands {
                let x0 = layout.x(from), width = max(0.5, layout.x(to) - x0)
                svg.line("<rect class=\"on-period\" x=\(q(x0)) y=\(q(top)) width=\(q(width)) height=\"12\" fill=\"\(colour)\" fill-opacity=\"0.8\"/>")
            }
        }
        svg.line("</g>")
    }

    /// The points a polyline needs at the chart's resolution (``Trace``'s rule): per pixel column the
    /// first, lowest, highest and last point, in time order, so a year's line has the size of a week's
    /// and looks the same. A column with four points or fewer keeps them all.
    static func downsampled(_ points: [(SimInstant, Double)], _ layout: Layout) -> [(SimInstant, Double)] {
        var line = Trace.Line(layout: layout)
        for (at, value) in points { line.add(at, value) }
        return line.points
    }

    /// Periods (in order) closer than half a pixel drawn as one band (``Trace``'s rule).
    static func merged(_ periods: [(SimInstant, SimInstant)], _ layout: Layout) -> [(SimInstant, SimInstant)] {
        var bands: [(SimInstant, SimInstant)] = []
        for period in periods { merge(period, into: &bands, layout) }
        return bands
    }

    /// Appends `period` to `bands`, or joins it to the last band when the gap is under half a pixel:
    /// the gap could not be seen, and a year of thermostat cycles would otherwise be tens of
    /// thousands of rectangles.
    static func merge(_ period: (SimInstant, SimInstant), into bands: inout [(SimInstant, SimInstant)], _ layout: Layout) {
        if let last = bands.last, layout.x(period.0) - layout.x(last.1) < 0.5 {
            bands[bands.count - 1].1 = max(last.1, period.1)
        } else {
            bands.append(period)
        }
    }

    /// `"12.5"`: a coordinate with one decimal, in attribute quotes (finite by construction).
    private static func q(_ value: Double) -> String {
        "\"" + ((try? CSVWriter.decimal(value, places: 1)) ?? "0") + "\""
    }
}
