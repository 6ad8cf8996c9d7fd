/// Makes user text safe to echo on a terminal: control characters never reach it raw.
enum Printable {
    /// `text` with control characters written as escapes (`\u{0}`), cut to `limit` characters.
    static func escaped(_ text: String, limit: Int = .max) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count >= limit {
                out += "..."
                break
            }
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return out
    }

    /// `text` with each control character replaced by one `?`, so columns stay where they were.
    static func sameWidth(_ text: Substring) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            scalar.value < 0x20 && scalar != "\t" || scalar.value == 0x7F ? "?" : scalar
        }))
    }
}
