extension Value: Equatable {
    /// Structural equality: numbers compare by magnitude (`1 == 1.0`), arrays element by element,
    /// objects by their key sets and values, ignoring key order.
    public static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.decimal(let a), .decimal(let b)): a == b
        case (.int(let a), .decimal(let b)), (.decimal(let b), .int(let a)): Value.integer(a, equals: b)
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            // The same storage is equal without a walk (arrays do this themselves).
            lhs.sharesStorage(with: rhs) || (a.count == b.count && a.allSatisfy { key, value in b[key] == value })
        default: false
        }
    }

    /// Exact comparison of an integer with a double, without the rounding of `Double(int)`.
    private static func integer(_ int: Int, equals double: Double) -> Bool {
        guard double.rounded(.towardZero) == double, double >= -0x1p63, double < 0x1p63 else { return false }
        return Int(double) == int
    }
}

extension Value: Hashable {
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0)
        case .bool(let b):
            hasher.combine(b)
        case .int(let i):
            hasher.combine(i)
        case .decimal(let d):
            // Integral decimals hash like the integer they equal.
            if d.rounded(.towardZero) == d, d >= -0x1p63, d < 0x1p63 {
                hasher.combine(Int(d))
            } else {
                hasher.combine(d)
            }
        case .string(let s):
            hasher.combine(s)
        case .array(let elements):
            hasher.combine(elements.count)
            for element in elements { hasher.combine(element) }
        case .object(let members):
            // Order-independent, to agree with `==`.
            var combined = 0
            for (key, value) in members {
                var member = Hasher()
                member.combine(key)
                member.combine(value)
                combined ^= member.finalize()
            }
            hasher.combine(members.count)
            hasher.combine(combined)
        }
    }
}
