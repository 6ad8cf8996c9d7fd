public import PatchbayCore

/// The syntax tree of a statement (reducer, pipe and patch bodies).
indirect enum StatementNode: Sendable {
    case assign(StatePath, AssignmentOperator, ExpressionNode, Range<Int>)
    case delete(StatePath, Range<Int>)
    case conditional(ExpressionNode, [StatementNode], [StatementNode], Range<Int>)
    case emit(port: String, ExpressionNode, Range<Int>)
}

/// `state`, `state.items[0].done`: where an assignment writes.
struct StatePath: Sendable {
    enum Component: Sendable {
        case key(String)
        case index(ExpressionNode)
    }

    var components: [Component]
    var range: Range<Int>
    /// The path as keys, when no component needs evaluating (`state.user.name`).
    let staticKeys: [ValueChange.PathComponent]?

    init(components: [Component], range: Range<Int>) {
        self.components = components
        self.range = range
        var keys: [ValueChange.PathComponent] = []
        for case .key(let key) in components { keys.append(.key(key)) }
        staticKeys = keys.count == components.count ? keys : nil
    }
}

enum AssignmentOperator: String, Sendable {
    case assign = "="
    case add = "+="
    case subtract = "-="
}

/// A value a patch body sends out with `emit PORT EXPR`.
public struct Emission: Sendable, Equatable {
    public var port: String
    public var value: Value

    public init(port: String, value: Value) {
        self.port = port
        self.value = value
    }
}
