extension Value {
    /// The value as one line of JSON. Keys keep their order; decimals keep a fraction (`1.0`).
    public var jsonText: String {
        var out = ""
        writeJSON(to: &out)
        return out
    }

    /// Appends the value's JSON text to `out`.
    public func writeJSON(to out: inout String) {
        switch self {
        case .object(let members):
            out += "{"
            var first = true
            for (key, value) in members {
                if !first { out += "," }
                first = false
                Value.writeQuoted(key.string, to: &out)
                out += ":"
                value.writeJSON(to: &out)
            }
            out += "}"
        case .array(let elements):
            out += "["
            var first = true
            for element in elements {
                if !first { out += "," }
                first = false
                element.writeJSON(to: &out)
            }
            out += "]"
        default:
            writeScalar(to: &out)
        }
    }
}

extension Value {
    /// Appends the value's JSON text to `out` as UTF-8: the same text as `writeJSON(to:)`
    /// writes into a string, for writers that build a line of bytes (session files).
    public func writeJSON(to out: inout [UInt8]) {
        switch self {
        case .null: Value.append("null", to: &out)
        case .bool(let b): Value.append(b ? "true" : "false", to: &out)
        case .int(let i): Value.writeInteger(i, to: &out)
        case .decimal(let d): out.append(contentsOf: Value.decimalText(d).utf8)
        case .string(let s): Value.writeQuoted(s, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                element.writeJSON(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            var first = true
            for (key, value) in members {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                Value.writeQuoted(key.string, to: &out)
                out.append(UInt8(ascii: ":"))
                value.writeJSON(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends the decimal digits of `i` to `out`.
    package static func writeInteger(_ i: Int, to out: inout [UInt8]) {
        if i < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = i.magnitude
        guard magnitude >= 10 else {
            out.append(UInt8(ascii: "0") + UInt8(magnitude))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for the 20 digits of a UInt64
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            while magnitude > 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// Appends `s` to `out` as a double-quoted JSON string.
    package static func writeQuoted(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        writeEscaped(s, to: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// Whether `writeEscaped(_:to:)` escapes the UTF-8 byte `byte` (the others it copies).
    @inlinable
    public static func isEscapedInJSON(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
    }

    /// Appends `s` to `out` escaped as inside a JSON string, without the quotes: `\"`, `\\`,
    /// `\n`, `\r`, `\t`, `\b`, `\f`, and `\u00XX` for the other control characters and DEL, as
    /// `writeJSON(to:)` writes strings.
    public static func writeEscaped(_ s: String, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { bytes in
            var start = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard isEscapedInJSON(byte) else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                start = index + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                default:
                    let hex: StaticString = "0123456789abcdef"
                    out.append(UInt8(ascii: "u"))
                    out.append(UInt8(ascii: "0"))
                    out.append(UInt8(ascii: "0"))
                    out.append(hex.utf8Start[Int(byte >> 4)])
                    out.append(hex.utf8Start[Int(byte & 0x0F)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
    }

    private static func append(_ word: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
    }
}
