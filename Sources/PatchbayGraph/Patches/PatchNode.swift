@_spi(Shell) import PatchbayCore

/// `patch NAME TYPE [PARAM=EXPR ...]`: a node of a built-in or user-defined patch type.
final class PatchNode: GraphNode {
    let type: PatchType
    let arguments: [String: Value]
    let behavior: any PatchBehavior
    /// The values the outputs held when the patch was created (a counter's `count` starts at 0).
    let initialOutputs: [String: Value]

    init(graph: Graph, name: String, type: PatchType, arguments: [String: Value], design: PatchDesign) {
        self.type = type
        self.arguments = arguments
        self.behavior = design.behavior
        self.initialOutputs = design.initialOutputs
        super.init(graph: graph, name: name, kind: .patch(type: type.name))
        // A parameter named like an input gives the input its local value; so does its default.
        for input in design.inputs {
            let port = addInput(input, local: arguments[input] ?? type.parameters.first { $0.name == input }?.defaultValue)
            port.onlyAttaches = design.attachingInputs.contains(input)
            port.acceptsManyWires = design.mergingInputs.contains(input)
        }
        for output in design.outputs {
            addOutput(output, remembers: !type.eventOutputs.contains(output), initial: design.initialOutputs[output])
        }
    }

    override func saved() -> (() -> Void)? {
        let restoreNode = super.saved()
        let restoreBehavior = behavior.saved()
        return {
            restoreNode?()
            restoreBehavior?()
        }
    }

    /// The nodes the patch's code reads as samples.
    override var sampledNames: [String] { behavior.sampledNames }

    override func evaluate() {
        releaseHeldArrivals()
        let arrivals = inputs.filter { $0.arrival != nil }
        // A held arrival may have been filtered out by its wire's `when`, or failed in it.
        guard !arrivals.isEmpty else { return }
        let cause = arrivals.first?.cause
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
        // Value outputs computed to an equal value stop there, whatever arrived; event
        // outputs send every emission.
        emitAll(values, cause: cause, wasMarked ? .event : .change)
    }
}
