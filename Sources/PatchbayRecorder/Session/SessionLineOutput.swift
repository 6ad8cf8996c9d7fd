import PatchbayCore

/// Where `SessionEvent.encode(seq:into:)` puts a line: a list of bytes (`[UInt8]`), a writer's
/// `SessionLineBuffer`, or a `SessionLineMatcher`, which compares the bytes with a recorded line
/// instead of keeping them.
protocol SessionLineOutput: ~Copyable {
    /// Appends `text` as it stands: punctuation and keys written out in the source.
    mutating func appendRaw(_ text: StaticString)
    /// Appends `bytes` as they stand.
    mutating func appendBytes(_ bytes: UnsafeRawBufferPointer)
    /// Appends the decimal digits of `integer`.
    mutating func appendInteger(_ integer: Int)
    /// Appends `string` as a quoted JSON string.
    mutating func appendQuoted(_ string: String)
    /// Appends `string` escaped as inside a JSON string, without the quotes.
    mutating func appendEscaped(_ string: String)
    /// Appends `value` as JSON, as `Value.jsonText` writes it (see the default below).
    mutating func appendJSON(_ value: Value)
    /// Appends `decimal`, a `.decimal` value, as `Value.writeJSON(to:)` writes it.
    mutating func appendDecimal(_ decimal: Value)
}

extension SessionLineOutput where Self: ~Copyable {
    /// Appends `value` as JSON, as `Value.jsonText` writes it, through the other requirements.
    mutating func appendJSON(_ value: Value) {
        switch value {
        case .null: appendRaw("null")
        case .bool(let bool): appendRaw(bool ? "true" : "false")
        case .int(let integer): appendInteger(integer)
        case .decimal: appendDecimal(value)
        case .string(let string): appendQuoted(string)
        case .array(let elements):
            appendRaw("[")
            for (position, element) in elements.enumerated() {
                if position > 0 { appendRaw(",") }
                appendJSON(element)
            }
            appendRaw("]")
        case .object(let members):
            appendRaw("{")
            for (position, (key, member)) in members.enumerated() {
                if position > 0 { appendRaw(",") }
                appendQuoted(key)
                appendRaw(":")
                appendJSON(member)
            }
            appendRaw("}")
        }
    }
}

/// Calls `body` with the decimal text of `integer` (a minus sign, then the digits), made on
/// the stack: what `appendInteger` appends.
@inline(__always)
func withDecimalText<Result>(of integer: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    // The digits from the end of 24 bytes, room for the 20 of a UInt64 and a sign.
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    return withUnsafeMutableBytes(of: &digits) { buffer in
        var start = buffer.count
        var magnitude = integer.magnitude
        repeat {
            start -= 1
            buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        if integer < 0 {
            start -= 1
            buffer[start] = UInt8(ascii: "-")
        }
        return body(UnsafeRawBufferPointer(rebasing: buffer[start...]))
    }
}
