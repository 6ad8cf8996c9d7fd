extension Value: CustomStringConvertible {
    /// The value as a Patchbay literal: `{count: 2, user: {name: "Max"}}`.
    ///
    /// Object keys that are names print bare; everything else prints as JSON would, except that a
    /// decimal always shows a fraction or an exponent (`1.0`), so it reads back as a decimal.
    public var description: String {
        var out = ""
        writeLiteral(to: &out)
        return out
    }

    package func writeLiteral(to out: inout String) {
        switch self {
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{"
            var first = true
            for (key, value) in members {
                if !first { out += ", " }
                first = false
                if Value.isBareKey(key.string) { out += key.string } else { Value.writeQuoted(key.string, to: &out) }
                out += ": "
                value.writeLiteral(to: &out)
            }
            out += "}"
        case .array(let elements):
            out += "["
            var first = true
            for element in elements {
                if !first { out += ", " }
                first = false
                element.writeLiteral(to: &out)
            }
            out += "]"
        default:
            writeScalar(to: &out)
        }
    }

    /// Writes null, booleans, numbers and strings; the same in literal and JSON form.
    package func writeScalar(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .decimal(let d): out += Value.decimalText(d)
        case .string(let s): Value.writeQuoted(s, to: &out)
        case .array, .object: writeLiteral(to: &out)
        }
    }

    package static func decimalText(_ d: Double) -> String {
        let text = d.description
        return text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? text : text + ".0"
    }

    package static func isBareKey(_ key: String) -> Bool {
        guard let first = key.utf8.first, first.isNameStart else { return false }
        return key.utf8.allSatisfy(\.isNameContinuation)
    }

    /// Writes `s` as a double-quoted JSON string.
    package static func writeQuoted(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: false)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}

extension UInt8 {
    /// `[A-Za-z_]`
    package var isNameStart: Bool {
        (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z"))
            || self == UInt8(ascii: "_")
    }

    /// `[A-Za-z0-9_]`
    package var isNameContinuation: Bool { isNameStart || isDigit }

    package var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
}
