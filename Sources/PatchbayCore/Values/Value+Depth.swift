extension Value {
    /// The deepest nesting of arrays and objects that evaluation builds: printing, comparing,
    /// hashing and freeing a value recurse once per level, so a much deeper value could overflow
    /// the stack. A scalar has depth 0, `[1]` depth 1, `{a: [1]}` depth 2.
    public static let maxDepth = 512

    /// How deeply arrays and objects nest, or `limit + 1` when it is more than `limit`.
    ///
    /// Iterative, so it is safe on a value of any depth, and it measures storage that several
    /// places share once (but for a few scalars, which cost as little to measure again): `[a, a]`
    /// holds `a`'s storage twice, and a value built by doubling like that is small in memory but
    /// has 2ⁿ places, so a walk of every place would not end. It takes time in proportion to the
    /// distinct arrays and objects, at most `limit` deep.
    public func nestingDepth(upTo limit: Int) -> Int {
        guard let root = held else { return 0 }  // a scalar, without the work list
        guard limit > 0 else { return limit + 1 }
        var heights: [Int: Int] = [:]  // by storage
        // Each frame's total is the height of its tallest child so far.
        var pending = [HeldWalkFrame(root, total: 0)]
        while true {
            let top = pending.count - 1
            if pending[top].next < pending[top].children.count {
                let child = pending[top].children[pending[top].next]
                pending[top].next += 1
                if child.sumOverFewScalars({ _ in 0 }) != nil {
                    pending[top].total = Swift.max(pending[top].total, 1)
                    continue
                }
                guard let held = child.held else { continue }
                if !heights.isEmpty, let height = heights[held.storage] {
                    pending[top].total = Swift.max(pending[top].total, height)
                    continue
                }
                guard pending.count < limit else { return limit + 1 }
                pending.append(HeldWalkFrame(held, total: 0))
            } else {
                let done = pending.removeLast()
                let height = done.total + 1
                guard let parent = pending.indices.last else { return Swift.min(height, limit + 1) }
                heights[done.storage] = height
                pending[parent].total = Swift.max(pending[parent].total, height)
            }
        }
    }

    /// The size of the value counted in every place it appears, as though nothing were shared:
    /// `elementBytes` for each element of an array, `memberBytes` for each member of an object,
    /// and a string's UTF-8 bytes, in the value and all it holds; or `limit + 1` when it is more
    /// than `limit`.
    ///
    /// Storage that several places share is measured once and counted in each, and the walk
    /// stops as soon as it has seen more than `limit`: it takes time in proportion to the
    /// smaller of the distinct arrays and objects and `limit / min(elementBytes, memberBytes)`.
    package func logicalSize(elementBytes: Int, memberBytes: Int, upTo limit: Int) -> Int {
        let limit = Swift.min(Swift.max(limit, 0), Int.max / 4)  // so that two sizes never overflow
        func ownSize(_ value: Value) -> Int {
            switch value {
            case .array(let elements): elements.count * elementBytes
            case .object(let members): members.count * memberBytes
            case .string(let s): s.utf8.count
            default: 0
            }
        }
        guard let root = held else { return Swift.min(ownSize(self), limit + 1) }
        var sizes: [Int: Int] = [:]  // by storage
        // The own sizes of the distinct arrays and objects met: no more than the whole size, so
        // the walk can stop once they pass `limit`, however little sharing there is.
        var seen = ownSize(self)
        guard seen <= limit else { return limit + 1 }
        var pending = [HeldWalkFrame(root, total: seen)]
        while true {
            let top = pending.count - 1
            if pending[top].next < pending[top].children.count {
                let child = pending[top].children[pending[top].next]
                pending[top].next += 1
                if let scalars = child.sumOverFewScalars(ownSize) {
                    let size = ownSize(child) + scalars
                    seen += size
                    pending[top].total += size
                    if seen > limit || pending[top].total > limit { return limit + 1 }
                    continue
                }
                guard let held = child.held else {
                    pending[top].total += ownSize(child)
                    if pending[top].total > limit { return limit + 1 }
                    continue
                }
                if !sizes.isEmpty, let size = sizes[held.storage] {
                    pending[top].total += size
                    if pending[top].total > limit { return limit + 1 }
                    continue
                }
                let own = ownSize(child)
                seen += own
                guard seen <= limit else { return limit + 1 }
                pending.append(HeldWalkFrame(held, total: own))
            } else {
                let done = pending.removeLast()
                let size = done.total
                guard let parent = pending.indices.last else { return size }
                sizes[done.storage] = size
                pending[parent].total += size
                if pending[parent].total > limit { return limit + 1 }
            }
        }
    }

    /// For an array or object of a few scalars (most objects of a list), the sum of `measure`
    /// over them; `nil` for anything else. A walk measures such a value where it meets it, with
    /// neither a frame nor a memo: measuring it again in another place costs no more than a
    /// lookup would, so a shared value still costs a few steps a place.
    fileprivate func sumOverFewScalars(_ measure: (Value) -> Int) -> Int? {
        var total = 0
        switch self {
        case .array(let elements):
            guard elements.count <= 16 else { return nil }
            for element in elements {
                if element.isContainer { return nil }
                total += measure(element)
            }
        case .object(let members):
            guard members.count <= 16 else { return nil }
            for value in members.values {
                if value.isContainer { return nil }
                total += measure(value)
            }
        default:
            return nil
        }
        return total
    }

    /// Whether the value is an array or an object.
    var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }

    /// The values an array or object holds (its elements, its members' values), sharing its
    /// storage, and the address of that storage, which is the same for every value that shares
    /// it; `nil` for a scalar.
    ///
    /// The address only tells storages apart while they are alive: a walk uses it while its root
    /// holds every storage it meets.
    fileprivate var held: (values: [Value], storage: Int)? {
        let values: [Value]
        switch self {
        case .array(let elements): values = elements
        case .object(let members): values = members.values.elements  // shares the storage
        default: return nil
        }
        return (values, values.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) })
    }
}

/// An array or object a walk is going through.
private struct HeldWalkFrame {
    let children: [Value]
    let storage: Int
    /// The child to go to next.
    var next = 0
    /// What the walk has measured of it so far.
    var total: Int

    init(_ held: (values: [Value], storage: Int), total: Int) {
        children = held.values
        storage = held.storage
        self.total = total
    }
}
