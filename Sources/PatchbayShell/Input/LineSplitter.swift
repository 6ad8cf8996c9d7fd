/// Splits a byte stream into lines without ever holding more than `InputLimits.maxLineBytes` of
/// one line: longer lines keep only their length, to be refused with an error.
@_spi(Shell)
public struct LineSplitter: Sendable {
    /// One line of input, without its `\n` (and without a `\r` before it).
    public struct Line: Sendable, Equatable {
        /// The bytes, or the first `InputLimits.maxLineBytes` of them when `length` is larger.
        public var bytes: [UInt8]
        /// The full length of the line in bytes (when `isWhole`; otherwise the length read
        /// before the reader stopped, more than the limit).
        public var length: Int
        /// Whether the whole line was read: a line too long that a reader stopped in is not.
        public var isWhole = true
    }

    private var current: [UInt8] = []
    private var length = 0

    public init() {}

    /// Adds bytes; returns the lines they complete.
    public mutating func append(_ chunk: some Sequence<UInt8>) -> [Line] {
        var lines: [Line] = []
        for byte in chunk {
            if byte == UInt8(ascii: "\n") {
                lines.append(takeLine())
            } else {
                length += 1
                if current.count <= InputLimits.maxLineBytes { current.append(byte) }
            }
        }
        return lines
    }

    /// The line being split, when it is already longer than `InputLimits.maxLineBytes`: a
    /// reader that stops at it takes it, cut (see `Line.isWhole`), for the error.
    public mutating func takeOverlong() -> Line? {
        guard length > InputLimits.maxLineBytes else { return nil }
        var line = takeLine()
        line.isWhole = false
        return line
    }

    /// The last line, when the input did not end with a newline.
    public mutating func finish() -> Line? {
        length > 0 ? takeLine() : nil
    }

    private mutating func takeLine() -> Line {
        if current.last == UInt8(ascii: "\r") {
            current.removeLast()
            length -= 1
        }
        defer {
            current.removeAll(keepingCapacity: current.count < 4096)
            length = 0
        }
        return Line(bytes: current, length: length)
    }
}
