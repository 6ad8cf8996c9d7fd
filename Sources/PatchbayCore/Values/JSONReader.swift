/// Reads strict JSON text into a `Value`, keeping integers apart from decimals: the reader for
/// session files and exported state. It works on UTF-8 bytes, never recurses deeper than
/// `Value.maxDepth`, and reports errors with the byte offset.
public struct JSONReader {
    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0

    /// Parses `text`, which must hold exactly one JSON value (white space around it is fine).
    public static func parse(_ text: String) throws(JSONError) -> Value {
        try parse(Array(text.utf8))
    }

    /// Parses `bytes`, which must hold exactly one JSON value.
    public static func parse(_ bytes: [UInt8]) throws(JSONError) -> Value {
        var reader = JSONReader(bytes: bytes)
        reader.skipSpace()
        let value = try reader.readValue()
        reader.skipSpace()
        guard reader.position == bytes.count else { throw reader.error("unexpected text after the value") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func error(_ message: String) -> JSONError {
        JSONError(message: message, offset: position)
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
        guard position + count <= bytes.count,
            word.withUTF8Buffer({ Array($0) }) == Array(bytes[position..<position + count])
        else { throw error("unexpected word") }
        position += count
        return value
    }

    private mutating func enter() throws(JSONError) {
        depth += 1
        guard depth <= Value.maxDepth else { throw error("nested more than \(Value.maxDepth) levels deep") }
    }

    private mutating func readObject() throws(JSONError) -> Value {
        try enter()
        defer { depth -= 1 }
        position += 1
        var members = Value.Members()
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a key") }
            let key = try readString()
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':'") }
            position += 1
            skipSpace()
            members[key] = try readValue()
            skipSpace()
            guard position < bytes.count else { throw error("unexpected end of the text") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "}") {
                position += 1
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
        var elements: [Value] = []
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipSpace()
            elements.append(try readValue())
            skipSpace()
            guard position < bytes.count else { throw error("unexpected end of the text") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            } else {
                throw error("expected ',' or ']'")
            }
        }
    }

    private mutating func readString() throws(JSONError) -> String {
        position += 1
        let start = position
        // Fast path: no escapes.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                guard let text = String(validating: bytes[start..<position], as: UTF8.self) else {
                    throw error("invalid UTF-8 in a string")
                }
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw error("a control character in a string") }
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
                    buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
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
        var isInteger = true
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, bytes[position].isDigit else { throw error("expected a digit") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            while position < bytes.count, bytes[position].isDigit { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < bytes.count, bytes[position].isDigit else { throw error("expected a digit after '.'") }
            while position < bytes.count, bytes[position].isDigit { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count, bytes[position].isDigit else { throw error("expected a digit in the exponent") }
            while position < bytes.count, bytes[position].isDigit { position += 1 }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isInteger {
            guard let value = Int(text) else { throw JSONError(message: "integer \(text) does not fit in 64 bits", offset: start) }
            return .int(value)
        }
        guard let value = Double(text), value.isFinite else { throw JSONError(message: "number \(text) is out of range", offset: start) }
        return .decimal(value)
    }
}

/// Text that is not JSON.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// The UTF-8 offset where the problem was found.
    public var offset: Int

    public var description: String { "\(message) at byte \(offset + 1)" }
}
