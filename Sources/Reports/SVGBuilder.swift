/// Accumulates an SVG document line by line, starting with the XML declaration.
struct SVGBuilder {
    /// The document so far.
    private(set) var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"

    /// Appends `content` and a line feed.
    mutating func line(_ content: String) { text += content + "\n" }

    /// Opens the `<svg>` element sized by `layout`.
    mutating func open(_ layout: ListingChart.Layout) {
        line("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(layout.width)\" height=\"\(layout.height)\" "
             + "viewBox=\"0 0 \(layout.width) \(layout.height)\" font-family=\"sans-serif\" font-size=\"11\">")
    }
}
