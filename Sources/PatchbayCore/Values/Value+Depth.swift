extension Value {
    /// The deepest nesting of arrays and objects that evaluation builds: printing, comparing,
    /// hashing and freeing a value recurse once per level, so a much deeper value could overflow
    /// the stack. A scalar has depth 0, `[1]` depth 1, `{a: [1]}` depth 2.
    public static let maxDepth = 512

    /// How deeply arrays and objects nest, or `limit + 1` when it is more than `limit`.
    /// Iterative, so it is safe on a value of any depth.
    public func nestingDepth(upTo limit: Int) -> Int {
        switch self {
        case .array, .object: break
        default: return 0  // a scalar, without the work list
        }
        var deepest = 0
        var pending: [(value: Value, depth: Int)] = [(self, 0)]
        while let (value, depth) = pending.popLast() {
            let children: [Value]
            switch value {
            case .array(let elements): children = elements
            case .object(let members): children = members.values.elements
            default: continue
            }
            guard depth < limit else { return limit + 1 }
            deepest = Swift.max(deepest, depth + 1)
            for child in children {
                switch child {
                case .array, .object: pending.append((child, depth + 1))
                default: break
                }
            }
        }
        return deepest
    }
}
