public import PatchbayCore

/// A 64-bit digest of a whole state: the action line's `hash`, which replay compares to find
/// the first step where a state differs from the recorded one.
///
/// The digest is a wrapping sum over the state's leaves of a hash of the leaf's path from the
/// root, its type and its value: 64-bit FNV-1a, finished with a bit mixer so that sums of
/// similar leaves stay apart. The leaves are the scalars and, for every array and object, a
/// leaf of its type alone, so that empty ones count (and adding the first key to an object
/// changes only the key's share). So the order of an object's keys does not count, the order
/// of an array does (the index is in the path), and `1` and `1.0` differ. Because the sum is over leaves, `apply(_:after:)` keeps the digest up to
/// date from a step's changes at a cost that grows with the size of the changes, not of the
/// state.
@_spi(Shell)
public struct StateDigest: Sendable, Hashable, CustomStringConvertible {
    private var sum: UInt64

    /// The digest of `state`, computed over all of it.
    public init(_ state: Value) {
        sum = Self.contribution(of: state, at: PathHash())
    }

    /// Reads the 16 hexadecimal digits of `text`; `nil` when it is anything else.
    public init?(text: String) {
        // Read from the string's own bytes: iterating its UTF-8 view costs ten times as much.
        var text = text
        guard let digest = text.withUTF8({ StateDigest(hexDigits: $0) }) else { return nil }
        self = digest
    }

    /// Reads 16 hexadecimal digits given as UTF-8 bytes.
    init?(hexDigits: some Collection<UInt8>) {
        guard hexDigits.count == 16 else { return nil }
        // Without branches on the digits, which are random: a branch for each would be
        // mispredicted about every other digit.
        var sum: UInt64 = 0
        var invalid: UInt8 = 0
        for byte in hexDigits {
            let decimal = byte &- UInt8(ascii: "0")
            let letter = (byte | 0x20) &- UInt8(ascii: "a")  // a...f and A...F alike
            let isDecimal: UInt8 = decimal < 10 ? 0xFF : 0
            let isLetter: UInt8 = letter < 6 ? 0xFF : 0
            invalid |= ~(isDecimal | isLetter)
            sum = sum << 4 | UInt64(decimal & isDecimal | (letter &+ 10) & isLetter)
        }
        guard invalid == 0 else { return nil }
        self.sum = sum
    }

    /// The digest as 16 lowercase hexadecimal digits.
    public var text: String {
        var bytes: [UInt8] = []
        appendText(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The 16 hexadecimal digits, as `text`.
    public var description: String { text }

    func appendText(to out: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        var text: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &text) { bytes in
            for position in 0..<16 {
                bytes[position] = digits.utf8Start[Int((sum >> UInt64(60 - 4 * position)) & 0xF)]
            }
            out.append(contentsOf: bytes)
        }
    }

    /// Brings the digest from the state before a step to `state`, the state after it.
    /// `changes` are the step's changes, which applied in order to the state before give
    /// `state`.
    ///
    /// A change at an object key or a replacement takes out the old subtree's share and puts in
    /// the new one's. An element added to or removed from an array moves the elements after it
    /// to new paths, so the share of that array is recomputed: after, from `state`; before, by
    /// undoing on a copy, last first, the step's changes inside the array.
    public mutating func apply(_ changes: [ValueChange], after state: Value) {
        // One element added or removed at the end of its array moves no other: an append costs
        // the same however long the array is.
        guard changes.contains(where: \.movesElements), !(changes.count == 1 && changes[0].isAtTheEnd(of: state)) else {
            for change in changes { applyAlone(change) }
            return
        }
        if changes.contains(where: { $0.path.isEmpty && $0.operation != .replace }) {
            self = StateDigest(state)  // an add or remove of the whole value: the old value is gone
            return
        }
        let roots = Self.regions(of: changes)
        for change in changes where !roots.contains(where: { change.path.starts(with: $0) }) {
            applyAlone(change)
        }
        for root in roots {
            let after = state.value(at: root)
            var before = after
            for change in changes.reversed() where change.path.starts(with: root) {
                Self.undo(change, below: root.count, in: &before)
            }
            let hash = PathHash(root)
            sum = sum &- (before.map { Self.contribution(of: $0, at: hash) } ?? 0) &+ (after.map { Self.contribution(of: $0, at: hash) } ?? 0)
        }
    }

    /// Takes out the old value's share at the change's path and puts in the new one's.
    private mutating func applyAlone(_ change: ValueChange) {
        let hash = PathHash(change.path)
        if let old = change.old { sum = sum &- Self.contribution(of: old, at: hash) }
        if let new = change.new { sum = sum &+ Self.contribution(of: new, at: hash) }
    }

    /// The subtrees whose shares are recomputed: each array that gains or loses an element,
    /// widened to any changed path above it (a change there would interleave with the ones
    /// inside), without those inside another.
    private static func regions(of changes: [ValueChange]) -> [[ValueChange.PathComponent]] {
        var roots = changes.filter(\.movesElements).map { Array($0.path.dropLast()) }
        var widened = true
        while widened {
            widened = false
            for (position, root) in roots.enumerated() {
                if let above = changes.first(where: { $0.path.count < root.count && root.starts(with: $0.path) }) {
                    roots[position] = above.path
                    widened = true
                }
            }
        }
        roots.sort { $0.count < $1.count }
        var kept: [[ValueChange.PathComponent]] = []
        for root in roots where !kept.contains(where: { root.starts(with: $0) }) {
            kept.append(root)
        }
        return kept
    }

    /// Undoes `change` on `value`, the subtree at the first `depth` steps of its path (`nil`
    /// when that subtree does not exist).
    private static func undo(_ change: ValueChange, below depth: Int, in value: inout Value?) {
        let path = Array(change.path.dropFirst(depth))
        guard !path.isEmpty else {
            value = change.operation == .add ? nil : change.old
            return
        }
        let inverse = switch change.operation {
        case .replace: ValueChange(path: path, operation: .replace, old: change.new, new: change.old)
        case .add: ValueChange(path: path, operation: .remove, old: change.new, new: nil)
        case .remove: ValueChange(path: path, operation: .add, old: nil, new: change.old)
        }
        try? value?.apply(inverse)
    }

    /// The sum of the leaf hashes of `value`, whose path hashes to `path`.
    static func contribution(of value: Value, at path: PathHash) -> UInt64 {
        switch value {
        case .array(let elements):
            var sum = path.leaf(tag: 0x15)
            for (index, element) in elements.enumerated() {
                sum = sum &+ contribution(of: element, at: path.appending(index: index))
            }
            return sum
        case .object(let members):
            var sum = path.leaf(tag: 0x16)
            for (key, member) in members {
                sum = sum &+ contribution(of: member, at: path.appending(key: key.string))
            }
            return sum
        case .null:
            return path.leaf(tag: 0x10)
        case .bool(let bool):
            var hash = path
            hash.combine(byte: 0x11)
            hash.combine(byte: bool ? 1 : 0)
            return hash.finished
        case .int(let int):
            var hash = path
            hash.combine(byte: 0x12)
            hash.combine(word: UInt64(bitPattern: Int64(int)))
            return hash.finished
        case .decimal(let decimal):
            var hash = path
            hash.combine(byte: 0x13)
            hash.combine(word: (decimal == 0 ? 0 : decimal).bitPattern)  // -0.0 is 0.0
            return hash.finished
        case .string(let string):
            var hash = path
            hash.combine(byte: 0x14)
            hash.combine(string: string)
            return hash.finished
        }
    }
}

extension ValueChange {
    /// Whether the change adds or removes an array element, which moves the elements after it.
    var movesElements: Bool {
        guard operation != .replace, case .index? = path.last else { return false }
        return true
    }

    /// Whether the change adds the last element of its array in `state` (the state after it),
    /// or removes the element after the last one.
    func isAtTheEnd(of state: Value) -> Bool {
        guard case .index(let index)? = path.last, case .array(let elements)? = state.value(at: path.dropLast()) else { return false }
        switch operation {
        case .add: return index == elements.count - 1
        case .remove: return index == elements.count
        case .replace: return false
        }
    }
}

/// 64-bit FNV-1a over a path and then a leaf: the state after the path's bytes, which each
/// leaf below it continues.
struct PathHash {
    private var state: UInt64 = 0xCBF2_9CE4_8422_2325

    init() {}

    init(_ path: [ValueChange.PathComponent]) {
        for component in path {
            switch component {
            case .key(let key): self = appending(key: key)
            case .index(let index): self = appending(index: index)
            }
        }
    }

    mutating func combine(byte: UInt8) {
        state = (state ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    mutating func combine(word: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) {
            combine(byte: UInt8(truncatingIfNeeded: word >> UInt64(shift)))
        }
    }

    /// The length and then the UTF-8 bytes, so that no string is a prefix of another's hash.
    mutating func combine(string: String) {
        var string = string
        string.withUTF8 { bytes in
            combine(word: UInt64(bytes.count))
            for byte in bytes { combine(byte: byte) }
        }
    }

    func appending(key: String) -> PathHash {
        var hash = self
        hash.combine(byte: 0x01)
        hash.combine(string: key)
        return hash
    }

    func appending(index: Int) -> PathHash {
        var hash = self
        hash.combine(byte: 0x02)
        hash.combine(word: UInt64(bitPattern: Int64(index)))
        return hash
    }

    /// The hash of a leaf with only a type (null, or the leaf of an array or object).
    func leaf(tag: UInt8) -> UInt64 {
        var hash = self
        hash.combine(byte: tag)
        return hash.finished
    }

    /// The FNV-1a state, mixed (the finaliser of MurmurHash3) so that every bit depends on
    /// every byte before the leaf hashes are summed.
    var finished: UInt64 {
        var z = state
        z = (z ^ (z >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        z = (z ^ (z >> 33)) &* 0xC4CE_B9FE_1A85_EC53
        return z ^ (z >> 33)
    }
}
