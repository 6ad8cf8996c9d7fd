/// `patch NAME TYPE [PARAM=EXPR ...]`: a node of a built-in or user-defined patch type.
final class PatchNode: GraphNode {
    let type: PatchType
    let arguments: [String: Value]
    let behavior: any PatchBehavior

    init(graph: Graph, name: String, type: PatchType, arguments: [String: Value], design: PatchDesign) {
        self.type = type
        self.arguments = arguments
        self.behavior = design.behavior
        super.init(graph: graph, name: name, kind: .patch(type: type.name))
        for input in design.inputs { addInput(input, local: arguments[input]) }
        for output in design.outputs { addOutput(output, initial: design.initialOutputs[output]) }
    }

    override func evaluate() {
        let arrivals = inputs.filter { $0.arrival != nil }
        let delivery: Delivery = arrivals.contains { $0.arrival == .event } ? .event : .change
        let cause = arrivals.first?.cause ?? []
        var activation = PatchActivation(patch: self)
        defer { for input in arrivals { input.consumeArrival() } }
        do {
            try behavior.activate(&activation)
        } catch {
            markFailed(error.message)
            return
        }
        let wasMarked = clearMarks()
        let values = activation.emissions.compactMap { emission in output(emission.port).map { ($0, emission.value) } }
        emitAll(values, cause: cause, wasMarked ? .event : delivery)
    }
}
