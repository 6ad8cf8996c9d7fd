@_spi(Shell) import PatchbayCore

/// The data a match reads — trie nodes, definitions, and the literal edges' hash table — in plain
/// buffers of trivial values owned by one object, so that a match reads them through a `View` of
/// raw pointers without reference counting. `RouteTrie` copies the object before mutating it when
/// it is shared, so values keep value semantics.
///
/// The layout is for large tables, whose cost per match is the memory they touch: a match reads
/// one 8-byte slot of the edge table per literal segment and one 32-byte node per segment, and
/// a match ending at a node reads nothing else of the trie (the node holds its best terminal's
/// target, whose parameters are described by a shape shared by all targets alike). What only
/// comparisons between matches, wildcards or declined guards need (ranks, the best wildcards) is
/// apart. The buffers are aligned on cache lines, so no node or slot straddles two.
final class TrieStorage: @unchecked Sendable {
    // @unchecked: mutated only through `RouteTrie`'s mutating methods, after making the object
    // unique (copy-on-write); a shared object is never mutated.

    /// A node, in 32 bytes.
    struct Node: BitwiseCopyable {
        var variable: Int32 = -1
        /// The smallest-ranked terminal definition (-1 when none).
        var bestTerminal: Int32 = -1
        /// For a node reached by a literal edge, its parent (-1 for the root and variable nodes).
        var parent: Int32 = -1
        private var terminalRoute: Int32 = 0
        private var terminalShape: Int32 = 0
        /// The literal edge's key length (up to 0xFFFF) in the low 16 bits, then the best
        /// terminal's expansion (10 bits, `RoutePattern.maximumGroups`) and flags.
        private var bits: UInt32 = 0
        /// The literal edge's key: its bytes packed (`LiteralHash.Key.word`) when it has up to 8,
        /// else where its length and bytes are in `keys`.
        var key: UInt64 = 0

        private static let expansionShift: UInt32 = 16
        private static let expansionMask: UInt32 = 0x3FF << 16
        private static let guardFlag: UInt32 = 1 << 26
        private static let literalsFlag: UInt32 = 1 << 27
        private static let wildcardFlag: UInt32 = 1 << 28

        /// The length of the literal edge's key, up to 0xFFFF.
        var keyCount: Int { Int(bits & 0xFFFF) }

        /// The node has literal children.
        var hasLiterals: Bool { bits & Self.literalsFlag != 0 }
        /// The node has wildcard definitions (the best is in `bestWildcards`).
        var hasWildcard: Bool { bits & Self.wildcardFlag != 0 }

        /// The target of `bestTerminal`.
        var terminal: RouteTarget {
            RouteTarget(
                route: Int(terminalRoute), expansion: Int((bits & Self.expansionMask) >> Self.expansionShift),
                hasGuard: bits & Self.guardFlag != 0, shape: terminalShape)
        }

        mutating func setKeyCount(_ count: Int) { bits = bits & ~0xFFFF | UInt32(Swift.min(count, 0xFFFF)) }

        mutating func setHasLiterals() { bits |= Self.literalsFlag }

        mutating func setHasWildcard() { bits |= Self.wildcardFlag }

        mutating func setTerminal(_ index: Int32, _ target: RouteTarget) {
            bestTerminal = index
            terminalRoute = Int32(target.route)
            terminalShape = target.shape
            bits = bits & ~(Self.expansionMask | Self.guardFlag) | UInt32(target.expansion) << Self.expansionShift
                | (target.hasGuard ? Self.guardFlag : 0)
        }
    }

    /// A literal edge `(parent, key) → child` in the open-addressing table; the edge itself is in
    /// the child (`Node.parent`, `Node.keyCount`, `Node.key`), which a lookup reads next anyway.
    struct Slot: BitwiseCopyable {
        /// High bits of the mixed hash, for a quick reject.
        var check: UInt32 = 0
        /// The child node, or -1 for an empty slot.
        var child: Int32 = -1
    }

    private(set) var nodes = PODBuffer<Node>()
    /// Per node, the smallest rank of any definition in its subtree.
    private(set) var minRanks = PODBuffer<RouteRank>()
    /// Per node, the smallest-ranked wildcard definition (-1 when none).
    private(set) var bestWildcards = PODBuffer<Int32>()
    private(set) var definitions = PODBuffer<RouteDefinition>()
    private(set) var shapes = PODBuffer<RouteShape>()
    /// The shapes' variables.
    private(set) var captures = PODBuffer<RouteShape.Capture>()
    private var slots = PODBuffer<Slot>()
    /// Literal keys longer than 8 bytes: each an 8-byte length, then its bytes.
    private var keys = PODBuffer<UInt8>()
    private var literalCount = 0

    init() {
        _ = addNode()
        for _ in 0..<16 { slots.append(Slot()) }
    }

    private init(copying other: TrieStorage) {
        // The properties start with buffers of their own, which the copies replace.
        nodes.replace(withCopyOf: other.nodes)
        minRanks.replace(withCopyOf: other.minRanks)
        bestWildcards.replace(withCopyOf: other.bestWildcards)
        definitions.replace(withCopyOf: other.definitions)
        shapes.replace(withCopyOf: other.shapes)
        captures.replace(withCopyOf: other.captures)
        slots.replace(withCopyOf: other.slots)
        keys.replace(withCopyOf: other.keys)
        literalCount = other.literalCount
    }

    deinit {
        nodes.deallocate()
        minRanks.deallocate()
        bestWildcards.deallocate()
        definitions.deallocate()
        shapes.deallocate()
        captures.deallocate()
        slots.deallocate()
        keys.deallocate()
    }

    func copy() -> TrieStorage { TrieStorage(copying: self) }

    /// Raw pointers to the buffers, valid while the object lives and is not mutated.
    var view: View {
        View(
            nodes: nodes.base, minRanks: minRanks.base, bestWildcards: bestWildcards.base, definitions: definitions.base,
            shapes: shapes.base, captures: captures.base, slots: slots.base, slotMask: slots.count - 1, keys: keys.base)
    }

    /// @unchecked: read-only pointers into a storage that is never mutated while shared; the
    /// owning `RouteTrie` keeps the storage alive and refreshes its view after each mutation.
    struct View: @unchecked Sendable {
        let nodes: UnsafeMutablePointer<Node>
        let minRanks: UnsafeMutablePointer<RouteRank>
        let bestWildcards: UnsafeMutablePointer<Int32>
        let definitions: UnsafeMutablePointer<RouteDefinition>
        let shapes: UnsafeMutablePointer<RouteShape>
        let captures: UnsafeMutablePointer<RouteShape.Capture>
        let slots: UnsafeMutablePointer<Slot>
        let slotMask: Int
        let keys: UnsafeMutablePointer<UInt8>

        /// The child of `parent` along the literal `bytes`, whose hash and packed word
        /// (`LiteralHash.Key`) are given, or -1.
        @inline(__always)
        func literalChild(of parent: Int32, key: LiteralHash.Key, bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
            let mixed = LiteralHash.mix(key.hash, parent)
            let check = UInt32(truncatingIfNeeded: mixed >> 32)
            var index = Int(truncatingIfNeeded: mixed) & slotMask
            while true {
                let slot = slots[index]
                if slot.child < 0 { return -1 }
                if slot.check == check {
                    // The child is read next anyway: the edge is there.
                    let child = nodes[Int(slot.child)]
                    if child.parent == parent, child.keyCount == Swift.min(bytes.count, 0xFFFF) {
                        if bytes.count <= LiteralHash.inlineLimit {
                            if child.key == key.word { return slot.child }
                        } else if Self.equal(longKey(at: child.key), bytes) {
                            return slot.child
                        }
                    }
                }
                index = (index &+ 1) & slotMask
            }
        }

        /// Whether `a` and `b` hold the same bytes, compared a word at a time.
        @inline(__always)
        static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
            let count = a.count
            guard count == b.count else { return false }
            let x = UnsafeRawPointer(a.baseAddress!)
            let y = UnsafeRawPointer(b.baseAddress!)
            var offset = 0
            while offset &+ 8 <= count {
                let u = x.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                if u != y.loadUnaligned(fromByteOffset: offset, as: UInt64.self) { return false }
                offset &+= 8
            }
            while offset < count {
                if a[offset] != b[offset] { return false }
                offset &+= 1
            }
            return true
        }

        /// The bytes of a key longer than 8 bytes, stored at `offset` in `keys`.
        func longKey(at offset: UInt64) -> UnsafeBufferPointer<UInt8> {
            let start = keys + Int(offset)
            let count = UnsafeRawPointer(start).loadUnaligned(as: UInt64.self)
            return UnsafeBufferPointer(start: start + 8, count: Int(count))
        }
    }

    // MARK: Building (only on an unshared object)

    func addNode() -> Int32 {
        nodes.append(Node())
        minRanks.append(.max)
        bestWildcards.append(-1)
        return Int32(nodes.count - 1)
    }

    func updateNode(_ index: Int32, _ body: (inout Node) -> Void) { body(&nodes.base[Int(index)]) }

    func setBestWildcard(_ index: Int32, _ definition: Int32) {
        bestWildcards.base[Int(index)] = definition
        updateNode(index) { $0.setHasWildcard() }
    }

    /// Lowers the smallest rank of the node's subtree to `rank` if it is smaller.
    func lowerMinRank(_ index: Int32, to rank: RouteRank) {
        if rank < minRanks.base[Int(index)] { minRanks.base[Int(index)] = rank }
    }

    func addDefinition(_ definition: RouteDefinition) -> Int32 {
        definitions.append(definition)
        return Int32(definitions.count - 1)
    }

    /// Adds a shape with these variables; returns its index.
    func addShape(wildcardAt: Int, captures more: [RouteShape.Capture]) -> Int32 {
        shapes.append(
            RouteShape(wildcardAt: Int32(wildcardAt), captureCount: Int32(more.count), capturesStart: Int32(captures.count)))
        for capture in more { captures.append(capture) }
        return Int32(shapes.count - 1)
    }

    /// The child of `parent` along `literal`, or -1.
    func literalChild(of parent: Int32, literal: String) -> Int32 {
        var literal = literal
        return literal.withUTF8 { bytes in view.literalChild(of: parent, key: LiteralHash.Key(bytes), bytes: bytes) }
    }

    /// Adds a literal edge to the new node `child`; the caller makes sure it is new.
    func insertLiteral(parent: Int32, literal: String, child: Int32) {
        if (literalCount + 1) * 4 > slots.count * 3 { growSlots() }
        var literal = literal
        literal.withUTF8 { bytes in
            let key = LiteralHash.Key(bytes)
            var stored = key.word
            if bytes.count > LiteralHash.inlineLimit {
                stored = UInt64(keys.count)
                withUnsafeBytes(of: UInt64(bytes.count)) { for byte in $0 { keys.append(byte) } }
                for byte in bytes { keys.append(byte) }
            }
            updateNode(child) { node in
                node.parent = parent
                node.setKeyCount(bytes.count)
                node.key = stored
            }
            updateNode(parent) { $0.setHasLiterals() }
            place(Slot(child: child), parent: parent, hash: key.hash)
        }
        literalCount += 1
    }

    private func place(_ slot: Slot, parent: Int32, hash: UInt64) {
        var slot = slot
        let mixed = LiteralHash.mix(hash, parent)
        slot.check = UInt32(truncatingIfNeeded: mixed >> 32)
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: mixed) & mask
        while slots.base[index].child >= 0 { index = (index + 1) & mask }
        slots.base[index] = slot
    }

    /// The hash of the key of the literal edge in `slot`, recomputed from its bytes.
    private func hash(of slot: Slot) -> UInt64 {
        let node = nodes.base[Int(slot.child)]
        let count = node.keyCount
        if count > LiteralHash.inlineLimit { return LiteralHash.Key(view.longKey(at: node.key)).hash }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: LiteralHash.inlineLimit) { bytes in
            for index in 0..<count { bytes[index] = UInt8(truncatingIfNeeded: node.key >> (8 * UInt64(index))) }
            return LiteralHash.Key(UnsafeBufferPointer(rebasing: bytes[..<count])).hash
        }
    }

    private func growSlots() {
        let old = slots
        slots = PODBuffer<Slot>()
        for _ in 0..<(old.count * 2) { slots.append(Slot()) }
        for index in 0..<old.count where old.base[index].child >= 0 {
            let slot = old.base[index]
            place(slot, parent: nodes.base[Int(slot.child)].parent, hash: hash(of: slot))
        }
        var retired = old
        retired.deallocate()
    }
}

/// The hash of a segment's bytes and, for segments of up to 8 bytes, the bytes packed into a
/// word: shared by the trie's table and the request's per-segment cache.
enum LiteralHash {
    /// Keys up to this many bytes are compared as one packed word.
    static let inlineLimit = 8

    struct Key {
        /// FNV-1a over the bytes; never 0 (a request caches it with 0 meaning "not computed").
        var hash: UInt64
        /// The first 8 bytes, little-endian, zero-padded.
        var word: UInt64

        @inline(__always)
        init(hash: UInt64, word: UInt64) {
            self.hash = hash
            self.word = word
        }

        @inline(__always)
        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            var word: UInt64 = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                if index < 8 { word |= UInt64(byte) << (8 &* UInt64(index)) }
            }
            self.init(hash: hash | 1, word: word)
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

/// A growable buffer of trivial values with manual memory management, aligned on a cache line;
/// its owner deallocates it.
struct PODBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init() {
        capacity = 8
        base = Self.allocate(capacity)
    }

    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<Element> {
        UnsafeMutableRawPointer.allocate(
            byteCount: capacity * MemoryLayout<Element>.stride, alignment: Swift.max(64, MemoryLayout<Element>.alignment)
        ).bindMemory(to: Element.self, capacity: capacity)
    }

    mutating func append(_ element: Element) {
        if count == capacity {
            let grown = Self.allocate(capacity * 2)
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
        result.base = Self.allocate(capacity)
        result.base.initialize(from: base, count: count)
        result.capacity = capacity
        result.count = count
        return result
    }

    /// Frees this buffer's memory and makes it a copy of `other`.
    mutating func replace(withCopyOf other: PODBuffer) {
        deallocate()
        self = other.copy()
    }

    mutating func deallocate() { base.deallocate() }
}
