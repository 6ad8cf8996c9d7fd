@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory

/// Compares what a verifying replay's step did with what the recording says it did: the
/// events the step's command made (taken from the replay's recorder when the command ends)
/// against the effects recorded after the command, in order, by `==`.
enum ReplayVerifier {
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
            if want != got, !Self.matches(want, got) { return (want, got) }
        }
        return nil
    }

    /// Whether `replayed` is the step `recorded` records, but for what a replay cannot repeat:
    /// - where it was dispatched (its `site`): a replay dispatches each top-level action of an
    ///   app's recording from the shell, and a hosted store's middleware, or an app that calls
    ///   `Recorder.record` itself, may dispatch the others from another line than the recording's;
    ///   what is verified is what the reducers do;
    /// - its change, for a step recorded without one (an app's recording that keeps actions and
    ///   checkpoints only): the same action at the same place, whatever it changed. Its
    ///   checkpoints check the states.
    private static func matches(_ recorded: SessionEvent?, _ replayed: SessionEvent?) -> Bool {
        guard case .action(var recorded, let recordedHash)? = recorded, case .action(let replayed, let replayedHash)? = replayed else { return false }
        recorded.site = replayed.site
        guard recorded.unrecorded else { return recorded == replayed && recordedHash == replayedHash }
        recorded.changes = replayed.changes
        recorded.unrecorded = replayed.unrecorded
        return recorded == replayed
    }
}
