/// The bytes of two values in memory, compared without reading the values (so without the
/// reference counting a copy costs).
///
/// The invariant: two values of a type whose bytes are all equal are the same value: the same
/// scalars and the same references, so the same storage with the same contents; they are
/// identical (`Value.isIdentical`) and encode alike. Bytes that differ prove nothing (a case's
/// unused payload bytes, or padding, need not match), so a caller compares the values then.
enum _SameBytes {
    static func equal<T>(_ a: UnsafePointer<T>, _ b: UnsafePointer<T>) -> Bool {
        let x = UnsafeRawPointer(a), y = UnsafeRawPointer(b)
        let size = MemoryLayout<T>.size
        var offset = 0
        while offset + 8 <= size {
            if x.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != y.loadUnaligned(fromByteOffset: offset, as: UInt64.self) { return false }
            offset += 8
        }
        while offset < size {
            if x.load(fromByteOffset: offset, as: UInt8.self) != y.load(fromByteOffset: offset, as: UInt8.self) { return false }
            offset += 1
        }
        return true
    }

    /// Whether `a` and `b` have the same bytes.
    @inline(__always)
    static func same<T>(_ a: T, _ b: T) -> Bool {
        withUnsafePointer(to: a) { a in withUnsafePointer(to: b) { b in equal(a, b) } }
    }

    /// How many values at the start of `a` and `b` are the same, and then how many at their
    /// ends, not counting those of the start again: the same bytes (compared a word at a time),
    /// or `same(i, j)` for `a[i]` and `b[j]` where the bytes differ.
    static func commonEnds<T>(_ a: UnsafeBufferPointer<T>, _ b: UnsafeBufferPointer<T>, same: (Int, Int) -> Bool) -> (prefix: Int, suffix: Int) {
        guard let x = a.baseAddress, let y = b.baseAddress else { return (0, 0) }
        func equal(_ i: Int, _ j: Int) -> Bool { Self.equal(x + i, y + j) || same(i, j) }
        let common = Swift.min(a.count, b.count)
        var prefix = 0
        while prefix < common {
            prefix += commonPrefix(x + prefix, y + prefix, count: common - prefix)
            guard prefix < common, equal(prefix, prefix) else { break }
            prefix += 1
        }
        var suffix = 0
        while suffix < common - prefix {
            suffix += commonSuffix(x + a.count - suffix, y + b.count - suffix, count: common - prefix - suffix)
            guard suffix < common - prefix, equal(a.count - 1 - suffix, b.count - 1 - suffix) else { break }
            suffix += 1
        }
        return (prefix, suffix)
    }

    /// How many of the `count` values from `a` and from `b` on have the same bytes, counted
    /// from the first: the start that `equal` would find, compared a word at a time. (It may
    /// stop short, at a value whose bytes differ only in padding: the caller compares that one.)
    static func commonPrefix<T>(_ a: UnsafePointer<T>, _ b: UnsafePointer<T>, count: Int) -> Int {
        let x = UnsafeRawPointer(a), y = UnsafeRawPointer(b)
        let bytes = count * MemoryLayout<T>.stride
        var offset = 0
        while offset + 8 <= bytes,
              x.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == y.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
            offset += 8
        }
        return offset / MemoryLayout<T>.stride
    }

    /// How many of the `count` values that end at `aEnd` and at `bEnd` (just past them) have the
    /// same bytes, counted from the last (see `commonPrefix`).
    static func commonSuffix<T>(_ aEnd: UnsafePointer<T>, _ bEnd: UnsafePointer<T>, count: Int) -> Int {
        let x = UnsafeRawPointer(aEnd), y = UnsafeRawPointer(bEnd)
        let bytes = count * MemoryLayout<T>.stride
        var offset = 8
        while offset <= bytes,
              x.loadUnaligned(fromByteOffset: -offset, as: UInt64.self) == y.loadUnaligned(fromByteOffset: -offset, as: UInt64.self) {
            offset += 8
        }
        return (offset - 8) / MemoryLayout<T>.stride
    }
}
