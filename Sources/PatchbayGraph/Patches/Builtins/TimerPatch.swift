@_spi(Shell) import PatchbayCore

extension PatchType {
    /// `timer`: `tick` counts up every `ms` of virtual time, from the patch's creation.
    static let timer = PatchType(
        name: "timer", summary: "tick counts up by one every ms virtual milliseconds",
        inputs: [], outputs: ["tick"],
        parameters: [.init(name: "ms", summary: "the period in virtual milliseconds", isCode: false, defaultValue: nil)]
    ) { arguments throws(PatchTypeError) in
        let ms = try arguments.integer("ms")
        guard ms > 0 else { throw .invalidParameter("ms", "must be at least 1") }
        guard ms <= VirtualClock.maximumDelay else {
            throw .invalidParameter("ms", "must be at most \(VirtualClock.maximumDelay), the longest wait of the virtual clock")
        }
        return PatchDesign(inputs: [], outputs: ["tick"], initialOutputs: ["tick": 0], behavior: TimerBehavior(period: ms))
    }
}

final class TimerBehavior: PatchBehavior {
    let period: Int
    private var count = 0

    init(period: Int) { self.period = period }

    func activate(_ activation: inout PatchActivation) throws(PatchFailure) {}

    func start(_ patch: PatchNode) {
        start(patch, at: patch.engine.clock.now + period)
    }

    func sets(_ purpose: PendingTimer.Purpose) -> Bool {
        if case .period = purpose { true } else { false }
    }

    func setAgain(_ purpose: PendingTimer.Purpose, at due: Int, in patch: PatchNode) {
        guard case .period(let count) = purpose else { return }
        self.count = count
        // The tick it sent last, which a patch made again by a script has not sent.
        if count > 0 { patch.output("tick")?.value = .int(count) }
        start(patch, at: due)
    }

    /// Sets the timer of the next tick, at `due`.
    private func start(_ patch: PatchNode, at due: Int) {
        patch.engine.setTimer(at: due, owner: patch, period: period, purpose: .period(count: count)) { [weak self, unowned patch] in
            guard let self else { return }
            count += 1
            let value = Value.int(count)
            patch.engine.runTransaction {
                if let tick = patch.output("tick") { patch.emitAll([(tick, value)], cause: Cause("tick"), .change) }
            }
            start(patch)
        }
    }

    func saved() -> (() -> Void)? {
        { [self, count] in self.count = count }
    }
}
