@_spi(Shell) import PatchbayCore

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
        // A change, whatever arrived: an equal value stops here.
        publish(value, input.value ?? .null, cause: input.cause, .change)
        input.consumeArrival()
    }
}

/// `signal NAME`: an event port `out` with no memory; `send` fires it, `close` ends it.
///
/// A signal is also a sink (GlueKit): every value that arrives on its input `send` is sent on
/// `out` after the current transaction, one transaction each, in arrival order. A send is never
/// nested in the wave that made it, so a wire from `out` back into `send` is no cycle, and a
/// reentrant cascade runs one value after the other.
final class SignalNode: GraphNode {
    private(set) var out: OutputPort<Value>!
    private(set) var sendInput: InputPort!
    var isClosed = false

    init(graph: Graph, name: String) {
        super.init(graph: graph, name: name, kind: .signal)
        out = addOutput("out", remembers: false)
        sendInput = addInput("send")
        sendInput.isQueued = true
        sendInput.acceptsManyWires = true
    }

    override func inputDidArrive(_ input: InputPort, _ delivery: Delivery) {
        let values = input.arrivals
        input.consumeArrival()
        let cause = input.cause
        for value in values {
            engine.enqueue("\(name).send") { [weak self] in
                guard let self else { return }
                graph.send(on: self, value, cause: cause)
            }
        }
    }
}
