public import PatchbayCore

/// What a `SessionRecorder` can record into besides a sink: something that takes an action
/// straight from its store step, without the `SessionAction` (and its patch operations) being
/// made. A `SessionWriter` writes the action's line; a verifying replay compares that line with
/// the recording.
package protocol SessionEventReceiver: AnyObject {
    /// Takes an event.
    func receive(_ event: SessionEvent) throws(SessionError)
    /// Takes the action of `step`, whose state after has digest `hash`: what
    /// `receive(.action(SessionAction(step, hash: hash)))` would take.
    func receiveAction(_ step: StoreStep, hash: StateDigest) throws(SessionError)
}

extension SessionWriter: SessionEventReceiver {
    package func receive(_ event: SessionEvent) throws(SessionError) {
        try write(event)
    }

    package func receiveAction(_ step: StoreStep, hash: StateDigest) throws(SessionError) {
        try write(.action(SessionAction(step, hash: hash)))
    }
}

extension SessionAction {
    /// The action of `step`, whose state after has digest `hash`, as its line records it.
    public init(_ step: StoreStep, hash: StateDigest) {
        self.init(store: step.store, index: step.index, action: step.action, patch: JSONPatch.operations(step.changes), hash: hash,
                  failure: step.failure, cause: step.cause, delayedReducer: step.reducer)
    }
}
