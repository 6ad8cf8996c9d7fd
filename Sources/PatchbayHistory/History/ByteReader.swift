@_spi(Shell) import PatchbayCore

/// Reads what a `ByteWriter` wrote, from a position in its bytes. The bytes are the history's own,
/// so a malformed one is a bug: the reads trap rather than throw.
struct ByteReader {
    let bytes: [UInt8]
    var offset: Int

    mutating func readByte() -> UInt8 {
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func readVarint() -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = readByte()
            value |= UInt64(byte & 0x7F) << shift
            guard byte >= 0x80 else { return value }
            shift += 7
        }
    }

    mutating func readCount() -> Int {
        Int(truncatingIfNeeded: readVarint())
    }

    mutating func readSigned() -> Int {
        let raw = readVarint()
        return Int(truncatingIfNeeded: Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1))))
    }

    mutating func readString() -> String {
        let length = readCount()
        defer { offset += length }
        return String(decoding: bytes[offset..<offset + length], as: UTF8.self)
    }

    mutating func readFixed32() -> UInt32 {
        var value: UInt32 = 0
        for shift in stride(from: 0, to: 32, by: 8) {
            value |= UInt32(readByte()) << UInt32(shift)
        }
        return value
    }

    mutating func readValue() -> Value {
        guard let tag = ValueTag(rawValue: readByte()) else { preconditionFailure("malformed history record") }
        switch tag {
        case .null:
            return .null
        case .false:
            return .bool(false)
        case .true:
            return .bool(true)
        case .int:
            return .int(readSigned())
        case .decimal:
            var pattern: UInt64 = 0
            for shift in stride(from: 0, to: 64, by: 8) {
                pattern |= UInt64(readByte()) << UInt64(shift)
            }
            return .decimal(Double(bitPattern: pattern))
        case .string:
            return .string(readString())
        case .array:
            let count = readCount()
            var elements: [Value] = []
            elements.reserveCapacity(count)
            for _ in 0..<count { elements.append(readValue()) }
            return .array(elements)
        case .object:
            let count = readCount()
            var members = Value.Members(minimumCapacity: count)
            for _ in 0..<count {
                let key = readString()
                members[key] = readValue()
            }
            return .object(members)
        }
    }

    /// Moves past a value without building it.
    mutating func skipValue() {
        guard let tag = ValueTag(rawValue: readByte()) else { preconditionFailure("malformed history record") }
        switch tag {
        case .null, .false, .true:
            break
        case .int:
            _ = readVarint()
        case .decimal:
            offset += 8
        case .string:
            offset += readCount()
        case .array:
            for _ in 0..<readCount() { skipValue() }
        case .object:
            for _ in 0..<readCount() {
                offset += readCount()
                skipValue()
            }
        }
    }
}
