@_spi(Shell) public import PatchbayCore

/// The syntax tree of a statement (reducer, pipe and patch bodies).
indirect enum StatementNode: Sendable {
    case assign(StatePath, AssignmentOperator, ExpressionNode, Range<Int>)
    case delete(StatePath, Range<Int>)
    case conditional(ExpressionNode, [StatementNode], [StatementNode], Range<Int>)
    case emit(port: String, ExpressionNode, Range<Int>)
    /// `drop` (a middleware's): the action goes no further.
    case drop(Range<Int>)
    /// `dispatch TYPE [EXPR]` (a middleware's): `{type: TYPE, ...EXPR}` is dispatched after the
    /// current action, never inside it.
    case dispatch(type: String, ExpressionNode?, Range<Int>)
}

/// What a block of statements is the body of, which decides what it may write.
@_spi(Shell)
public enum StatementContext: Sendable {
    /// A reducer, pipe or patch body: assignments write `state`.
    case reducer
    /// A store's middleware: assignments write `action`; `drop` and `dispatch` are statements;
    /// `state` is read only.
    case middleware
}

/// `state`, `state.items[0].done` (or, in a middleware, `action.by`): where an assignment writes.
struct StatePath: Sendable {
    /// Whether the path starts at `action` (a middleware's) rather than `state`.
    var isAction = false
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
@_spi(Shell)
public struct Emission: Sendable, Equatable {
    public var port: String
    public var value: Value

    public init(port: String, value: Value) {
        self.port = port
        self.value = value
    }
}
