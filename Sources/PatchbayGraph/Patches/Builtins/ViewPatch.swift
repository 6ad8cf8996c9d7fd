@_spi(Shell) import PatchbayCore

extension PatchType {
    /// `view`: a rectangle on the canvas `render` draws (Wolf's ViewPatch).
    static let view = PatchType(
        name: "view", summary: "frame = {x, y, width, height, text}; render draws it",
        inputs: ["x", "y", "width", "height", "text"], outputs: ["frame"],
        parameters: [
            .init(name: "x", summary: "column of the left edge", isCode: false, defaultValue: 0),
            .init(name: "y", summary: "row of the top edge", isCode: false, defaultValue: 0),
            .init(name: "width", summary: "width in columns", isCode: false, defaultValue: 12),
            .init(name: "height", summary: "height in rows", isCode: false, defaultValue: 3),
            .init(name: "text", summary: "the text inside", isCode: false, defaultValue: ""),
        ]
    ) { arguments throws(PatchTypeError) in
        let frame = ViewBehavior.frame { arguments.values[$0] }
        return PatchDesign(inputs: ViewBehavior.inputs, outputs: ["frame"], initialOutputs: ["frame": frame],
                           behavior: ViewBehavior())
    }
}

final class ViewBehavior: PatchBehavior {
    static let inputs = ["x", "y", "width", "height", "text"]

    static func frame(_ value: (String) -> Value?) -> Value {
        var frame = Value.Members()
        for name in inputs { frame[name] = value(name) ?? .null }
        return .object(frame)
    }

    func activate(_ activation: inout PatchActivation) throws(PatchFailure) {
        activation.emit("frame", Self.frame { activation.value($0) })
    }
}
