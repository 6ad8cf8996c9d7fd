extension Value {
    /// The canonical order of values, in which `ValueEncoder` and `Value(reflecting:)` write
    /// the elements of a set and the pairs of a dictionary (by key), whose own order is Swift's
    /// hash order, different in every process.
    ///
    /// Kinds first: `null` < bools < numbers < strings < arrays < objects. Then `false` < `true`;
    /// numbers by magnitude (an integer before a decimal of the same magnitude); strings as
    /// Swift's `<` orders them; arrays element by element, a shorter one first when it is the
    /// start of the other; objects by their members in key order, keys by their Unicode scalars
    /// (as arrays of key and value), so that two equal objects (`==`, whatever their key order)
    /// are in the same place.
    static func canonicallyPrecedes(_ a: Value, _ b: Value) -> Bool {
        compare(a, b) < 0
    }

    /// A set's elements in the canonical order.
    static func canonicalSet(_ elements: [Value]) -> Value {
        .array(elements.sorted(by: canonicallyPrecedes))
    }

    /// A dictionary as `Codable` writes it, in the canonical order: an object (`String` or `Int`
    /// keys, `intKeys` for the latter) with its keys sorted, `Int`s by number and strings by
    /// their Unicode scalars; or the
    /// `[key, value, key, value...]` array of other keys with its pairs by key.
    static func canonicalDictionary(_ encoded: Value, intKeys: Bool) -> Value {
        switch encoded {
        case .object(var members):
            if intKeys {
                members.sort { Int($0.key.string) ?? 0 < Int($1.key.string) ?? 0 }
            } else {
                members.sort { $0.key < $1.key }
            }
            return .object(members)
        case .array(let flat) where flat.count % 2 == 0:
            var pairs = stride(from: 0, to: flat.count, by: 2).map { (key: flat[$0], value: flat[$0 + 1]) }
            pairs.sort { canonicallyPrecedes($0.key, $1.key) }
            return .array(pairs.flatMap { [$0.key, $0.value] })
        default:
            return encoded
        }
    }

    /// Negative, zero or positive as `a` comes before, at the same place as, or after `b` in the
    /// canonical order.
    private static func compare(_ a: Value, _ b: Value) -> Int {
        switch (a, b) {
        case (.null, .null): return 0
        case (.bool(let x), .bool(let y)): return x == y ? 0 : x ? 1 : -1
        case (.int(let x), .int(let y)): return x < y ? -1 : x == y ? 0 : 1
        case (.decimal(let x), .decimal(let y)): return x < y ? -1 : x == y ? 0 : 1
        case (.int(let x), .decimal(let y)): return compare(x, y)
        case (.decimal(let x), .int(let y)): return -compare(y, x)
        case (.string(let x), .string(let y)): return x < y ? -1 : x == y ? 0 : 1
        case (.array(let x), .array(let y)): return compare(x, y)
        case (.object(let x), .object(let y)): return compare(sortedMembers(x), sortedMembers(y))
        default: return rank(a) - rank(b)
        }
    }

    /// The place of a value's kind in the canonical order.
    private static func rank(_ value: Value) -> Int {
        switch value {
        case .null: 0
        case .bool: 1
        case .int, .decimal: 2
        case .string: 3
        case .array: 4
        case .object: 5
        }
    }

    /// An integer against a finite double, exactly (no rounding through `Double(int)`); an
    /// integer comes first when they are equal.
    private static func compare(_ int: Int, _ double: Double) -> Int {
        if double >= 0x1p63 { return -1 }
        if double < -0x1p63 { return 1 }
        let whole = double.rounded(.down)
        let floor = Int(whole)
        if int != floor { return int < floor ? -1 : 1 }
        return -1
    }

    private static func compare(_ a: [Value], _ b: [Value]) -> Int {
        for (x, y) in zip(a, b) {
            let order = compare(x, y)
            if order != 0 { return order }
        }
        return a.count - b.count
    }

    /// An object's members as an array of `[key, value]` pairs, in key order (by scalars).
    private static func sortedMembers(_ members: Members) -> [Value] {
        members.sorted { $0.key < $1.key }.map { .array([.string($0.key.string), $0.value]) }
    }
}
