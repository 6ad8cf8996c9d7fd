/// The data a match reads — trie nodes, definitions, and the literal edges' hash table — in plain
/// buffers of trivial values owned by one object, so that a match reads them through a `View` of
/// raw pointers without reference counting. `RouteTrie` copies the object before mutating it when
/// it is shared, so values keep value semantics.
final class TrieStorage: @unchecked Sendable {
    // @unchecked: mutated only through `RouteTrie`'s mutating methods, after making the object
    // unique (copy-on-write); a shared object is never mutated.

    struct Node: BitwiseCopyable {
        var variable: Int32 = -1
        /// The smallest-ranked terminal and wildcard definitions (-1 when none).
        var bestTerminal: Int32 = -1
        var bestWildcard: Int32 = -1
        var literalCount: Int32 = 0
        /// The smallest rank of any definition in the subtree.
        var minRank = RouteRank.max
    }

    /// A literal edge `(parent, key) → child` in the open-addressing table. Keys of up to 16 bytes
    /// are stored in the slot itself (`LiteralHash.pack`), longer ones in `keys` from `word0`.
    struct Slot: BitwiseCopyable {
        /// High bits of the mixed hash, for a quick reject.
        var check: UInt32 = 0
        var parent: Int32 = 0
        /// The child node, or -1 for an empty slot.
        var child: Int32 = -1
        var keyCount: Int32 = 0
        var word0: UInt64 = 0
        var word1: UInt64 = 0
    }

    private(set) var nodes = PODBuffer<Node>()
    private(set) var definitions = PODBuffer<RouteDefinition>()
    /// The variables of definitions with more than one, after the first.
    private(set) var captures = PODBuffer<RouteDefinition.Capture>()
    private var slots = PODBuffer<Slot>()
    /// The literal keys' bytes, back to back.
    private var keys = PODBuffer<UInt8>()
    private var literalCount = 0

    init() {
        nodes.append(Node())
        for _ in 0..<16 { slots.append(Slot()) }
    }

    private init(copying other: TrieStorage) {
        nodes = other.nodes.copy()
        definitions = other.definitions.copy()
        captures = other.captures.copy()
        slots = other.slots.copy()
        keys = other.keys.copy()
        literalCount = other.literalCount
    }

    deinit {
        nodes.deallocate()
        definitions.deallocate()
        captures.deallocate()
        slots.deallocate()
        keys.deallocate()
    }

    func copy() -> TrieStorage { TrieStorage(copying: self) }

    /// Raw pointers to the buffers, valid while the object lives and is not mutated.
    var view: View {
        View(
            nodes: nodes.base, definitions: definitions.base, captures: captures.base, slots: slots.base, slotMask: slots.count - 1,
            keys: keys.base)
    }

    /// @unchecked: read-only pointers into a storage that is never mutated while shared; the
    /// owning `RouteTrie` keeps the storage alive and refreshes its view after each mutation.
    struct View: @unchecked Sendable {
        let nodes: UnsafeMutablePointer<Node>
        let definitions: UnsafeMutablePointer<RouteDefinition>
        let captures: UnsafeMutablePointer<RouteDefinition.Capture>
        let slots: UnsafeMutablePointer<Slot>
        let slotMask: Int
        let keys: UnsafeMutablePointer<UInt8>

        /// The child of `parent` along the literal `bytes`, whose hash and packed words
        /// (`LiteralHash`) are given, or -1.
        @inline(__always)
        func literalChild(of parent: Int32, key: LiteralHash.Key, bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
            let mixed = LiteralHash.mix(key.hash, parent)
            let check = UInt32(truncatingIfNeeded: mixed >> 32)
            var index = Int(truncatingIfNeeded: mixed) & slotMask
            while true {
                let slot = slots[index]
                if slot.child < 0 { return -1 }
                if slot.check == check, slot.parent == parent, Int(slot.keyCount) == bytes.count {
                    if bytes.count <= LiteralHash.inlineLimit {
                        if slot.word0 == key.word0, slot.word1 == key.word1 { return slot.child }
                    } else if UnsafeBufferPointer(start: keys + Int(slot.word0), count: bytes.count).elementsEqual(bytes) {
                        return slot.child
                    }
                }
                index = (index &+ 1) & slotMask
            }
        }
    }

    // MARK: Building (only on an unshared object)

    func addNode() -> Int32 {
        nodes.append(Node())
        return Int32(nodes.count - 1)
    }

    func updateNode(_ index: Int32, _ body: (inout Node) -> Void) { body(&nodes.base[Int(index)]) }

    func addDefinition(_ definition: RouteDefinition) -> Int32 {
        definitions.append(definition)
        return Int32(definitions.count - 1)
    }

    /// Appends captures; returns where they start.
    func addCaptures(_ more: ArraySlice<RouteDefinition.Capture>) -> Int {
        let start = captures.count
        for capture in more { captures.append(capture) }
        return start
    }

    /// The child of `parent` along `literal`, or -1.
    func literalChild(of parent: Int32, literal: String) -> Int32 {
        var literal = literal
        return literal.withUTF8 { bytes in view.literalChild(of: parent, key: LiteralHash.Key(bytes), bytes: bytes) }
    }

    /// Adds a literal edge; the caller makes sure it is new.
    func insertLiteral(parent: Int32, literal: String, child: Int32) {
        if (literalCount + 1) * 2 > slots.count { growSlots() }
        var literal = literal
        literal.withUTF8 { bytes in
            let key = LiteralHash.Key(bytes)
            var slot = Slot(parent: parent, child: child, keyCount: Int32(bytes.count), word0: key.word0, word1: key.word1)
            if bytes.count > LiteralHash.inlineLimit {
                slot.word0 = UInt64(keys.count)
                for byte in bytes { keys.append(byte) }
            }
            place(slot, hash: key.hash)
        }
        literalCount += 1
    }

    private func place(_ slot: Slot, hash: UInt64) {
        var slot = slot
        let mixed = LiteralHash.mix(hash, slot.parent)
        slot.check = UInt32(truncatingIfNeeded: mixed >> 32)
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: mixed) & mask
        while slots.base[index].child >= 0 { index = (index + 1) & mask }
        slots.base[index] = slot
    }

    /// The key of a slot, recomputed from its bytes.
    private func key(of slot: Slot) -> LiteralHash.Key {
        let count = Int(slot.keyCount)
        if count > LiteralHash.inlineLimit {
            return LiteralHash.Key(UnsafeBufferPointer(start: keys.base + Int(slot.word0), count: count))
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: LiteralHash.inlineLimit) { bytes in
            for index in 0..<count {
                let word = index < 8 ? slot.word0 : slot.word1
                bytes[index] = UInt8(truncatingIfNeeded: word >> (8 * UInt64(index % 8)))
            }
            return LiteralHash.Key(UnsafeBufferPointer(rebasing: bytes[..<count]))
        }
    }

    private func growSlots() {
        let old = slots
        slots = PODBuffer<Slot>()
        for _ in 0..<(old.count * 2) { slots.append(Slot()) }
        for index in 0..<old.count where old.base[index].child >= 0 {
            let slot = old.base[index]
            place(slot, hash: key(of: slot).hash)
        }
        var retired = old
        retired.deallocate()
    }
}

/// The hash of a segment's bytes and, for short segments, the bytes packed into two words: shared
/// by the trie's table and the request's per-segment cache.
enum LiteralHash {
    /// Keys up to this many bytes are compared as two packed words.
    static let inlineLimit = 16

    struct Key {
        /// FNV-1a over the bytes; never 0 (a request caches it with 0 meaning "not computed").
        var hash: UInt64
        /// The first 16 bytes, little-endian, zero-padded.
        var word0: UInt64
        var word1: UInt64

        @inline(__always)
        init(hash: UInt64, word0: UInt64, word1: UInt64) {
            self.hash = hash
            self.word0 = word0
            self.word1 = word1
        }

        @inline(__always)
        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            var word0: UInt64 = 0
            var word1: UInt64 = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                if index < 8 {
                    word0 |= UInt64(byte) << (8 &* UInt64(index))
                } else if index < 16 {
                    word1 |= UInt64(byte) << (8 &* UInt64(index &- 8))
                }
            }
            self.init(hash: hash | 1, word0: word0, word1: word1)
        }
    }

    /// Mixes a segment's hash with the parent node.
    @inline(__always)
    static func mix(_ hash: UInt64, _ parent: Int32) -> UInt64 {
        var x = hash ^ (UInt64(UInt32(bitPattern: parent)) &* 0x9E37_79B9_7F4A_7C15)
        x = (x ^ (x >> 31)) &* 0xBF58_476D_1CE4_E5B9
        return x ^ (x >> 29)
    }
}

/// A growable buffer of trivial values with manual memory management; its owner deallocates it.
struct PODBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init() {
        capacity = 8
        base = .allocate(capacity: capacity)
    }

    mutating func append(_ element: Element) {
        if count == capacity {
            let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            grown.initialize(from: base, count: count)
            base.deallocate()
            base = grown
            capacity *= 2
        }
        (base + count).initialize(to: element)
        count += 1
    }

    subscript(index: Int) -> Element { base[index] }

    func copy() -> PODBuffer {
        var result = PODBuffer()
        result.base.deallocate()
        result.base = .allocate(capacity: capacity)
        result.base.initialize(from: base, count: count)
        result.capacity = capacity
        result.count = count
        return result
    }

    mutating func deallocate() { base.deallocate() }
}
