/// A wire from an output to an input, with an optional filter (`when`, over `$`) and transform
/// (`: EXPR`). A delay wire (`~>`) carries its source's value across only on `tick`.
final class Wire: Receiver {
    let source: OutputPort<Value>
    unowned let target: InputPort
    let condition: Expression?
    let transform: Expression?
    let isDelay: Bool
    unowned let graph: Graph

    init(graph: Graph, from source: OutputPort<Value>, to target: InputPort, condition: Expression?,
         transform: Expression?, isDelay: Bool) {
        self.graph = graph
        self.source = source
        self.target = target
        self.condition = condition
        self.transform = transform
        self.isDelay = isDelay
    }

    var node: NodeCore { target.owner }

    /// `a.value -> b.x` (or `~>` for a delay wire).
    var text: String { "\(source.address) \(isDelay ? "~>" : "->") \(target.address)" }

    /// The full definition, as `wire` takes it.
    var definition: String {
        var text = self.text
        if let condition { text += " when \(condition)" }
        if let transform { text += " : \(transform)" }
        return text
    }

    func receive(_ value: Value, _ delivery: Delivery) {
        deliver(value, delivery)
    }

    /// Filters and transforms `value`, then hands it to the target input.
    func deliver(_ value: Value, _ delivery: Delivery) {
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
        target.cause = source.cause
        target.receive(carried, delivery)
    }
}
