@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayRecorder

/// How a verifying replay compares what a step did with what the recording says it did: the
/// events the step's command made (taken from the replay's recorder when the command ends)
/// against the effects recorded after the command, in order, by `==` but for where an action
/// was dispatched.
enum ReplayedEffects {
    /// The first difference between what was recorded and what the replay did, if any:
    /// `expected` is `nil` when the replay did more, `actual` when it did less. When damage
    /// cut the recorded effects short (`isComplete` false), doing more is no difference.
    static func firstDifference(expected: [SessionEvent], actual: [SessionEvent], isComplete: Bool = true)
        -> (expected: SessionEvent?, actual: SessionEvent?)?
    {
        let count = isComplete ? max(expected.count, actual.count) : expected.count
        for position in 0..<count {
            let want = position < expected.count ? expected[position] : nil
            let got = position < actual.count ? actual[position] : nil
            if want != got, !Self.differOnlyInSite(want, got) { return (want, got) }
        }
        return nil
    }

    /// Whether two action lines are the same step but for where it was dispatched (its
    /// `site`), which a replay cannot repeat: it dispatches each top-level action of an app's
    /// recording from the shell, and a hosted store's middleware, or an app that calls
    /// `Recorder.record` itself, may dispatch the others from another line than the
    /// recording's; what is verified is what the reducers do.
    private static func differOnlyInSite(_ recorded: SessionEvent?, _ replayed: SessionEvent?) -> Bool {
        guard case .action(var recorded, let recordedHash)? = recorded, case .action(let replayed, let replayedHash)? = replayed else {
            return false
        }
        recorded.site = replayed.site
        return recorded == replayed && recordedHash == replayedHash
    }

    /// The events of a step of an app's recording as they are matched line for line: without
    /// the states. An app records them as it chooses (every action's patch, or checkpoints on
    /// its own schedule); they are checked by the store's `RecordingVerifier` instead.
    static func withoutStates(_ events: [SessionEvent]) -> [SessionEvent] {
        events.compactMap { event in
            switch event {
            case .action(var step, _):
                step.changes = []
                step.unrecorded = false
                return .action(step, hash: nil)
            case .checkpoint:
                return nil
            default:
                return event
            }
        }
    }
}
