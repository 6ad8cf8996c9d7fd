import PatchbayCore
import PatchbayRecorder

/// Compares what a verifying replay's commands do with the recording, event by event as they
/// happen: the recorder that hears the replayed commands hands each event to `hear(_:)`, which
/// compares it (`==`) with the next effect recorded for the step and keeps the first that
/// differs.
final class ReplayVerifier {
    /// The effects of the step being run that are still to come; `nil` between steps (and
    /// during a setup step), when events are not compared.
    private var pending: ArraySlice<RecordedEvent>?
    /// Whether the recorded effects end the step's effects; not when damage cut them, and
    /// the step may do more.
    private var isComplete = true
    /// The first event of the step that differs from the recording, and the effect recorded
    /// in its place (`nil` when the recording has no more).
    private var mismatch: (expected: SessionEvent?, actual: SessionEvent)?

    /// Starts comparing the events of `step` with the effects recorded for it.
    func begin(_ step: RecordedCommand) {
        pending = step.effects[...]
        isComplete = !step.isCut
        mismatch = nil
    }

    /// Compares an event of the step being run with the next recorded effect.
    func hear(_ event: SessionEvent) {
        if case .command = event { return }
        guard var pending, mismatch == nil else { return }
        guard let expected = pending.popFirst() else {
            if isComplete { mismatch = (nil, event) }
            return
        }
        if expected.event == event {
            self.pending = pending
        } else {
            mismatch = (expected.event, event)
        }
    }

    /// Ends the step: its first difference from the recording, if it has one (an effect
    /// recorded and not done has no actual event).
    func end() -> (expected: SessionEvent?, actual: SessionEvent?)? {
        defer { pending = nil }
        if let mismatch { return (mismatch.expected, mismatch.actual) }
        if let effect = pending?.first { return (effect.event, nil) }
        return nil
    }
}

extension ReplayVerifier: SessionEventReceiver {
    func receive(_ event: SessionEvent) {
        hear(event)
    }

    func receiveAction(_ step: StoreStep, hash: StateDigest) {
        hear(.action(SessionAction(step, hash: hash)))
    }
}
