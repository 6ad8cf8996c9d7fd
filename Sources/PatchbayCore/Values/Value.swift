public import OrderedCollections

/// A Patchbay value: JSON, with integers kept apart from decimals.
///
/// Objects keep their keys in insertion order, and tell keys apart by their Unicode scalars, as
/// JSON does (`ObjectKey`): `"é"` and `"e\u{301}"` are two keys. Two values are equal when they are
/// structurally equal; numbers compare by magnitude, so `.int(1) == .decimal(1.0)`, and objects
/// compare without regard to key order.
public enum Value: Sendable {
    case null
    case bool(Bool)
    /// A 64-bit integer. Arithmetic that would overflow is an error, never a wrap.
    case int(Int)
    /// A finite double.
    case decimal(Double)
    case string(String)
    case array([Value])
    case object(OrderedDictionary<ObjectKey, Value>)
}

extension Value {
    /// The storage of an object's members: keys in insertion order, told apart by their scalars.
    public typealias Members = OrderedDictionary<ObjectKey, Value>

    /// The name of the value's type as the `type` function reports it.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .int: "int"
        case .decimal: "decimal"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// An empty object.
    public static var emptyObject: Value { .object([:]) }

    /// The member `key` of an object, or `nil` when this is not an object or has no such key.
    public subscript(key: String) -> Value? {
        // A `switch` lends the members to the lookup; `guard case` would copy them (three
        // reference counts) to outlive the statement.
        switch self {
        case .object(let members): members[key]
        default: nil
        }
    }

    /// Whether the value is a number (integer or decimal).
    package var isNumber: Bool {
        switch self {
        case .int, .decimal: true
        default: false
        }
    }

    /// The numeric value as a double, for mixed integer and decimal arithmetic.
    package var doubleValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .decimal(let d): d
        default: nil
        }
    }
}

extension Value: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .decimal(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: Value...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, Value)...) {
        self = .object(OrderedDictionary(elements.lazy.map { (ObjectKey($0.0), $0.1) }, uniquingKeysWith: { _, last in last }))
    }
}
