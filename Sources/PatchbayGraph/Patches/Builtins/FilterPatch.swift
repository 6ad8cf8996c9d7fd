@_spi(Shell) import PatchbayCore

extension PatchType {
    /// `filter`: passes the values of `in` for which `when` is true.
    static let filter = PatchType(
        name: "filter", summary: "passes the values of in for which when is true",
        inputs: ["in"], outputs: ["out"],
        parameters: [.init(name: "when", summary: "a condition over $, e.g. \"$ > 0\"", isCode: true, defaultValue: nil)]
    ) { arguments throws(PatchTypeError) in
        PatchDesign(inputs: ["in"], outputs: ["out"], behavior: FilterBehavior(condition: arguments.code["when"]!))
    }
}

final class FilterBehavior: PatchBehavior {
    let condition: Expression

    init(condition: Expression) { self.condition = condition }

    var sampledNames: [String] { condition.freeNames }

    func activate(_ activation: inout PatchActivation) throws(PatchFailure) {
        guard let value = activation.arrived("in") else { return }
        let test = try condition.evaluateForPatch(Bindings(input: value), in: activation.graph)
        guard case .bool(let pass) = test else {
            throw PatchFailure("when must give a bool, not \(test.typeName)")
        }
        if pass { activation.emit("out", value) }
    }
}
