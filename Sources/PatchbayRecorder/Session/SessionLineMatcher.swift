#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PatchbayCore

/// Tells whether `SessionEvent.encode(seq:into:)` would write a given line, by comparing what
/// it writes with the line as it goes instead of keeping it: about a third of the work of
/// writing the line and comparing the two.
///
/// It writes what a list of bytes would get: JSON as `Value.writeJSON(to:)` writes it, strings
/// escaped as `Value.writeEscaped(_:to:)` escapes them. The plain parts (punctuation, integers,
/// strings without escapes) are compared as they stand; the rest (decimals, strings with
/// escapes) are written into working space first, by those functions.
struct SessionLineMatcher: SessionLineOutput {
    private let line: UnsafeBufferPointer<UInt8>
    /// How much of the line was matched so far.
    private var position = 0
    /// Whether everything written so far is the line's next bytes.
    private var isSame = true
    /// Working space for what is written before it is compared.
    private var scratch: [UInt8]

    /// A matcher of `line`, which uses `scratch` as working space (see `scratchSpace`).
    init(_ line: UnsafeBufferPointer<UInt8>, scratch: [UInt8]) {
        self.line = line
        self.scratch = scratch
    }

    /// Whether what was written is the whole line.
    var matchesWholeLine: Bool { isSame && position == line.count }

    /// The working space, to be used again.
    var scratchSpace: [UInt8] { scratch }

    mutating func appendRaw(_ text: StaticString) {
        compare(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func appendBytes(_ bytes: UnsafeRawBufferPointer) {
        compare(bytes)
    }

    mutating func appendInteger(_ integer: Int) {
        guard isSame else { return }
        withDecimalText(of: integer) { compare($0) }
    }

    mutating func appendQuoted(_ string: String) {
        appendRaw(#"""#)
        appendEscaped(string)
        appendRaw(#"""#)
    }

    mutating func appendEscaped(_ string: String) {
        guard isSame else { return }
        var string = string
        let plain = string.withUTF8 { bytes in
            // What `Value.writeEscaped` leaves as it is.
            guard !bytes.contains(where: Value.isEscapedInJSON) else {
                return false
            }
            compare(UnsafeRawBufferPointer(bytes))
            return true
        }
        if !plain { written { Value.writeEscaped(string, to: &$0) } }
    }

    mutating func appendDecimal(_ decimal: Value) {
        written { decimal.writeJSON(to: &$0) }
    }

    /// Compares what `write` writes into the working space.
    private mutating func written(_ write: (inout [UInt8]) -> Void) {
        scratch.removeAll(keepingCapacity: true)
        write(&scratch)
        var bytes: [UInt8] = []
        swap(&bytes, &scratch)
        bytes.withUnsafeBytes { compare($0) }
        swap(&bytes, &scratch)
    }

    /// Compares `bytes` with the line's next bytes.
    private mutating func compare(_ bytes: UnsafeRawBufferPointer) {
        guard isSame else { return }
        guard bytes.count <= line.count - position else {
            isSame = false
            return
        }
        // Most parts are a few bytes long (punctuation, keys, numbers), which a loop compares
        // sooner than a call.
        if bytes.count <= 16 {
            for offset in 0..<bytes.count where line[position + offset] != bytes[offset] {
                isSame = false
                return
            }
        } else if memcmp(line.baseAddress! + position, bytes.baseAddress!, bytes.count) != 0 {
            isSame = false
            return
        }
        position += bytes.count
    }
}
