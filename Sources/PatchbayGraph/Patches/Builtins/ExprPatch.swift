@_spi(Shell) import PatchbayCore

extension PatchType {
    /// `expr`: every free name of the expression is an input; `out` is its value.
    static let expr = PatchType(
        name: "expr", summary: "out = the expression; each free name in it is an input port",
        inputs: ["NAME..."], outputs: ["out"],
        parameters: [.init(name: "expr", summary: "the expression, e.g. \"a + b\"", isCode: true, defaultValue: nil)]
    ) { arguments throws(PatchTypeError) in
        let expression = arguments.code["expr"]!
        let names = expression.freeNames
        return PatchDesign(inputs: names, outputs: ["out"], behavior: ExprBehavior(expression: expression, inputs: names))
    }
}

final class ExprBehavior: PatchBehavior {
    let expression: Expression
    let inputs: [String]

    init(expression: Expression, inputs: [String]) {
        self.expression = expression
        self.inputs = inputs
    }

    func activate(_ activation: inout PatchActivation) throws(PatchFailure) {
        var values: [String: Value] = [:]
        for name in inputs {
            guard let value = activation.value(name) else { return }
            values[name] = value
        }
        let environment = InputEnvironment(values: values, names: inputs)
        activation.emit("out", try expression.evaluateForPatch(Bindings(), in: environment))
    }
}
