@_spi(Shell) import PatchbayCore

extension PatchType {
    /// `counter`: every arrival on `inc` adds one, on `dec` takes one away; `reset` sets 0.
    static let counter = PatchType(
        name: "counter", summary: "count = arrivals on inc minus arrivals on dec; reset sets 0",
        inputs: ["inc", "dec", "reset"], outputs: ["count"]
    ) { _ throws(PatchTypeError) in
        PatchDesign(inputs: ["inc", "dec", "reset"], outputs: ["count"], initialOutputs: ["count": 0],
                    mergingInputs: ["inc", "dec"], behavior: CounterBehavior())
    }
}

final class CounterBehavior: PatchBehavior {
    private var count = 0

    func activate(_ activation: inout PatchActivation) throws(PatchFailure) {
        if activation.arrived("reset") != nil { count = 0 }
        count += activation.arrivals("inc").count
        count -= activation.arrivals("dec").count
        activation.emit("count", .int(count))
    }

    func saved() -> (() -> Void)? {
        { [self, count] in self.count = count }
    }
}
