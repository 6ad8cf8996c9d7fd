@_spi(Shell) import PatchbayCore

extension PatchType {
    /// `tap`: fired by `tap VIEW X Y` on the view wired into `view`; emits the point relative to
    /// the view's frame, both outputs together (Wolf's TapPatch, without its half-updated point).
    static let tap = PatchType(
        name: "tap", summary: "x, y = where `tap VIEW X Y` hit the view wired into view",
        inputs: ["view"], outputs: ["x", "y"]
    ) { _ throws(PatchTypeError) in
        // `view` only attaches the tap, so the tap may drive its view's own inputs (Wolf).
        PatchDesign(inputs: ["view"], outputs: ["x", "y"], attachingInputs: ["view"], behavior: TapBehavior())
    }
}

final class TapBehavior: PatchBehavior {
    func activate(_ activation: inout PatchActivation) throws(PatchFailure) {}
}
