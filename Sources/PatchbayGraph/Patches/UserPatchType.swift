@_spi(Shell) import PatchbayCore

extension PatchType {
    /// A type defined with `patchtype NAME (IN, ...) -> (OUT, ...) { STATEMENTS }`: the body runs
    /// once every input has a value and again whenever one arrives; it reads inputs by name,
    /// other nodes as samples, keeps `state` between runs (starting as `{}`), and sends outputs
    /// with `emit`.
    /// Outputs named in `eventOutputs` are event ports, on which the body may emit several times in
    /// one run (flatMap).
    public static func userDefined(name: String, inputs: [String], outputs: [String], eventOutputs: [String] = [],
                                   body: StatementBlock) -> PatchType {
        PatchType(
            name: name, summary: "user-defined: \(body)", inputs: inputs, outputs: outputs, eventOutputs: eventOutputs,
            isUserDefined: true, body: body
        ) { _ throws(PatchTypeError) in
            PatchDesign(inputs: inputs, outputs: outputs,
                        behavior: StatementsBehavior(inputs: inputs, outputs: outputs, body: body))
        }
    }
}

final class StatementsBehavior: PatchBehavior {
    let inputs: [String]
    let outputs: [String]
    let body: StatementBlock
    private var state: Value = .emptyObject

    init(inputs: [String], outputs: [String], body: StatementBlock) {
        self.inputs = inputs
        self.outputs = outputs
        self.body = body
    }

    var sampledNames: [String] { body.readNames.filter { !inputs.contains($0) } }

    func activate(_ activation: inout PatchActivation) throws(PatchFailure) {
        var values: [String: Value] = [:]
        for name in inputs {
            guard let value = activation.value(name) else { return }
            values[name] = value
        }
        let environment = LayeredEnvironment(inner: InputEnvironment(values: values, names: inputs), outer: activation.graph)
        var next = state
        let emissions: [Emission]
        do {
            emissions = try body.execute(state: &next, in: environment)
        } catch {
            throw PatchFailure(error.message(in: body.source))
        }
        for emission in emissions where !outputs.contains(emission.port) {
            throw PatchFailure("emit \(emission.port): no such output (outputs: \(outputs.joined(separator: ", ")))")
        }
        state = next
        for emission in emissions { activation.emit(emission.port, emission.value) }
    }

    func saved() -> (() -> Void)? {
        { [self, state] in self.state = state }
    }
}

/// Looks names up in `inner` first, then in `outer`.
struct LayeredEnvironment: ExpressionEnvironment {
    let inner: any ExpressionEnvironment
    let outer: any ExpressionEnvironment

    func lookup(name: String) -> NameLookup {
        let found = inner.lookup(name: name)
        return found == .unknown ? outer.lookup(name: name) : found
    }

    func lookup(node: String, port: String) -> NameLookup {
        inner.lookup(name: node) == .unknown ? outer.lookup(node: node, port: port) : .unknown
    }

    var knownNames: [String] { inner.knownNames + outer.knownNames }
}
