public import PatchbayCore

/// An action a store reduced, as an action line records it:
/// `{"seq":4,"kind":"action","store":"app","index":1,"action":{"type":"Increment","by":2},
/// "patch":[{"op":"replace","path":"/count","value":2}],"hash":"..."}`, followed when they
/// apply by `"failed"`, `"cause"` and `"reducer"`.
public struct SessionAction: Sendable, Equatable {
    /// The store's name.
    public var store: String
    /// The action's number on the store's timeline: 1 for the first; the state after it is
    /// state `index`.
    public var index: Int
    /// The action object, `{type: ..., ...}`.
    public var action: Value
    /// The operations that turn the state before the action into the state after it; empty
    /// for a failed action; `nil` when the recording holds no change for the step (an app's
    /// recording that keeps actions and checkpoints only: the state is known at the next
    /// checkpoint of the store).
    public var patch: [JSONPatch.Operation]?
    /// The digest of the state after the action; `nil` when a file does not give one.
    public var hash: StateDigest?
    /// Why the reducers failed, for a failed action (which changed nothing).
    public var failure: String?
    /// The index of the action during whose handling this one was dispatched, if any.
    public var cause: Int?
    /// For the step of an `after MS` reducer: that reducer's id (`r3`).
    public var delayedReducer: String?

    /// An action line's content.
    public init(store: String, index: Int, action: Value, patch: [JSONPatch.Operation]?, hash: StateDigest?,
                failure: String? = nil, cause: Int? = nil, delayedReducer: String? = nil) {
        self.store = store
        self.index = index
        self.action = action
        self.patch = patch
        self.hash = hash
        self.failure = failure
        self.cause = cause
        self.delayedReducer = delayedReducer
    }
}
