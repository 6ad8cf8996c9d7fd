import PatchbayCore

extension PatchType {
    /// `merge`: whichever of `a`, `b`, `c` arrives goes to `out`.
    static let merge = PatchType(
        name: "merge", summary: "out = whichever of a, b, c arrives (a first when several arrive together)",
        inputs: ["a", "b", "c"], outputs: ["out"]
    ) { _ throws(PatchTypeError) in
        PatchDesign(inputs: ["a", "b", "c"], outputs: ["out"], behavior: MergeBehavior())
    }
}

final class MergeBehavior: PatchBehavior {
    func activate(_ activation: inout PatchActivation) throws(PatchFailure) {
        for input in ["a", "b", "c"] {
            if let value = activation.arrived(input) {
                activation.emit("out", value)
                return
            }
        }
    }
}
