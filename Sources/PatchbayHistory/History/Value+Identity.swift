@_spi(Shell) import PatchbayCore

extension Value {
    /// Whether two optional values are the same down to the kind of every number: `==` finds `1`
    /// and `1.0` equal, but a step from one to the other is still a change. Key order does not
    /// count.
    static func same(_ a: Value?, _ b: Value?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): same(a, b)
        default: false
        }
    }

    private static func same(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.array(let left), .array(let right)):
            left.count == right.count && zip(left, right).allSatisfy { same($0, $1) }
        case (.object(let left), .object(let right)):
            left.count == right.count && left.allSatisfy { key, value in right[key].map { same(value, $0) } ?? false }
        default:
            a.typeName == b.typeName && a == b
        }
    }
}
