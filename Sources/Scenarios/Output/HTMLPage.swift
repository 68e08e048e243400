import Reports

/// The pieces every report page shares: escaping, the style sheet, the page's frame. Pages are built as
/// text, deterministic (no clock, no random ids, sorted wherever a dictionary is read), self-contained
/// (inline CSS and SVG, no request to any network) and open from the file system.
enum HTMLPage {
    /// `text` safe for HTML content and attribute values (the XML escape: `&`, `<`, `>`, quotes; control
    /// characters dropped).
    static func escape(_ text: String) -> String { XMLText.escape(text) }

    /// A fragment id made from `text`: letters, digits, `-` and `_` kept, everything else `_`.
    static func anchor(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_" ? scalar : "_"
        }))
    }

    /// A relative link to a file written beside the page: each path segment percent-encoded where it is
    /// not a plain character (a listing id may hold spaces or `#`).
    static func href(_ name: String) -> String {
        var out = ""
        for byte in name.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if byte < 0x80, c.isLetter || c.isNumber || "-_./~".contains(c) {
                out.append(c)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }

    /// The page's opening: doctype, title, the style sheet, the body.
    static func open(title: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="rental-twin">
        <title>\(escape(title))</title>
        <style>
        \(style)
        </style>
        </head>
        <body>

        """
    }

    /// The page's end.
    static let close = "</body>\n</html>\n"

    static let style = """
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1100px;padding:12px 20px;color:#1c2833;background:#fbfcfc}
        h1{font-size:22px;margin:6px 0}h2{font-size:18px;margin:22px 0 8px;border-bottom:1px solid #d5d8dc;padding-bottom:3px}h3{font-size:15px;margin:14px 0 6px}
        table{border-collapse:collapse;margin:4px 0 10px;font-size:13px}th,td{border:1px solid #d5d8dc;padding:3px 7px;text-align:left;vertical-align:top}
        th{background:#eaeded}td:first-child{white-space:nowrap}td.n{text-align:right;font-variant-numeric:tabular-nums}
        .verdict{display:inline-block;font-weight:bold;padding:3px 12px;border-radius:4px;color:#fff;font-size:16px}
        .pass{background:#1e8449}.fail{background:#c0392b}.pending{background:#7f8c8d}
        tr.failed td{background:#fdedec}tr.passed td.s{color:#1e8449}tr.failed td.s{color:#c0392b;font-weight:bold}
        .failure{border:2px solid #c0392b;border-radius:6px;padding:6px 12px;margin:8px 0;background:#fdf2f1}
        .failure .actual{font-weight:bold;color:#922b21}
        .meta{color:#566573}.small{font-size:12px}code{font-size:12px;background:#f2f3f4;padding:0 3px}
        nav a{margin-right:12px}
        #filters select{margin-right:10px;max-width:260px}
        tr.k-check td:first-child{border-left:3px solid #7f8c8d}tr.k-rule td:first-child{border-left:3px solid #8e44ad}
        tr.k-step td:first-child{border-left:3px solid #2874a6}tr.k-automation td:first-child{border-left:3px solid #d68910}
        tr.k-outbox td:first-child{border-left:3px solid #17a589}
        :target{outline:2px solid #f1c40f}
        svg{max-width:100%;height:auto}
        """
}

extension String {
    /// The text with `0`s before it up to `width` characters.
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
