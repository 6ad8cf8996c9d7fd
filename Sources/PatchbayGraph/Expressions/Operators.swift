@_spi(Shell) import PatchbayCore

/// A failed operation on values, before the evaluator adds where it happened.
struct OperationError: Error {
    var reason: ExpressionError.Reason
    init(_ reason: ExpressionError.Reason) { self.reason = reason }
}

/// Sizes past which a result is refused rather than built.
enum Limits {
    static let maxStringBytes = 16 << 20
    static let maxElements = 1 << 24
    static let maxRange = 1_000_000
}

/// The arithmetic and comparison of the expression language.
enum Operators {
    static func apply(_ op: BinaryOperator, _ a: Value, _ b: Value) throws(OperationError) -> Value {
        switch op {
        case .add: return try add(a, b)
        case .subtract: return try arithmetic(op, a, b, Int.subtractingReportingOverflow, -)
        case .multiply: return try arithmetic(op, a, b, Int.multipliedReportingOverflow, *)
        case .divide: return try divide(a, b)
        case .remainder: return try remainder(a, b)
        case .equal: return .bool(a == b)
        case .notEqual: return .bool(a != b)
        case .less: return .bool(try compare(op, a, b) < 0)
        case .lessEqual: return .bool(try compare(op, a, b) <= 0)
        case .greater: return .bool(try compare(op, a, b) > 0)
        case .greaterEqual: return .bool(try compare(op, a, b) >= 0)
        }
    }

    static func add(_ a: Value, _ b: Value) throws(OperationError) -> Value {
        // Two integers (a counter's `+= 1`), without matching the pair as a tuple, which copies both.
        if case .int(let x) = a, case .int(let y) = b {
            let (sum, overflow) = x.addingReportingOverflow(y)
            guard !overflow else { throw OperationError(.integerOverflow(operation: BinaryOperator.add.rawValue)) }
            return .int(sum)
        }
        switch (a, b) {
        case (.string(let x), .string(let y)):
            guard x.utf8.count + y.utf8.count <= Limits.maxStringBytes else {
                throw OperationError(.tooLarge(what: "the string", limit: Limits.maxStringBytes))
            }
            return .string(x + y)
        case (.array(let x), .array(let y)):
            guard x.count + y.count <= Limits.maxElements else {
                throw OperationError(.tooLarge(what: "the array", limit: Limits.maxElements))
            }
            return .array(x + y)
        case (.object(var x), .object(let y)):
            for (key, value) in y { x[key] = value }
            return .object(x)
        default:
            return try arithmetic(.add, a, b, Int.addingReportingOverflow, +)
        }
    }

    /// `a = a + b`, or with `appending`, `a = append(a, b)`: in place when `a` holds the only
    /// reference to its array, string or object, so that growing a value step by step costs
    /// what is added, not a copy of all of it.
    static func grow(_ a: inout Value, by b: Value, appending: Bool) throws(OperationError) {
        if appending {
            guard a.typeName == "array" else {
                throw OperationError(.invalidArgument(function: "append", detail: "argument 1 must be an array, not \(a.typeName)"))
            }
            guard a.shallowCount < Limits.maxElements else {
                throw OperationError(.tooLarge(what: "the array", limit: Limits.maxElements))
            }
            var x = a.takeArray()!
            x.append(b)
            a = .array(x)
            return
        }
        // Only `b` is bound while `a` changes: a binding of `a`'s payload would be a second reference.
        switch b {
        case .array(let y) where a.typeName == "array":
            guard a.shallowCount + y.count <= Limits.maxElements else {
                throw OperationError(.tooLarge(what: "the array", limit: Limits.maxElements))
            }
            var x = a.takeArray()!
            x.append(contentsOf: y)
            a = .array(x)
        case .string(let y) where a.typeName == "string":
            guard a.shallowCount + y.utf8.count <= Limits.maxStringBytes else {
                throw OperationError(.tooLarge(what: "the string", limit: Limits.maxStringBytes))
            }
            var x = a.takeString()!
            x += y
            a = .string(x)
        case .object(let y) where a.typeName == "object":
            var x = a.takeObject()!
            for (key, value) in y { x[key] = value }
            a = .object(x)
        default:
            a = try add(a, b)
        }
    }

    private static func arithmetic(
        _ op: BinaryOperator, _ a: Value, _ b: Value,
        _ integer: (Int) -> (Int) -> (partialValue: Int, overflow: Bool),
        _ decimal: (Double, Double) -> Double
    ) throws(OperationError) -> Value {
        switch (a, b) {
        case (.int(let x), .int(let y)):
            let (result, overflow) = integer(x)(y)
            guard !overflow else { throw OperationError(.integerOverflow(operation: op.rawValue)) }
            return .int(result)
        default:
            guard let x = a.doubleValue, let y = b.doubleValue else { throw mismatch(op, a, b) }
            return try finite(decimal(x, y), op)
        }
    }

    private static func divide(_ a: Value, _ b: Value) throws(OperationError) -> Value {
        switch (a, b) {
        case (.int(let x), .int(let y)):
            guard y != 0 else { throw OperationError(.divisionByZero) }
            let (quotient, overflow) = x.dividedReportingOverflow(by: y)
            guard !overflow else { throw OperationError(.integerOverflow(operation: "/")) }
            return x % y == 0 ? .int(quotient) : .decimal(Double(x) / Double(y))
        default:
            guard let x = a.doubleValue, let y = b.doubleValue else { throw mismatch(.divide, a, b) }
            guard y != 0 else { throw OperationError(.divisionByZero) }
            return try finite(x / y, .divide)
        }
    }

    private static func remainder(_ a: Value, _ b: Value) throws(OperationError) -> Value {
        switch (a, b) {
        case (.int(let x), .int(let y)):
            guard y != 0 else { throw OperationError(.divisionByZero) }
            let (result, overflow) = x.remainderReportingOverflow(dividingBy: y)
            guard !overflow else { throw OperationError(.integerOverflow(operation: "%")) }
            return .int(result)
        default:
            guard let x = a.doubleValue, let y = b.doubleValue else { throw mismatch(.remainder, a, b) }
            guard y != 0 else { throw OperationError(.divisionByZero) }
            return try finite(x.truncatingRemainder(dividingBy: y), .remainder)
        }
    }

    static func negate(_ a: Value) throws(OperationError) -> Value {
        switch a {
        case .int(let x):
            guard x != .min else { throw OperationError(.integerOverflow(operation: "-")) }
            return .int(-x)
        case .decimal(let x): return .decimal(-x)
        default: throw OperationError(.typeMismatch(operation: "-", types: [a.typeName]))
        }
    }

    /// Orders two numbers or two strings: negative, zero or positive.
    static func compare(_ op: BinaryOperator, _ a: Value, _ b: Value) throws(OperationError) -> Int {
        switch (a, b) {
        case (.int(let x), .int(let y)): return x < y ? -1 : x == y ? 0 : 1
        case (.string(let x), .string(let y)): return x < y ? -1 : x == y ? 0 : 1
        default:
            guard let x = a.doubleValue, let y = b.doubleValue else { throw mismatch(op, a, b) }
            if a == b { return 0 }
            return x < y ? -1 : x > y ? 1 : a.compareExactly(b)
        }
    }

    static func finite(_ d: Double, _ op: BinaryOperator) throws(OperationError) -> Value {
        guard d.isFinite else { throw OperationError(.decimalOverflow(operation: op.rawValue)) }
        return .decimal(d)
    }

    static func mismatch(_ op: BinaryOperator, _ a: Value, _ b: Value) -> OperationError {
        OperationError(.typeMismatch(operation: op.rawValue, types: [a.typeName, b.typeName]))
    }
}

extension Value {
    /// Orders an int and a decimal that convert to the same double but may differ exactly.
    fileprivate func compareExactly(_ other: Value) -> Int {
        switch (self, other) {
        case (.int(let i), .decimal(let d)):
            // Double(i) == d, so d is integral; only 2^63 itself does not fit in an Int.
            guard let e = Int(exactly: d) else { return -1 }
            return i < e ? -1 : i > e ? 1 : 0
        case (.decimal, .int):
            return -other.compareExactly(self)
        default:
            return 0
        }
    }
}

extension Value {
    // Each moves the payload out and leaves `null`, so that the payload is uniquely referenced
    // (when the value was) and changes in place; binding it in a `switch` over the value would
    // keep a second reference alive in unoptimised builds.

    fileprivate mutating func takeArray() -> [Value]? {
        guard case .array(let elements) = self else { return nil }
        self = .null
        return elements
    }

    fileprivate mutating func takeString() -> String? {
        guard case .string(let text) = self else { return nil }
        self = .null
        return text
    }

    fileprivate mutating func takeObject() -> Members? {
        guard case .object(let members) = self else { return nil }
        self = .null
        return members
    }
}
