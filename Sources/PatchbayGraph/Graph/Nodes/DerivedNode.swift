@_spi(Shell) import PatchbayCore

/// `derive NAME = EXPR`: a value recomputed when a node named in EXPR changes. Its named nodes
/// are its inputs (the one exception to "reading a node is a sample").
final class DerivedNode: GraphNode {
    let expression: Expression
    private(set) var value: OutputPort<Value>!
    /// The ports the expression depends on.
    private(set) var dependencies: [OutputPort<Value>] = []
    private var triggers: [Trigger] = []

    init(graph: Graph, name: String, expression: Expression, dependencies: [OutputPort<Value>]) {
        self.expression = expression
        super.init(graph: graph, name: name, kind: .derived)
        value = addOutput("value")
        for port in dependencies { depend(on: port) }
    }

    private func depend(on port: OutputPort<Value>) {
        dependencies.append(port)
        let trigger = Trigger(node: self, port: port)
        triggers.append(trigger)
        port.attach(trigger)
    }

    override var upstreamNodes: [GraphNode] {
        super.upstreamNodes + dependencies.compactMap { $0.owner as? GraphNode }
    }

    /// Stops listening to `port` (its node was removed).
    func forget(_ port: OutputPort<Value>) {
        for trigger in triggers where trigger.port === port { port.detach(trigger) }
        triggers.removeAll { $0.port === port }
        dependencies.removeAll { $0 === port }
    }

    override func evaluate() {
        let cause = triggers.first { $0.fired }?.port.cause
        for trigger in triggers { trigger.fired = false }
        compute(cause: cause)
    }

    /// Evaluates the expression and publishes the result; a failure keeps the last value.
    func compute(cause: Cause?) {
        do {
            let result = try expression.evaluate(Bindings(), in: graph)
            let wasMarked = clearMarks()
            emitAll([(value, result)], cause: cause, wasMarked ? .event : .change)
        } catch {
            markFailed(error.message(in: expression.source))
        }
    }

    override func detachAll() {
        for trigger in triggers { trigger.port.detach(trigger) }
        triggers.removeAll()
        super.detachAll()
    }

    /// Schedules the derived node when a dependency delivers.
    final class Trigger: Receiver {
        unowned let derived: DerivedNode
        unowned let port: OutputPort<Value>
        var fired = false

        init(node: DerivedNode, port: OutputPort<Value>) {
            self.derived = node
            self.port = port
        }

        var node: NodeCore { derived }

        func receive(_ value: Value, _ delivery: Delivery) {
            fired = true
            derived.schedule()
        }
    }
}
