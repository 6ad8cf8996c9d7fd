/// `store NAME = EXPR` (VISPER-Redux, ReSwift): a node whose state changes only by actions.
/// Input `dispatch` takes actions (a wire into it dispatches after the current transaction,
/// never nested); outputs `state` (a value port) and `action` (an event port, each action).
final class StoreNode: GraphNode {
    private(set) var state: OutputPort<Value>!
    private(set) var action: OutputPort<Value>!
    private(set) var dispatchInput: InputPort!
    var reducers: [StoreReducer] = []
    /// How many actions the store has handled; the next one gets this plus one.
    var actionCount = 0
    /// The action being handled, whose index a queued dispatch records as its cause.
    var currentIndex: Int?
    /// Who hears every action: the history.
    var observers: [(StoreStep) -> Void] = []

    init(graph: Graph, name: String, initial: Value) {
        super.init(graph: graph, name: name, kind: .store)
        state = addOutput("state", initial: initial)
        action = addOutput("action", remembers: false)
        dispatchInput = addInput("dispatch")
        dispatchInput.isQueued = true
    }

    override func inputDidArrive(_ input: InputPort, _ delivery: Delivery) {
        input.consumeArrival()
        guard let value = input.value else { return }
        let cause = currentIndex
        engine.enqueue("\(name).dispatch") { [unowned self] in
            graph.dispatchLater(to: self, value, cause: cause)
        }
    }
}

/// A reducer of a shell store: `reducer STORE on TYPE [at PATH] [when EXPR] [after MS] : ...`.
struct StoreReducer {
    var id: String
    /// The action type it handles, or `*` for every action.
    var type: String
    /// The sub-state `state` stands for, if scoped with `at`.
    var path: [ValueChange.PathComponent]?
    var condition: Expression?
    /// Virtual milliseconds to wait before applying, if any.
    var delay: Int?
    var body: StatementBlock

    func handles(_ actionType: String) -> Bool { type == "*" || type == actionType }

    /// Applies the reducer to `state`; the state is left as it was when it fails.
    func apply(to state: inout Value, action: Value, in graph: Graph) throws(ExpressionError) {
        var scoped = path.map { state.value(at: $0) ?? .null } ?? state
        if let condition {
            let test = try condition.evaluate(Bindings(state: scoped, action: action), in: graph)
            guard case .bool(let pass) = test else {
                throw ExpressionError(.notABool(context: "the 'when' guard", type: test.typeName), at: condition.range)
            }
            guard pass else { return }
        }
        try body.execute(state: &scoped, bindings: Bindings(action: action), in: graph)
        guard let path else {
            state = scoped
            return
        }
        do {
            try state.set(scoped, at: path)
        } catch {
            throw ExpressionError(.failed("at \(ValueChange.pathText(path)): \(error.reason)"), at: body.range)
        }
    }

    /// The reducer as `reducer list` shows it.
    var summary: ReducerSummary {
        ReducerSummary(id: id, type: type, path: path.map(ValueChange.pathText), condition: condition?.description,
                       delay: delay, body: body.description)
    }
}

/// A reducer as `reducer list` shows it.
public struct ReducerSummary: Sendable, Equatable {
    public var id: String
    public var type: String
    public var path: String?
    public var condition: String?
    public var delay: Int?
    public var body: String
    /// The store it belongs to.
    public var store = ""
}

/// One action handled by a shell store, as its observers (the history) see it.
public struct StoreStep: Sendable, Equatable {
    public var store: String
    /// The action's number in the store: 1 for the first.
    public var index: Int
    public var action: Value
    public var before: Value
    public var after: Value
    public var changes: [ValueChange]
    /// Why the action failed; a failed action changed nothing.
    public var failure: String?
    /// The action whose handling dispatched this one, if any.
    public var cause: Int?
    /// For an `after MS` reducer: the action it belongs to and the delay.
    public var delayedFrom: Int?
}
