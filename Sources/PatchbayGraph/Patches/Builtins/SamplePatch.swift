@_spi(Shell) import PatchbayCore

extension PatchType {
    /// `sample`: on each arrival on `trigger`, `out` gets the current value of `in`.
    static let sample = PatchType(
        name: "sample", summary: "on each trigger, out = the current value of in",
        inputs: ["in", "trigger"], outputs: ["out"]
    ) { _ throws(PatchTypeError) in
        PatchDesign(inputs: ["in", "trigger"], outputs: ["out"], behavior: SampleBehavior())
    }
}

final class SampleBehavior: PatchBehavior {
    func activate(_ activation: inout PatchActivation) throws(PatchFailure) {
        guard activation.arrived("trigger") != nil, let value = activation.value("in") else { return }
        activation.emit("out", value)
    }
}
