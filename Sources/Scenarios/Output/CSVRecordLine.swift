/// One CSV record's fields (RFC 4180 quoting), for the page's tables made from the CSV reports.
enum CSVRecordLine {
    static func fields(_ line: String) -> [String] {
        var fields: [String] = [], field = "", quoted = false, chars = Array(line), index = 0
        if chars.last == "\r" { chars.removeLast() }
        while index < chars.count {
            let c = chars[index]
            if quoted {
                if c == "\"" {
                    if index + 1 < chars.count, chars[index + 1] == "\"" { field.append("\""); index += 1 } else { quoted = false }
                } else {
                    field.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                fields.append(field)
                field = ""
            } else {
                field.append(c)
            }
            index += 1
        }
        fields.append(field)
        return fields
    }
}
