@_spi(Shell) import PatchbayCore

extension PatchType {
    /// `distinct`: passes a value of `in` only when it differs from the last one passed.
    static let distinct = PatchType(
        name: "distinct", summary: "passes a value of in only when it differs from the previous one",
        inputs: ["in"], outputs: ["out"]
    ) { _ throws(PatchTypeError) in
        PatchDesign(inputs: ["in"], outputs: ["out"], behavior: DistinctBehavior())
    }
}

final class DistinctBehavior: PatchBehavior {
    private var last: Value?

    func activate(_ activation: inout PatchActivation) throws(PatchFailure) {
        guard let value = activation.arrived("in"), value != last else { return }
        last = value
        activation.emit("out", value)
    }

    func saved() -> (() -> Void)? {
        { [self, last] in self.last = last }
    }
}
