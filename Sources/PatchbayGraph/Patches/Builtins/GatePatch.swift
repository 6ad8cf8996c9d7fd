@_spi(Shell) import PatchbayCore

extension PatchType {
    /// `gate`: passes the values of `in` while `open` is true.
    static let gate = PatchType(
        name: "gate", summary: "passes the values of in while open is true",
        inputs: ["in", "open"], outputs: ["out"],
        parameters: [.init(name: "open", summary: "whether the gate starts open", isCode: false, defaultValue: false)]
    ) { _ throws(PatchTypeError) in
        PatchDesign(inputs: ["in", "open"], outputs: ["out"], behavior: GateBehavior())
    }
}

final class GateBehavior: PatchBehavior {
    func activate(_ activation: inout PatchActivation) throws(PatchFailure) {
        guard let value = activation.arrived("in") else { return }
        switch activation.value("open") {
        case .bool(true): activation.emit("out", value)
        case .bool(false), nil: return
        case let other?: throw PatchFailure("open must be a bool, not \(other.typeName)")
        }
    }
}
