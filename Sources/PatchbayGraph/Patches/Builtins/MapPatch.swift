@_spi(Shell) import PatchbayCore

extension PatchType {
    /// `map`: `out` is `fn` applied to each value arriving on `in` (`$`).
    static let map = PatchType(
        name: "map", summary: "out = fn applied to each value of in ($)",
        inputs: ["in"], outputs: ["out"],
        parameters: [.init(name: "fn", summary: "an expression over $, e.g. \"$ + 1\"", isCode: true, defaultValue: nil)]
    ) { arguments throws(PatchTypeError) in
        PatchDesign(inputs: ["in"], outputs: ["out"], behavior: MapBehavior(function: arguments.code["fn"]!))
    }
}

final class MapBehavior: PatchBehavior {
    let function: Expression

    init(function: Expression) { self.function = function }

    var sampledNames: [String] { function.freeNames }

    func activate(_ activation: inout PatchActivation) throws(PatchFailure) {
        guard let value = activation.arrived("in") ?? activation.value("in") else { return }
        activation.emit("out", try function.evaluateForPatch(Bindings(input: value), in: activation.graph))
    }
}
