public import PatchbayCore

/// One action in a store's history, with what it changed.
public struct HistoryEntry: Sendable, Equatable {
    /// The action's number on its timeline: 1 for the first; state `index` is the state after it.
    public var index: Int
    /// The action object, `{type: ..., ...}`.
    public var action: Value
    /// What the action changed, in order; applied to state `index - 1` they give state `index`.
    /// Empty for a failed or skipped action.
    public var changes: [ValueChange]
    /// Why the reducers failed, if they did; a failed action changed nothing.
    public var failure: String?
    /// Whether `skip` turned the action off: it is kept but changes nothing.
    public var skipped: Bool
    /// The action during whose handling this one was dispatched, if any.
    public var cause: Int?
    /// For the step of an `after MS` reducer: the id of that reducer (`r3`), which alone runs
    /// when the step is recomputed.
    public var delayedReducer: String?
    /// Whether the recording the step was read from does not hold its own changes (an app's
    /// recording that keeps actions and checkpoints only): `changes` are empty, except at a
    /// step a checkpoint follows, which holds what all the unrecorded steps since the last
    /// known state changed. Recomputing the history (`history recompute`) finds each step's own.
    public var unrecorded: Bool

    public init(index: Int, action: Value, changes: [ValueChange], failure: String? = nil, skipped: Bool = false,
                cause: Int? = nil, delayedReducer: String? = nil, unrecorded: Bool = false) {
        self.index = index
        self.action = action
        self.changes = changes
        self.failure = failure
        self.skipped = skipped
        self.cause = cause
        self.delayedReducer = delayedReducer
        self.unrecorded = unrecorded
    }

    /// The action's `type`, or `?` for an action without a string type.
    public var type: String {
        if case .string(let type)? = action["type"] { return type }
        return "?"
    }

    /// Whether the action changed `path`, something inside it, or something containing it.
    public func touches(_ path: [ValueChange.PathComponent]) -> Bool {
        changes.contains { change in
            change.path.starts(with: path) || path.starts(with: change.path)
        }
    }
}
