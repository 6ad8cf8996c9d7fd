/// One action handled by a store, as its observers (the history, the recorder) see it: every
/// kind of store (a shell store, a hosted store) reports its actions in this one form.
public struct StoreStep: Sendable, Equatable {
    public var store: String
    /// The action's number in the store: 1 for the first.
    public var index: Int
    public var action: Value
    /// What the reducers changed, at the deepest paths, in the order they first changed them;
    /// applied in order to the state before, they give the state after.
    public var changes: [ValueChange]
    /// Why the action failed; a failed action changed nothing.
    public var failure: String?
    /// The action whose handling dispatched this one, if any.
    public var cause: Int?
    /// For an `after MS` reducer's step: the action it belongs to.
    public var delayedFrom: Int?
    /// For an `after MS` reducer's step: the reducer's id.
    public var reducer: String?
    /// Whether the step was read from a recording that does not hold its changes (an app's
    /// recording that keeps actions and checkpoints only): `changes` are not its own.
    package var unrecorded = false

    public init(store: String, index: Int, action: Value, changes: [ValueChange], failure: String? = nil, cause: Int? = nil,
                delayedFrom: Int? = nil, reducer: String? = nil) {
        self.store = store
        self.index = index
        self.action = action
        self.changes = changes
        self.failure = failure
        self.cause = cause
        self.delayedFrom = delayedFrom
        self.reducer = reducer
    }
}
