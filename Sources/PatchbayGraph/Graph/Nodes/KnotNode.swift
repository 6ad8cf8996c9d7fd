@_spi(Shell) import PatchbayCore

/// `knot NAME = EXPR`: a state node (Knot). Its output `state` starts at EXPR; its input `update`
/// merges an object into the state (Knot's `sink`); pipes reduce it with events.
final class KnotNode: GraphNode {
    private(set) var state: OutputPort<Value>!
    private(set) var update: InputPort!
    var pending: Value?
    private(set) var pipes: [KnotPipe] = []

    init(graph: Graph, name: String, initial: Value) {
        super.init(graph: graph, name: name, kind: .knot)
        state = addOutput("state", initial: initial)
        update = addInput("update")
    }

    var current: Value? { pending ?? state.value }

    override func inputDidArrive(_ input: InputPort, _ delivery: Delivery) {
        input.consumeArrival()
        guard let change = input.value else { return }
        guard case .object(let members) = change else {
            markFailed("\(name).update takes an object to merge into the state, not \(change.typeName)")
            return
        }
        var next = state.value ?? .emptyObject
        if case .object(var current) = next {
            for (key, value) in members { current[key] = value }
            next = .object(current)
        } else {
            next = change
        }
        _ = clearMarks()
        emitAll([(state, next)], cause: input.cause, delivery == .event ? .change : delivery)
    }

    override var upstreamNodes: [GraphNode] {
        super.upstreamNodes + pipes.compactMap { $0.source.owner as? GraphNode }
    }

    func addPipe(_ pipe: KnotPipe) {
        pipes.append(pipe)
    }

    func removePipe(_ pipe: KnotPipe) {
        pipes.removeAll { $0 === pipe }
    }

    override func detachAll() {
        for pipe in pipes { pipe.source.detach(pipe) }
        pipes.removeAll()
        super.detachAll()
    }
}

/// `pipe SRC.PORT -> KNOT [when EXPR] : STATEMENTS`: reduces the knot's state with each value
/// arriving from SRC.PORT (`$`), reading the state as it was before the wave.
final class KnotPipe: Receiver {
    let source: OutputPort<Value>
    unowned let knot: KnotNode
    let condition: Expression?
    let body: StatementBlock
    unowned let graph: Graph

    init(graph: Graph, from source: OutputPort<Value>, to knot: KnotNode, condition: Expression?, body: StatementBlock) {
        self.graph = graph
        self.source = source
        self.knot = knot
        self.condition = condition
        self.body = body
    }

    var node: NodeCore { knot }

    var text: String { "\(source.address) -> \(knot.name)" }

    func receive(_ value: Value, _ delivery: Delivery) {
        // The pipe runs at the knot's turn in the wave, after the nodes its body reads.
        knot.hold { [unowned self] in reduce(value) }
    }

    private func reduce(_ value: Value) {
        guard var state = knot.state.value else { return }
        do throws(ExpressionError) {
            if let condition {
                let test = try condition.evaluate(Bindings(input: value, state: state), in: graph)
                guard case .bool(let pass) = test else {
                    throw ExpressionError(.notABool(context: "the 'when' condition", type: test.typeName), at: condition.range)
                }
                guard pass else { return }
            }
            try body.execute(state: &state, bindings: Bindings(input: value), in: graph)
        } catch {
            knot.markFailed("pipe \(text): \(error.message(in: body.source))")
            return
        }
        _ = knot.clearMarks()
        knot.emitAll([(knot.state, state)], cause: source.cause, .change)
    }
}
