@_spi(Shell) import PatchbayCore

extension PatchType {
    /// `accumulate`: folds each value of `in` into `out` with `fn` over `acc` and `$`.
    static let accumulate = PatchType(
        name: "accumulate", summary: "out = fn(acc, $) for each value of in, starting from initial",
        inputs: ["in"], outputs: ["out"],
        parameters: [
            .init(name: "fn", summary: "an expression over acc and $, e.g. \"acc + $\"", isCode: true, defaultValue: nil),
            .init(name: "initial", summary: "the first acc", isCode: false, defaultValue: 0),
        ]
    ) { arguments throws(PatchTypeError) in
        let initial = arguments.value("initial")
        return PatchDesign(inputs: ["in"], outputs: ["out"], initialOutputs: ["out": initial],
                           behavior: AccumulateBehavior(function: arguments.code["fn"]!, initial: initial))
    }
}

final class AccumulateBehavior: PatchBehavior {
    let function: Expression
    private var accumulator: Value

    init(function: Expression, initial: Value) {
        self.function = function
        self.accumulator = initial
    }

    var sampledNames: [String] { function.freeNames.filter { $0 != "acc" } }

    func activate(_ activation: inout PatchActivation) throws(PatchFailure) {
        guard let value = activation.arrived("in") else { return }
        let environment = AccumulatorEnvironment(accumulator: accumulator, graph: activation.graph)
        accumulator = try function.evaluateForPatch(Bindings(input: value), in: environment)
        activation.emit("out", accumulator)
    }

    func saved() -> (() -> Void)? {
        { [self, accumulator] in self.accumulator = accumulator }
    }
}

/// Resolves `acc` to the accumulator and every other name to the graph's nodes.
struct AccumulatorEnvironment: ExpressionEnvironment {
    let accumulator: Value
    let graph: Graph

    func lookup(name: String) -> NameLookup {
        name == "acc" ? .value(accumulator) : graph.lookup(name: name)
    }

    func lookup(node: String, port: String) -> NameLookup {
        node == "acc" ? .unknown : graph.lookup(node: node, port: port)
    }

    var knownNames: [String] { ["acc"] + graph.knownNames }
}
