import PatchbayCore

/// Appending JSON to a line of UTF-8 bytes: the session encoder's building blocks.
extension [UInt8]: SessionLineOutput {
    /// Appends `text` as it stands: punctuation and keys written out in the source.
    mutating func appendRaw(_ text: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `bytes` as they stand.
    mutating func appendBytes(_ bytes: UnsafeRawBufferPointer) {
        append(contentsOf: bytes)
    }

    /// Appends the decimal digits of `integer`.
    mutating func appendInteger(_ integer: Int) {
        Value.int(integer).writeJSON(to: &self)
    }

    /// Appends `string` as a quoted JSON string.
    mutating func appendQuoted(_ string: String) {
        Value.string(string).writeJSON(to: &self)
    }

    /// Appends `string` escaped as inside a JSON string, without the quotes.
    mutating func appendEscaped(_ string: String) {
        Value.writeEscaped(string, to: &self)
    }

    /// Appends `value` as JSON, as `Value.jsonText` writes it.
    mutating func appendJSON(_ value: Value) {
        value.writeJSON(to: &self)
    }

    mutating func appendDecimal(_ decimal: Value) {
        decimal.writeJSON(to: &self)
    }
}
