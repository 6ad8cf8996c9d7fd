import PatchbayCore

/// `var NAME = EXPR`: a value (output `value`) that `set` writes, or a wire into its input `set`.
final class VariableNode: GraphNode {
    private(set) var value: OutputPort<Value>!
    private(set) var setter: InputPort!
    /// A value written in the open transaction, not yet committed.
    var pending: Value?

    init(graph: Graph, name: String, initial: Value) {
        super.init(graph: graph, name: name, kind: .variable)
        value = addOutput("value", initial: initial)
        setter = addInput("set")
    }

    var current: Value? { pending ?? value.value }

    override func inputDidArrive(_ input: InputPort, _ delivery: Delivery) {
        // A change, whatever arrived: an equal value stops here (rule 3).
        publish(value, input.value ?? .null, cause: input.cause, .change)
        input.consumeArrival()
    }
}

/// `signal NAME`: an event port `out` with no memory; `send` fires it, `close` ends it.
final class SignalNode: GraphNode {
    private(set) var out: OutputPort<Value>!
    var isClosed = false

    init(graph: Graph, name: String) {
        super.init(graph: graph, name: name, kind: .signal)
        out = addOutput("out", remembers: false)
    }
}
