@_spi(Shell) public import PatchbayCore

/// Resolves the free names of an expression: the nodes of a graph, in the shell.
///
/// Reading a name is a sample: implementations must return the current value and never trigger
/// anything.
@_spi(Shell)
public protocol ExpressionEnvironment {
    /// The current value of the node called `name`.
    func lookup(name: String) -> NameLookup
    /// The current value of `node.port`; `.unknown` when `node` has no port of that name, in which
    /// case `.port` reads a key of the node's value instead.
    func lookup(node: String, port: String) -> NameLookup
    /// Every name that `lookup(name:)` knows, for suggestions.
    var knownNames: [String] { get }
}

extension ExpressionEnvironment {
    public func lookup(node: String, port: String) -> NameLookup { .unknown }
}

/// The result of looking a name up in an `ExpressionEnvironment`.
@_spi(Shell)
public enum NameLookup: Sendable, Equatable {
    case value(Value)
    /// The name exists but holds no value; the text says why ("x.value is empty").
    case empty(String)
    case unknown
}

/// An environment with no names.
@_spi(Shell)
public struct EmptyEnvironment: ExpressionEnvironment, Sendable {
    public init() {}
    public func lookup(name: String) -> NameLookup { .unknown }
    public var knownNames: [String] { [] }
}

/// The values of the special names: `$`, `state`, `action`, `params` and `url`.
/// A name that is `nil` here is an error to read.
@_spi(Shell)
public struct Bindings: Sendable {
    public var input: Value?
    public var state: Value?
    public var action: Value?
    public var params: Value?
    public var url: Value?
    /// The route result, `{url, pattern, params, view, option}`, in presenters and route guards.
    public var route: Value?

    public init(input: Value? = nil, state: Value? = nil, action: Value? = nil, params: Value? = nil, url: Value? = nil,
                route: Value? = nil) {
        self.input = input
        self.state = state
        self.action = action
        self.params = params
        self.url = url
        self.route = route
    }
}

extension Bindings {
    /// The member `key` of the object a special name holds (`action.by`), read where it is
    /// rather than from a copy of the whole object; `nil` when the name is unset, holds no object
    /// or the object has no such key (the evaluator then reads the name as usual, for its error
    /// or its optional chaining).
    @inline(__always)
    func member(_ key: String, of reference: VariableReference) -> Value? {
        switch reference {
        case .input: input?[key]
        case .state: state?[key]
        case .action: action?[key]
        case .params: params?[key]
        case .url: url?[key]
        case .route: route?[key]
        case .local, .global: nil
        }
    }
}
