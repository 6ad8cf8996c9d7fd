@_spi(Shell) import PatchbayCore

/// The syntax tree of a parsed expression. Names are resolved while parsing: the special names
/// (`$`, `state`, ...), lambda parameters (by slot) and free names (nodes, at evaluation time).
indirect enum ExpressionNode: Sendable {
    case literal(Value, Range<Int>)
    case array([ExpressionNode], Range<Int>)
    case object([ObjectMember], Range<Int>)
    case template([TemplatePiece], Range<Int>)
    case variable(VariableReference, Range<Int>)
    case member(ExpressionNode, String, optional: Bool, Range<Int>)
    case index(ExpressionNode, ExpressionNode, optional: Bool, Range<Int>)
    case call(Builtin, [Argument], Range<Int>)
    case unary(UnaryOperator, ExpressionNode, Range<Int>)
    case binary(BinaryOperator, ExpressionNode, ExpressionNode, Range<Int>)
    case and(ExpressionNode, ExpressionNode, Range<Int>)
    case or(ExpressionNode, ExpressionNode, Range<Int>)
    case coalesce(ExpressionNode, ExpressionNode, Range<Int>)
    case conditional(ExpressionNode, ExpressionNode, ExpressionNode, Range<Int>)

    var range: Range<Int> {
        switch self {
        case .literal(_, let r), .array(_, let r), .object(_, let r), .template(_, let r), .variable(_, let r), .member(_, _, _, let r),
            .index(_, _, _, let r), .call(_, _, let r), .unary(_, _, let r), .binary(_, _, _, let r), .and(_, _, let r),
            .or(_, _, let r), .coalesce(_, _, let r), .conditional(_, _, _, let r):
            r
        }
    }

    /// The same node spanning `range` instead, for an expression wrapped in parentheses.
    func withRange(_ range: Range<Int>) -> ExpressionNode {
        switch self {
        case .literal(let value, _): .literal(value, range)
        case .array(let elements, _): .array(elements, range)
        case .object(let members, _): .object(members, range)
        case .template(let pieces, _): .template(pieces, range)
        case .variable(let reference, _): .variable(reference, range)
        case .member(let base, let key, let optional, _): .member(base, key, optional: optional, range)
        case .index(let base, let index, let optional, _): .index(base, index, optional: optional, range)
        case .call(let function, let arguments, _): .call(function, arguments, range)
        case .unary(let op, let operand, _): .unary(op, operand, range)
        case .binary(let op, let left, let right, _): .binary(op, left, right, range)
        case .and(let left, let right, _): .and(left, right, range)
        case .or(let left, let right, _): .or(left, right, range)
        case .coalesce(let left, let right, _): .coalesce(left, right, range)
        case .conditional(let test, let whenTrue, let whenFalse, _): .conditional(test, whenTrue, whenFalse, range)
        }
    }
}

struct ObjectMember: Sendable {
    var key: String
    var value: ExpressionNode
}

enum TemplatePiece: Sendable {
    case text(String)
    case expression(ExpressionNode)
}

/// What a name in an expression refers to.
enum VariableReference: Sendable, Equatable {
    /// `$`, the incoming value.
    case input
    case state
    case action
    case params
    case url
    /// `route`, the whole route result in presenters and route guards.
    case route
    /// A lambda parameter, by its slot in the evaluator's locals.
    case local(Int)
    /// Any other name: a node, looked up in the environment when evaluated.
    case global(String)
}

/// A function argument: a value, or a lambda for functions such as `map`.
enum Argument: Sendable {
    case value(ExpressionNode)
    case lambda(Lambda)
}

struct Lambda: Sendable {
    /// The slot of the first parameter; the others follow.
    var firstSlot: Int
    var parameterCount: Int
    var body: ExpressionNode
    var range: Range<Int>
}

enum UnaryOperator: String, Sendable {
    case not = "!"
    case negate = "-"
}

enum BinaryOperator: String, Sendable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
    case equal = "==", notEqual = "!=", less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
}
