@_spi(Shell) import PatchbayCore

extension PatchType {
    /// `log`: prints every value that arrives on `in`.
    static let log = PatchType(
        name: "log", summary: "prints every value that arrives on in",
        inputs: ["in"], outputs: []
    ) { _ throws(PatchTypeError) in
        PatchDesign(inputs: ["in"], outputs: [], mergingInputs: ["in"], behavior: LogBehavior())
    }
}

final class LogBehavior: PatchBehavior {
    func activate(_ activation: inout PatchActivation) throws(PatchFailure) {
        for value in activation.arrivals("in") { activation.log(value) }
    }
}
