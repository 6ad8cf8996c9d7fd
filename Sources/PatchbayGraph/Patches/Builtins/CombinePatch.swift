@_spi(Shell) import PatchbayCore

extension PatchType {
    /// `combine`: one object of all inputs, once every input has a value.
    static let combine = PatchType(
        name: "combine", summary: "out = {input: value, ...} once every input has a value",
        inputs: ["a", "b"], outputs: ["out"],
        parameters: [.init(name: "inputs", summary: "the input names", isCode: false, defaultValue: ["a", "b"])]
    ) { arguments throws(PatchTypeError) in
        guard case .array(let names) = arguments.value("inputs"), !names.isEmpty else {
            throw .invalidParameter("inputs", "must be a non-empty array of names, such as [\"x\", \"y\"]")
        }
        var inputs: [String] = []
        for case .string(let name) in names where !inputs.contains(name) { inputs.append(name) }
        guard inputs.count == names.count, inputs.allSatisfy(PatchType.isPortName) else {
            throw .invalidParameter("inputs", "must hold distinct names such as \"x\" (letters, digits, _)")
        }
        return PatchDesign(inputs: inputs, outputs: ["out"], behavior: CombineBehavior(inputs: inputs))
    }

    static func isPortName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first.isNameStart else { return false }
        return name.utf8.allSatisfy(\.isNameContinuation)
    }
}

final class CombineBehavior: PatchBehavior {
    let inputs: [String]

    init(inputs: [String]) { self.inputs = inputs }

    func activate(_ activation: inout PatchActivation) throws(PatchFailure) {
        var object = Value.Members()
        for name in inputs {
            guard let value = activation.value(name) else { return }
            object[name] = value
        }
        activation.emit("out", .object(object))
    }
}
