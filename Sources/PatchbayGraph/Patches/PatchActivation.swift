@_spi(Shell) import PatchbayCore

/// One run of a patch's behaviour: what arrived, the inputs' values, and what it emits.
struct PatchActivation {
    unowned let patch: PatchNode
    /// Outputs emitted in this run, sent together when it ends.
    private(set) var emissions: [(port: String, value: Value)] = []

    init(patch: PatchNode) {
        self.patch = patch
    }

    /// The value that arrived on `input` in this wave, if any.
    func arrived(_ input: String) -> Value? {
        guard let port = patch.input(input), port.arrival != nil else { return nil }
        return port.value
    }

    /// Every value that arrived on `input` in this wave, oldest first (several when an event port
    /// sent several events in one wave).
    func arrivals(_ input: String) -> [Value] {
        patch.input(input)?.arrivals ?? []
    }

    /// The current value of `input`: what last arrived, or its local value.
    func value(_ input: String) -> Value? {
        patch.input(input)?.value
    }

    /// Sends `value` on `output` when the run ends: on a value port the last value emitted in
    /// the run, on an event port every value, each an event of its own, in emission order.
    mutating func emit(_ output: String, _ value: Value) {
        // The port is looked up only for a second emission on it: most runs emit once per port.
        if emissions.contains(where: { $0.port == output }), patch.output(output)?.remembers ?? true {
            emissions.removeAll { $0.port == output }
        }
        emissions.append((output, value))
    }

    /// The graph, for expressions that read nodes.
    var graph: Graph { patch.graph }

    /// Prints `value` as the patch's log line.
    func log(_ value: Value) {
        patch.graph.report(.log(node: patch.name, value: value, transaction: patch.engine.transactionID))
    }
}

/// Resolves the names of an expression or body to a patch's inputs; every other name is an
/// error, since such expressions read their inputs only.
struct InputEnvironment: ExpressionEnvironment {
    let values: [String: Value]
    let names: [String]

    func lookup(name: String) -> NameLookup {
        guard names.contains(name) else { return .unknown }
        guard let value = values[name] else { return .empty("input \(name) has no value yet") }
        return .value(value)
    }

    var knownNames: [String] { names }
}
