import PatchbayCore

/// The lines a `SessionWriter` is encoding, in memory it owns: each append checks the room once
/// and copies, without the checks for sharing an array makes on every append (encoding a line
/// into an array took about four times as long).
struct SessionLineBuffer: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>
    /// The bytes held.
    private(set) var count = 0
    private var capacity: Int

    /// An empty buffer with room for `capacity` bytes to begin with.
    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 16)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    /// Whether it holds no bytes.
    var isEmpty: Bool { count == 0 }

    /// The bytes held, for as long as the buffer is not changed.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: start, count: count) }

    /// Forgets the bytes, keeping the memory.
    mutating func removeAll() {
        count = 0
    }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        start[count] = byte
        count += 1
    }

    /// Makes room for `more` bytes after the ones held.
    @inline(__always)
    private mutating func reserve(_ more: Int) {
        if count + more > capacity { grow(to: count + more) }
    }

    private mutating func grow(to needed: Int) {
        let larger = Swift.max(capacity * 2, needed)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: start, count: count)
        start.deallocate()
        start = moved
        capacity = larger
    }

    @inline(__always)
    private mutating func copy(_ source: UnsafePointer<UInt8>, count length: Int) {
        reserve(length)
        (start + count).update(from: source, count: length)
        count += length
    }
}

extension SessionLineBuffer: SessionLineOutput {
    mutating func appendRaw(_ text: StaticString) {
        copy(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    mutating func appendBytes(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        copy(base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    }

    mutating func appendInteger(_ integer: Int) {
        withDecimalText(of: integer) { appendBytes($0) }
    }

    mutating func appendQuoted(_ string: String) {
        append(UInt8(ascii: "\""))
        appendEscaped(string)
        append(UInt8(ascii: "\""))
    }

    mutating func appendEscaped(_ string: String) {
        var text = string
        text.withUTF8 { utf8 in
            // Most strings need no escape; the others are escaped as `Value` escapes them.
            if utf8.contains(where: Value.isEscapedInJSON) {
                var escaped: [UInt8] = []
                Value.writeEscaped(string, to: &escaped)
                escaped.withUnsafeBufferPointer { copy($0.baseAddress!, count: $0.count) }
            } else if let base = utf8.baseAddress {
                copy(base, count: utf8.count)
            }
        }
    }

    mutating func appendDecimal(_ decimal: Value) {
        var text: [UInt8] = []
        decimal.writeJSON(to: &text)
        text.withUnsafeBufferPointer { copy($0.baseAddress!, count: $0.count) }
    }
}
