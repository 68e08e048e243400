import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Reports
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
}
