import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import Reports
import Simulation
import Testing

@Suite("Listing charts (SVG)")
struct ListingChartTests {
    private func chart(_ listing: String, _ f: ReportsFixture, ledger: EnergyLedger? = nil) throws -> String {
        try ListingChart.svg(listing: listing, ledger: ledger ?? f.ledger, stays: f.stays, calendar: f.calendar, start: f.start, end: f.end)
    }

    private func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test func matchesTheGoldenFile() throws {
        let f = try ReportsFixture()
        try GoldenFile.expectMatches(try chart("flat-1", f), "chart-flat-1.svg")
    }

    #if canImport(FoundationXML) || os(macOS)
    /// Every element below `node` (itself included) whose local name is `name`, in document order.
    private func elements(_ name: String, in node: XMLNode) -> [XMLElement] {
        var found: [XMLElement] = []
        if let element = node as? XMLElement, (element.localName ?? element.name) == name { found.append(element) }
        for child in node.children ?? [] { found += elements(name, in: child) }
        return found
    }

    /// The value of `element`'s attribute `name` (looked up by local name: FoundationXML's
    /// `attribute(forName:)` misses attributes of elements in a default namespace).
    private func attribute(_ name: String, of element: XMLElement) -> String? {
        element.attributes?.first { ($0.localName ?? $0.name) == name }?.stringValue
    }

    @Test("the chart parses as XML and has one polyline per series", arguments: ["flat-1", "loft"])
    func wellFormed(listing: String) throws {
        let f = try ReportsFixture()
        let document = try XMLDocument(xmlString: try chart(listing, f), options: [])
        let root = try #require(document.rootElement())
        #expect((root.localName ?? root.name) == "svg")
        let polylines = elements("polyline", in: root)
        #expect(polylines.compactMap { attribute("id", of: $0) }.sorted() == ["indoor", "outdoor"])
        let snapshotCount = f.ledger.snapshots(listing: listing).count
        for line in polylines {
            let points = (attribute("points", of: line) ?? "").split(separator: " ")
            #expect(points.count == snapshotCount)
        }
        #expect(elements("title", in: root).count == 1)
        #expect(elements("script", in: root).isEmpty)
        #expect(elements("text", in: root).contains { $0.stringValue == "°C" })
    }
    #endif

    @Test func structureWithoutAnXMLParser() throws {
        let svg = try chart("flat-1", ReportsFixture())
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(count("<polyline ", in: svg) == 2)
        #expect(count("<g ", in: svg) == count("</g>", in: svg))
        for forbidden in ["<script", "href", "url(", "nan", "inf", "-0.0\""] { #expect(!svg.contains(forbidden), "found \(forbidden)") }
        #expect(svg.contains("indoor °C") && svg.contains("outdoor °C") && svg.contains("heating on") && svg.contains("stay"))
        #expect(svg.contains(">2026-03-29</text>") && svg.contains(">2026-03-30</text>"))
        #expect(svg.contains("flat-1: temperature 2026-03-28T06:00+01:00 to 2026-03-30T18:00+02:00"))
    }

    @Test func heaterOnPeriodsComeFromPowerTransitions() throws {
        let f = try ReportsFixture()
        // flat-1 heats in the first hour of every four: hours 0, 4, …, 56 → 15 bars; loft the first three of every five → 12.
        #expect(count("class=\"on-period\"", in: try chart("flat-1", f)) == 15)
        let loft = try chart("loft", f)
        #expect(count("class=\"on-period\"", in: loft) == 12)
        #expect(loft.contains(">ac</text>"))  // the idle cooler still has its lane
    }

    @Test func onlyTheListingsNonCancelledStaysInsideTheRunAreShaded() throws {
        let f = try ReportsFixture()
        #expect(count("class=\"stay\"", in: try chart("flat-1", f)) == 2)  // r3, r1
        let loft = try chart("loft", f)
        #expect(count("class=\"stay\"", in: loft) == 1)  // r0 (clipped); r2 cancelled, r4 and r5 outside
        #expect(loft.contains(">r0</text>") && !loft.contains(">r2</text>"))
    }

    @Test func textIsEscaped() throws {
        let f = try ReportsFixture()
        let odd = "a<b & \"c\""
        let snapshots = f.snapshots.filter { $0.listing == "flat-1" }.map { s -> MeterSnapshot in
            var copy = s
            copy.listing = odd
            return copy
        }
        let svg = try ListingChart.svg(listing: odd, snapshots: snapshots, transitions: [], stays: [], calendar: f.calendar,
                                       start: f.start, end: f.end)
        #expect(svg.contains("a&lt;b &amp; &quot;c&quot;: temperature"))
        #expect(!svg.contains(odd))
        #if canImport(FoundationXML) || os(macOS)
        #expect(throws: Never.self) { try XMLDocument(xmlString: svg, options: []) }
        #endif
    }

    @Test func sameInputGivesSameBytes() throws {
        let f = try ReportsFixture()
        let a = try chart("flat-1", f), b = try chart("flat-1", f, ledger: f.shuffledLedger(seed: 3))
        #expect(Array(a.utf8) == Array(b.utf8))
    }

    @Test func anEmptyRangeOrABrokenTemperatureIsRefused() throws {
        let f = try ReportsFixture()
        do {
            _ = try ListingChart.svg(listing: "flat-1", ledger: f.ledger, stays: [], calendar: f.calendar, start: f.end, end: f.end)
            Issue.record("an empty range was accepted")
        } catch {
            #expect(error.code == .invalidRange)
        }
        var broken = f.snapshots.filter { $0.listing == "flat-1" }
        broken[1].indoorC = .nan
        do {
            _ = try ListingChart.svg(listing: "flat-1", snapshots: broken, transitions: [], stays: [], calendar: f.calendar,
                                     start: f.start, end: f.end)
            Issue.record("a NaN temperature was drawn")
        } catch {
            #expect(error.code == .nonFiniteNumber)
        }
    }

    /// A year of 15-minute snapshots: 35,040 points on an 876-pixel plot.
    private func yearLine() throws -> (points: [(SimInstant, Double)], layout: ListingChart.Layout) {
        let start = SimInstant(unixSeconds: 1_767_225_600)  // 2026-01-01T00:00Z
        var points: [(SimInstant, Double)] = []
        for i in 0..<35_040 {
            let daily: Double = 10 * sin(Double(i) / 96 * 2 * Double.pi)
            let jitter: Double = Double(i % 7) / 10
            points.append((start + .minutes(Int64(15 * i)), 5 + daily + jitter))
        }
        let layout = ListingChart.Layout(start: start, end: start + .days(365), laneCount: 0, temperatures: points.map { $0.1 })
        return (points, layout)
    }

    @Test func aYearsLineKeepsEachPixelColumnsFirstLowestHighestAndLast() throws {
        let (points, layout) = try yearLine()
        let kept = ListingChart.downsampled(points, layout)
        #expect(kept.count <= 4 * 877 && kept.count > 2 * 876)
        #expect(zip(kept, kept.dropFirst()).allSatisfy { $0.0 < $1.0 })  // in time order, no repeats
        func columns(_ list: [(SimInstant, Double)]) -> [Int: (first: SimInstant, low: Double, high: Double, last: SimInstant)] {
            var result: [Int: (first: SimInstant, low: Double, high: Double, last: SimInstant)] = [:]
            for (at, value) in list {
                let column = Int(layout.x(at).rounded(.down))
                let old = result[column] ?? (at, value, value, at)
                result[column] = (old.first, min(old.low, value), max(old.high, value), at)
            }
            return result
        }
        let full = columns(points), reduced = columns(kept)
        #expect(full.count == reduced.count)
        for (column, a) in full {
            let b = try #require(reduced[column])
            #expect(a.first == b.first && a.low == b.low && a.high == b.high && a.last == b.last, "column \(column)")
        }
    }

    @Test func aShortRunsLineIsDrawnPointForPoint() throws {
        let (points, _) = try yearLine()
        let week = Array(points.prefix(672))
        let layout = ListingChart.Layout(start: week[0].0, end: week[0].0 + .days(7), laneCount: 0, temperatures: week.map { $0.1 })
        let kept = ListingChart.downsampled(week, layout)
        #expect(kept.count == week.count && zip(kept, week).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 })
    }

    @Test func onPeriodsLessThanHalfAPixelApartAreOneBand() throws {
        let start = SimInstant(unixSeconds: 1_767_225_600)
        let layout = ListingChart.Layout(start: start, end: start + .days(365), laneCount: 1, temperatures: [0, 20])
        // 36 s is 0.001 px here; a 6-hour gap is 0.6 px.
        let periods = [(start, start + .hours(1)), (start + .hours(1) + .seconds(36), start + .hours(2)),
                       (start + .hours(8), start + .hours(9))]
        let bands = ListingChart.merged(periods, layout)
        #expect(bands.count == 2 && bands[0].0 == start && bands[0].1 == start + .hours(2) && bands[1].0 == start + .hours(8))
        let week = ListingChart.Layout(start: start, end: start + .days(7), laneCount: 1, temperatures: [0, 20])
        #expect(ListingChart.merged(periods, week).count == 2)  // 36 s is 0.05 px in a week: merged; 6 h is not
    }
}
