@_spi(Shell) import PatchbayCore

/// A wire from an output to an input, with an optional filter (`when`, over `$`) and transform
/// (`: EXPR`). A delay wire (`~>`) carries its source's value across only on `tick`.
final class Wire: Receiver {
    let source: OutputPort<Value>
    unowned let target: InputPort
    let condition: Expression?
    let transform: Expression?
    let isDelay: Bool
    /// Whether the wire skipped the replay of its source's value when it was made (`--future`,
    /// GlueKit's `futureValues`).
    let isFuture: Bool
    /// Whether the `when` or the transform reads nodes (samples): then the wire delivers at its
    /// target's turn in the wave, once what it reads has settled.
    let readsNodes: Bool
    unowned let graph: Graph

    init(graph: Graph, from source: OutputPort<Value>, to target: InputPort, condition: Expression?,
         transform: Expression?, isDelay: Bool, isFuture: Bool = false) {
        self.graph = graph
        self.source = source
        self.target = target
        self.condition = condition
        self.transform = transform
        self.isDelay = isDelay
        self.isFuture = isFuture
        readsNodes = !(condition?.freeNames.isEmpty ?? true) || !(transform?.freeNames.isEmpty ?? true)
    }

    var node: NodeCore { target.owner }

    /// `a.value -> b.x` (or `~>` for a delay wire).
    var text: String { "\(source.address) \(isDelay ? "~>" : "->") \(target.address)" }

    /// Whether the wire is in its graph: made, and not removed or replaced since.
    var isLive: Bool { target.wires.contains { $0 === self } }

    /// The full definition, as `wire` takes it.
    var definition: String {
        var text = self.text
        if isFuture { text += " --future" }
        if let condition { text += " when \(condition)" }
        if let transform { text += " : \(transform)" }
        return text
    }


    func receive(_ value: Value, _ delivery: Delivery) {
        // Samples must see the values settled in this wave: evaluate at the target's turn.
        if readsNodes {
            target.graphNode.hold { [unowned self] in deliver(value, delivery) }
        } else {
            deliver(value, delivery)
        }
    }

    /// Filters and transforms `value`, then hands it to the target input.
    /// `cause`: why the value moves, when not its source's change (a delay wire crosses at a
    /// tick).
    func deliver(_ value: Value, _ delivery: Delivery, cause: Cause? = nil) {
        var carried = value
        do throws(ExpressionError) {
            if let condition {
                let test = try condition.evaluate(Bindings(input: value), in: graph)
                guard case .bool(let pass) = test else {
                    throw ExpressionError(.notABool(context: "the 'when' condition", type: test.typeName), at: condition.range)
                }
                guard pass else { return }
            }
            if let transform { carried = try transform.evaluate(Bindings(input: value), in: graph) }
        } catch {
            let source = (condition ?? transform)?.source ?? ""
            target.graphNode.markFailed("wire \(text): \(error.message(in: source))")
            return
        }
        target.cause = cause ?? source.cause
        target.receive(carried, delivery, from: self)
    }
}
