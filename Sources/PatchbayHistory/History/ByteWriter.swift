@_spi(Shell) import PatchbayCore

/// The kinds of value in the compact binary form, one byte before each value.
enum ValueTag: UInt8 {
    case null, `false`, `true`, int, decimal, string, array, object
}

/// An append-only buffer holding values and step records in a compact binary form: variable-length
/// integers, UTF-8 strings after their length, containers after their element count. A step of a
/// history takes tens of bytes this way, where the same data as `Value`s and `ValueChange`s would
/// take hundreds in separate allocations.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    var count: Int { bytes.count }

    mutating func writeByte(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// An unsigned LEB128 integer: seven bits a byte, low bits first.
    mutating func writeVarint(_ value: UInt64) {
        // Counts, lengths and small numbers, most of what a step writes, take one byte.
        if value < 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value))
            return
        }
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// A signed integer, zigzag-encoded so that small negative numbers stay short.
    mutating func writeSigned(_ value: Int) {
        writeVarint(UInt64(bitPattern: Int64((value << 1) ^ (value >> (Int.bitWidth - 1)))))
    }

    mutating func writeString(_ string: String) {
        // Native strings, small ones included, lend their UTF-8 bytes in place.
        let written: Void? = string.utf8.withContiguousStorageIfAvailable { utf8 in
            writeVarint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
        guard written == nil else { return }
        var string = string
        string.makeContiguousUTF8()
        writeVarint(UInt64(string.utf8.count))
        bytes.append(contentsOf: string.utf8)
    }

    /// Four bytes, little-endian: a slot that `patchFixed32` can fill in later.
    mutating func writeFixed32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
        }
    }

    mutating func patchFixed32(_ value: UInt32, at offset: Int) {
        for (byte, shift) in zip(offset..<offset + 4, stride(from: 0, to: 32, by: 8)) {
            bytes[byte] = UInt8(truncatingIfNeeded: value >> UInt32(shift))
        }
    }

    mutating func patch(_ byte: UInt8, at offset: Int) {
        bytes[offset] = byte
    }

    mutating func writeValue(_ value: Value) {
        switch value {
        case .null:
            writeByte(ValueTag.null.rawValue)
        case .bool(let flag):
            writeByte(flag ? ValueTag.true.rawValue : ValueTag.false.rawValue)
        case .int(let number):
            writeByte(ValueTag.int.rawValue)
            writeSigned(number)
        case .decimal(let number):
            writeByte(ValueTag.decimal.rawValue)
            let pattern = number.bitPattern
            for shift in stride(from: 0, to: 64, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: pattern >> UInt64(shift)))
            }
        case .string(let string):
            writeByte(ValueTag.string.rawValue)
            writeString(string)
        case .array(let elements):
            writeByte(ValueTag.array.rawValue)
            writeVarint(UInt64(elements.count))
            for element in elements { writeValue(element) }
        case .object(let members):
            writeByte(ValueTag.object.rawValue)
            writeVarint(UInt64(members.count))
            for (key, member) in members {
                writeString(key.string)
                writeValue(member)
            }
        }
    }

    mutating func truncate(to count: Int) {
        bytes.removeSubrange(count...)
    }

    /// Gives back the spare capacity that growing by doubling left, for a buffer that is full.
    mutating func shrinkToFit() {
        guard bytes.capacity > bytes.count else { return }
        bytes = [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, initialized in
            initialized = buffer.initialize(fromContentsOf: bytes)
        }
    }
}
