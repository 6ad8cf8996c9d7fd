@_spi(Shell) import PatchbayCore

extension PatchType {
    /// `merge`: every value that arrives on `a`, `b` or `c` goes to `out` (GlueKit's merged source).
    static let merge = PatchType(
        name: "merge", summary: "out = every value arriving on a, b, c, each an event (in input order when several arrive together)",
        inputs: ["a", "b", "c"], outputs: ["out"], eventOutputs: ["out"]
    ) { _ throws(PatchTypeError) in
        PatchDesign(inputs: ["a", "b", "c"], outputs: ["out"], mergingInputs: ["a", "b", "c"], behavior: MergeBehavior())
    }
}

final class MergeBehavior: PatchBehavior {
    func activate(_ activation: inout PatchActivation) throws(PatchFailure) {
        for input in ["a", "b", "c"] {
            for value in activation.arrivals(input) { activation.emit("out", value) }
        }
    }
}
