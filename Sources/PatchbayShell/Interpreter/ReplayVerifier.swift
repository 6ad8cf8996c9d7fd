import PatchbayCore
import PatchbayRecorder

/// Compares what a verifying replay's commands do with the recording, event by event as they
/// happen: the recorder that hears the replayed commands hands each event to `hear(_:)` (each
/// action to `hearAction(_:hash:)`, from its step), which matches it with the next effect
/// recorded for the step (see `SessionScript.matches`) and keeps the first that differs.
/// Nothing is kept of the events that match.
final class ReplayVerifier {
    /// The recorded commands and effects (see `ReplayRun.script`).
    var script: SessionScript
    /// The effects of the step being run that are still to come; `nil` between steps, when
    /// events are not compared.
    private var pending: Range<Int>?
    /// The first event of the step that differs from the recording, and the effect recorded
    /// in its place (`nil` when the recording has no more).
    private var mismatch: (expected: SessionEvent?, actual: SessionEvent)?
    /// Working space for comparing events with the recorded lines.
    private var scratch: [UInt8] = []

    init(script: SessionScript) {
        self.script = script
    }

    /// Starts comparing the events of step `index` (0-based) with its recorded effects.
    func begin(step index: Int) {
        pending = script.effects(ofCommand: index)
        mismatch = nil
    }

    /// Compares an event of the step being run with the next recorded effect.
    func hear(_ event: SessionEvent) {
        if case .command = event { return }
        compare(event) { script, effect, scratch in script.matches(event, effect: effect, scratch: &scratch) }
    }

    /// Compares the action of `step` with the next recorded effect, without making its
    /// `SessionAction` unless they differ.
    func hearAction(_ step: StoreStep, hash: StateDigest) {
        compare(.action(SessionAction(step, hash: hash))) { script, effect, scratch in
            script.matches(step, hash: hash, effect: effect, scratch: &scratch)
        }
    }

    /// Matches an event (made only when it differs) with the next recorded effect.
    private func compare(_ event: @autoclosure () -> SessionEvent, matching: (SessionScript, Int, inout [UInt8]) -> Bool) {
        guard let pending, mismatch == nil else { return }
        guard let effect = pending.first else {
            mismatch = (nil, event())
            return
        }
        if matching(script, effect, &scratch) {
            self.pending = pending.dropFirst()
        } else {
            mismatch = (script.event(ofEffect: effect), event())
        }
    }

    /// Ends the step: its first difference from the recording, if it has one (an effect
    /// recorded and not done has no actual event).
    func end() -> (expected: SessionEvent?, actual: SessionEvent?)? {
        defer { pending = nil }
        if let mismatch { return (mismatch.expected, mismatch.actual) }
        if let effect = pending?.first { return (script.event(ofEffect: effect), nil) }
        return nil
    }
}

extension ReplayVerifier: SessionEventReceiver {
    func receive(_ event: SessionEvent) {
        hear(event)
    }

    func receiveAction(_ step: StoreStep, hash: StateDigest) {
        hearAction(step, hash: hash)
    }
}
