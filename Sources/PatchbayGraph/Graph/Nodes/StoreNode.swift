@_spi(Shell) import PatchbayCore

/// `store NAME = EXPR` (VISPER-Redux, ReSwift): a node whose state changes only by actions.
/// Input `dispatch` takes actions (a wire into it dispatches after the current transaction,
/// never nested); outputs `state` (a value port) and `action` (an event port, each action).
final class StoreNode: GraphNode {
    private(set) var state: OutputPort<Value>!
    private(set) var action: OutputPort<Value>!
    private(set) var dispatchInput: InputPort!
    var reducers: [StoreReducer] = []
    /// What runs before the reducers, in registration order (`middleware STORE ...`).
    var middleware: [StoreMiddleware] = []
    /// The app's reducer, for a hosted store (which has no shell reducers).
    var hosted: HostedReducer?
    /// How many actions the store has handled; the next one gets this plus one.
    var actionCount = 0 { willSet { willChange() } }
    /// The action being handled, whose index a queued dispatch records as its cause.
    var currentIndex: Int? { willSet { willChange() } }
    /// Why the action being handled arrived on `dispatch` (the wire's source port), while it is
    /// handled: the cause the store's outputs send it with, instead of the command's.
    private(set) var arrivalCause: Cause?
    /// Whether the reducers hold the state (taken out of the `state` port) right now.
    private(set) var isReducing = false

    init(graph: Graph, name: String, initial: Value) {
        super.init(graph: graph, name: name, kind: .store)
        state = addOutput("state", initial: initial)
        action = addOutput("action", remembers: false)
        dispatchInput = addInput("dispatch")
        dispatchInput.isQueued = true
        dispatchInput.acceptsManyWires = true
    }

    override func saved() -> (() -> Void)? {
        let restoreNode = savedPorts(except: state)
        let (actionCount, currentIndex) = (self.actionCount, self.currentIndex)
        return { [self] in
            restoreNode()
            self.actionCount = actionCount
            self.currentIndex = currentIndex
        }
    }

    /// Moves the state out of the `state` port for the reducers to change in place; the port
    /// reads as being reduced until `restoreState` or `republishState`.
    func takeState() -> Value {
        willChange()
        isReducing = true
        var taken: Value? = nil
        swap(&taken, &state.value)
        return taken ?? .null
    }

    /// Puts the state back into the `state` port without sending it.
    func restoreState(_ value: consuming Value) {
        state.value = value
        isReducing = false
    }

    /// Sends the state the port holds again, as a new value.
    func republishState(cause: Cause?, _ delivery: Delivery) {
        guard let value = state.value else { return }
        publish(state, value, cause: cause, delivery)
    }

    override func inputDidArrive(_ input: InputPort, _ delivery: Delivery) {
        input.consumeArrival()
        guard let value = input.value else { return }
        let cause = currentIndex
        // The state it leads to names where the action came from (`why`): the source port of
        // the wire, of which this input may have several.
        let origin = Cause(input.addressText, after: input.cause)
        engine.enqueue("\(name).dispatch") { [unowned self] in
            arrivalCause = origin
            defer { arrivalCause = nil }
            graph.dispatchLater(to: self, value, cause: cause)
        }
    }
}

/// A reducer of a shell store: `reducer STORE on TYPE [at PATH] [when EXPR] [after MS] : ...`.
///
/// A class, so that running through a store's reducers for every action retains each once
/// instead of copying its fields.
final class StoreReducer {
    let id: String
    /// The action type it handles, or `*` for every action.
    let type: String
    /// The sub-state `state` stands for, if scoped with `at`.
    let path: [ValueChange.PathComponent]?
    let condition: Expression?
    /// Virtual milliseconds to wait before applying, if any.
    let delay: Int?
    let body: StatementBlock
    /// Whether `type` is `*`, worked out once rather than for every action.
    private let handlesEveryType: Bool

    init(id: String, type: String, path: [ValueChange.PathComponent]?, condition: Expression?, delay: Int?, body: StatementBlock) {
        self.id = id
        self.type = type
        self.path = path
        self.condition = condition
        self.delay = delay
        self.body = body
        handlesEveryType = type == "*"
    }

    func handles(_ actionType: String) -> Bool { handlesEveryType || type == actionType }

    /// Applies the reducer to `state`, appending what it changes; the state and `changes` are
    /// left as they were when it fails.
    func apply(to state: inout Value, action: Value, in graph: Graph, changes: inout [ValueChange]) throws(ExpressionError) {
        var evaluator = Evaluator(environment: graph)
        evaluator.bindings.state = StatementBlock.take(&state)
        evaluator.bindings.action = action
        defer { state = evaluator.bindings.state.take() ?? .null }
        try apply(&evaluator, changes: &changes)
    }

    /// Applies the reducer to the state that `evaluator`'s bindings hold, with the action they
    /// hold, appending what it changes; the state and `changes` are left as they were when it
    /// fails. The reducers of one action share the evaluator, and the state never leaves it.
    /// `removedKeyPositions` collects where removed object keys stood, by index in `changes`,
    /// so that a failure of a later reducer of the same action can undo these changes exactly.
    func apply(_ evaluator: inout Evaluator, changes: inout [ValueChange], removedKeyPositions: inout [Int: Int]) throws(ExpressionError) {
        let start = changes.count
        try apply(&evaluator, changes: &changes)
        guard !evaluator.removedKeyPositions.isEmpty else { return }
        // A scoped reducer's positions count from its own first change.
        let offset = path == nil ? 0 : start
        for (position, keyIndex) in evaluator.removedKeyPositions { removedKeyPositions[offset + position] = keyIndex }
    }

    func apply(_ evaluator: inout Evaluator, changes: inout [ValueChange]) throws(ExpressionError) {
        guard let path else {
            guard try passes(&evaluator) else { return }
            try body.run(&evaluator, changes: &changes)
            return
        }
        // Scoped with `at`: `state` stands for the sub-state while the guard and the body run.
        var state = evaluator.bindings.state.take() ?? .null
        defer { evaluator.bindings.state = state }
        let existing = state.value(at: path)
        evaluator.bindings.state = existing ?? .null
        guard try passes(&evaluator) else { return }
        var local: [ValueChange] = []
        try body.run(&evaluator, changes: &local)
        guard !local.isEmpty else { return }
        let scoped = evaluator.bindings.state.take() ?? .null
        do {
            try state.set(scoped, at: path)
        } catch {
            throw ExpressionError(.failed("at \(ValueChange.pathText(path)): \(error.reason)"), at: body.range)
        }
        if existing == nil {
            changes.append(ValueChange(path: path, operation: .add, old: nil, new: scoped))
        } else {
            for change in local { changes.append(ValueChange(path: path + change.path, operation: change.operation, old: change.old, new: change.new)) }
        }
    }

    private func passes(_ evaluator: inout Evaluator) throws(ExpressionError) -> Bool {
        guard let condition else { return true }
        do throws(ExpressionError) {
            let test = try condition.evaluate(with: &evaluator)
            guard case .bool(let pass) = test else {
                throw ExpressionError(.notABool(context: "the 'when' guard", type: test.typeName), at: condition.range)
            }
            return pass
        } catch {
            // A body given since with `reducer ID : ...` comes from another line than the guard:
            // the guard's error names the guard's own text, as the whole definition would.
            guard condition.source != body.source else { throw error }
            throw ExpressionError(.failed(error.message(in: condition.source)), at: 0..<0)
        }
    }

    /// The reducer as `reducer list` shows it.
    var summary: ReducerSummary {
        ReducerSummary(id: id, type: type, path: path.map(ValueChange.pathText), condition: condition?.sourceText,
                       delay: delay, body: body.sourceText)
    }
}

/// A reducer as `reducer list` shows it.
@_spi(Shell)
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
