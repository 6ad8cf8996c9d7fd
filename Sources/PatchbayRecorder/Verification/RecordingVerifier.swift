@_spi(Shell) public import PatchbayCore

/// The one verifier of a store's recorded run: it follows the store's lines of a recording
/// (its actions, with or without their patches, and its checkpoints) and checks the states a
/// replay makes against the states the recording holds. `RecordedSession.verify` (the test
/// API, replaying through the app's typed reducer) and the shell's `replay --verify` (an app's
/// recording replayed through a hosted store) both check their states with it, and
/// `RecordedSession` finds the damage after a divergence with it too, so that what a recording
/// says and when a replay disagrees with it is decided in one place.
///
/// The rule: an action line that holds its patch gives the state after it (the state before,
/// patched), which the replay's state must equal; an action line without its patch (an app's
/// recording that keeps actions and checkpoints only) leaves the state unknown until the next
/// checkpoint, which gives it. A checkpoint that disagrees with a state the patches before it
/// give is damage, at its line: the file contradicts itself.
@_spi(Shell)
public struct RecordingVerifier: Sendable {
    /// The store whose lines this verifier follows.
    public let store: String
    /// The index of the last action followed.
    public private(set) var index: Int
    /// The index of the last state a replay's state was checked against.
    public private(set) var verified: Int
    /// The recorded state after action `index`, while the file tells it: `nil` after an action
    /// line without its patch, until the next checkpoint, and after the store travels in time.
    public private(set) var expected: Value?

    /// Follows a store recorded in `state` after action `index` (0 for a store line).
    public init(store: String, state: Value, index: Int = 0) {
        self.store = store
        self.index = index
        verified = index
        expected = state
    }

    /// Follows `step`, the action line at `line`: the state after it is the recorded state
    /// patched, or unknown when the line holds no patch (or the state before it was unknown).
    /// Throws when its patch does not apply, which is damage at its line.
    public mutating func follow(_ step: StoreStep<JSONPatch.Operation>, line: Int) throws(RecordingDamage) {
        index = step.index
        guard let patch = step.recordedChanges, var state = expected else {
            expected = nil
            return
        }
        // Released first, so that the patch changes the only copy in place.
        expected = nil
        do throws(JSONPatchError) { _ = try JSONPatch.apply(patch, to: &state) } catch {
            throw RecordingDamage(line: line, message: "action #\(step.index) of \(store): \(error.description)")
        }
        expected = state
    }

    /// Follows the checkpoint at `line`, the recorded state after action `index`. Throws when
    /// the patches before it give another state: damage at its line. (Where a checkpoint may
    /// stand is the reader's to say; one of another action than the last followed, after the
    /// store traveled in time, gives the state there.)
    /// - Returns: whether it tells a state the patches did not (so that a replay's state is
    ///   checked against it: `check(_:)`).
    @discardableResult
    public mutating func follow(checkpoint state: Value, index: Int, line: Int) throws(RecordingDamage) -> Bool {
        if let expected, index == self.index {
            guard expected == state else { throw RecordingDamage(line: line, message: SessionEvent.checkpointDamage(index, of: store)) }
            return false
        }
        self.index = index
        expected = state
        return true
    }

    /// Whether `actual`, the state a replay made after action `index`, is the recorded one
    /// (always, while the recorded state is unknown: nothing is checked). When it is, it is
    /// the state verified so far, and the recorded state shares its storage from then on.
    public mutating func check(_ actual: Value) -> Bool {
        guard let expected else { return true }
        guard expected == actual else { return false }
        self.expected = actual
        verified = index
        return true
    }

    /// Starts again from `state` after action `index` (a store line, a reset), or from a state
    /// the recording does not give (`nil`: after a jump, a skip or a branch, until the next
    /// checkpoint).
    public mutating func restart(from state: Value?, index: Int) {
        self.index = index
        verified = index
        expected = state
    }
}

/// A place where a recording contradicts itself: a patch that does not apply, a checkpoint
/// the patches before it disagree with.
@_spi(Shell)
public struct RecordingDamage: Error, Sendable, Equatable {
    /// The file's line.
    public var line: Int
    /// What is wrong there.
    public var message: String
}
