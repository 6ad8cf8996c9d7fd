@_spi(Shell) import PatchbayCore

extension PatchType {
    /// `delay`: each value of `in` reaches `out` after `ms` of virtual time.
    static let delay = PatchType(
        name: "delay", summary: "out = each value of in, ms virtual milliseconds later",
        inputs: ["in"], outputs: ["out"],
        parameters: [.init(name: "ms", summary: "the delay in virtual milliseconds", isCode: false, defaultValue: nil)]
    ) { arguments throws(PatchTypeError) in
        let ms = try arguments.integer("ms")
        guard ms >= 0 else { throw .invalidParameter("ms", "must not be negative") }
        guard ms <= VirtualClock.maximumDelay else {
            throw .invalidParameter("ms", "must be at most \(VirtualClock.maximumDelay), the longest wait of the virtual clock")
        }
        return PatchDesign(inputs: ["in"], outputs: ["out"], behavior: DelayBehavior(milliseconds: ms))
    }
}

final class DelayBehavior: PatchBehavior {
    let milliseconds: Int

    init(milliseconds: Int) { self.milliseconds = milliseconds }

    func activate(_ activation: inout PatchActivation) throws(PatchFailure) {
        guard let value = activation.arrived("in") else { return }
        let patch = activation.patch
        send(value, at: patch.engine.clock.now + milliseconds, from: patch, cause: patch.input("in")?.cause)
    }

    func sets(_ purpose: PendingTimer.Purpose) -> Bool {
        if case .delay = purpose { true } else { false }
    }

    func setAgain(_ purpose: PendingTimer.Purpose, at due: Int, in patch: PatchNode) {
        guard case .delay(let value) = purpose else { return }
        send(value, at: due, from: patch, cause: nil)
    }

    /// Sends `value` out of `out` when the clock reaches `due`.
    private func send(_ value: Value, at due: Int, from patch: PatchNode, cause: Cause?) {
        patch.engine.setTimer(at: due, owner: patch, purpose: .delay(value)) { [unowned patch] in
            patch.engine.runTransaction {
                if let out = patch.output("out") { patch.emitAll([(out, value)], cause: cause, .change) }
            }
        }
    }
}
