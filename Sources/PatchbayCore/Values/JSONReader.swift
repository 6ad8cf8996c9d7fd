/// Reads strict JSON text into a `Value`, keeping integers apart from decimals: the reader for
/// session files and exported state. It works on UTF-8 bytes, never recurses deeper than its
/// `maxDepth` (`Value.maxDepth` unless told otherwise), and reports errors with the byte offset.
///
/// `parse` reads a whole text. A reader kept across many reads (`readValue(in:at:)`, for the
/// values inside a larger format such as the lines of a session file) reuses its working space.
@_spi(Shell)
public struct JSONReader {
    private var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private var position = 0
    private var depth = 0
    /// How deeply arrays and objects may nest.
    private let maxDepth: Int
    // The members and elements read so far of every object and array being read, innermost
    // last: each container is built at once, at its exact size, when it ends.
    private var pendingKeys: [String] = []
    private var pendingValues: [Value] = []

    /// A reader with no working space yet, which refuses arrays and objects nested more than
    /// `maxDepth` levels deep: a format that wraps values of at most `Value.maxDepth` levels in
    /// its own adds its levels.
    public init(maxDepth: Int = Value.maxDepth) {
        self.maxDepth = maxDepth
    }

    /// Parses `text`, which must hold exactly one JSON value (white space around it is fine),
    /// nested at most `maxDepth` levels deep.
    public static func parse(_ text: String, maxDepth: Int = Value.maxDepth) throws(JSONError) -> Value {
        var text = text
        return try text.withUTF8 { bytes in Result { () throws(JSONError) in try parse(bytes, maxDepth: maxDepth) } }.get()
    }

    /// Parses `bytes`, which must hold exactly one JSON value.
    public static func parse(_ bytes: [UInt8]) throws(JSONError) -> Value {
        try bytes.withUnsafeBufferPointer { bytes throws(JSONError) in try parse(bytes) }
    }

    /// Parses `bytes`, which must hold exactly one JSON value, nested at most `maxDepth` levels deep.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = Value.maxDepth) throws(JSONError) -> Value {
        var reader = JSONReader(maxDepth: maxDepth)
        var offset = 0
        let value = try reader.readValue(in: bytes, at: &offset)
        reader.skipSpace()
        guard reader.position == bytes.count else { throw reader.error("unexpected text after the value") }
        return value
    }

    /// Reads the JSON value that starts at `offset` in `bytes` (after any white space) and moves
    /// `offset` just past it, leaving what follows unread. Error offsets count from the start
    /// of `bytes`.
    public mutating func readValue(in bytes: UnsafeBufferPointer<UInt8>, at offset: inout Int) throws(JSONError) -> Value {
        self.bytes = bytes
        position = offset
        depth = 0
        // Empty unless the last read failed midway.
        if !pendingKeys.isEmpty { pendingKeys.removeAll(keepingCapacity: true) }
        if !pendingValues.isEmpty { pendingValues.removeAll(keepingCapacity: true) }
        skipSpace()
        let value = try readValue()
        offset = position
        return value
    }

    private func error(_ message: String) -> JSONError {
        JSONError(message: message, offset: position)
    }

    /// The byte at the position, or 0 (which no JSON token starts with) at the end.
    private var current: UInt8 {
        position < bytes.count ? bytes[position] : 0
    }

    private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func readValue() throws(JSONError) -> Value {
        guard position < bytes.count else { throw error("unexpected end of the text") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try readObject()
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): return try readWord("true", .bool(true))
        case UInt8(ascii: "f"): return try readWord("false", .bool(false))
        case UInt8(ascii: "n"): return try readWord("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        default: throw error("unexpected character")
        }
    }

    private mutating func readWord(_ word: StaticString, _ value: Value) throws(JSONError) -> Value {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw error("unexpected word") }
        for offset in 0..<count where word.utf8Start[offset] != bytes[position + offset] {
            throw error("unexpected word")
        }
        position += count
        return value
    }

    private mutating func enter() throws(JSONError) {
        depth += 1
        guard depth <= maxDepth else { throw error("nested more than \(maxDepth) levels deep") }
    }

    private mutating func readObject() throws(JSONError) -> Value {
        try enter()
        defer { depth -= 1 }
        position += 1
        skipSpace()
        if current == UInt8(ascii: "}") {
            position += 1
            return .object([:])
        }
        let keyMark = pendingKeys.count, valueMark = pendingValues.count
        defer {
            while pendingKeys.count > keyMark { pendingKeys.removeLast() }
            while pendingValues.count > valueMark { pendingValues.removeLast() }
        }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a key") }
            pendingKeys.append(try readString())
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':'") }
            position += 1
            skipSpace()
            pendingValues.append(try readValue())
            skipSpace()
            guard position < bytes.count else { throw error("unexpected end of the text") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "}") {
                position += 1
                // A repeated key keeps its first place and its last value.
                var members = Value.Members(minimumCapacity: pendingKeys.count - keyMark)
                for offset in 0..<(pendingKeys.count - keyMark) {
                    members[pendingKeys[keyMark + offset]] = pendingValues[valueMark + offset]
                }
                return .object(members)
            } else {
                throw error("expected ',' or '}'")
            }
        }
    }

    private mutating func readArray() throws(JSONError) -> Value {
        try enter()
        defer { depth -= 1 }
        position += 1
        skipSpace()
        if current == UInt8(ascii: "]") {
            position += 1
            return .array([])
        }
        let mark = pendingValues.count
        defer { while pendingValues.count > mark { pendingValues.removeLast() } }
        while true {
            skipSpace()
            pendingValues.append(try readValue())
            skipSpace()
            guard position < bytes.count else { throw error("unexpected end of the text") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(Array(pendingValues[mark...]))
            } else {
                throw error("expected ',' or ']'")
            }
        }
    }

    private mutating func readString() throws(JSONError) -> String {
        position += 1
        let start = position
        // Fast path: no escapes, so the text is the bytes as they stand.
        var highBits: UInt8 = 0
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                // ASCII needs no validation; anything else is checked.
                if highBits & 0x80 == 0 { return String(decoding: text, as: UTF8.self) }
                guard let string = String(validating: text, as: UTF8.self) else {
                    position -= 1
                    throw error("invalid UTF-8 in a string")
                }
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw error("a control character in a string") }
            highBits |= byte
            position += 1
        }
        var buffer = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let text = String(validating: buffer, as: UTF8.self) else { throw error("invalid UTF-8 in a string") }
                return text
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try readHex4()
                    if (0xD800..<0xDC00).contains(code) {
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                            throw error("a lone surrogate in a \\u escape")
                        }
                        position += 2
                        let low = try readHex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("a lone surrogate in a \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("an invalid \\u escape") }
                    buffer.append(contentsOf: UTF8.encode(scalar)!)
                default:
                    throw error("an invalid escape")
                }
            default:
                guard byte >= 0x20 else { throw error("a control character in a string") }
                buffer.append(byte)
                position += 1
            }
        }
        throw error("unterminated string")
    }

    private mutating func readHex4() throws(JSONError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("an invalid \\u escape") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("an invalid \\u escape")
            }
            code = code << 4 | UInt32(digit)
            position += 1
        }
        return code
    }

    private mutating func readNumber() throws(JSONError) -> Value {
        let start = position
        let isNegative = bytes[position] == UInt8(ascii: "-")
        if isNegative { position += 1 }
        guard current.isDigit else { throw error("expected a digit") }
        // The integer part, accumulated towards negative so that Int.min fits.
        var integer = 0
        var fits = true
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            while position < bytes.count, bytes[position].isDigit {
                let (times10, overflow1) = integer.multipliedReportingOverflow(by: 10)
                let (next, overflow2) = times10.subtractingReportingOverflow(Int(bytes[position] &- UInt8(ascii: "0")))
                fits = fits && !overflow1 && !overflow2
                integer = next
                position += 1
            }
        }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard current.isDigit else { throw error("expected a digit after '.'") }
            while position < bytes.count, bytes[position].isDigit { position += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard current.isDigit else { throw error("expected a digit in the exponent") }
            while position < bytes.count, bytes[position].isDigit { position += 1 }
        }
        if isInteger {
            if isNegative, fits { return .int(integer) }
            if !isNegative, fits, integer != .min { return .int(-integer) }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            throw JSONError(message: "integer \(text) does not fit in 64 bits", offset: start)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw JSONError(message: "number \(text) is out of range", offset: start) }
        return .decimal(value)
    }
}

/// Text that is not JSON.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, without the place: `expected ':'`.
    public var message: String
    /// The UTF-8 offset where the problem was found.
    public var offset: Int

    /// An error found at `offset`, for readers of formats built around JSON values.
    public init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    /// The message with the place: `expected ':' at byte 7`.
    public var description: String { "\(message) at byte \(offset + 1)" }
}
