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
    /// Appends `value` as JSON, as `Value.jsonText` writes it.
    mutating func appendJSON(_ value: Value)
}
