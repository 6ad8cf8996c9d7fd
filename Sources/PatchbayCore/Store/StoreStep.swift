/// One action a store handled: the one description of a step, from the store that makes it to
/// the history that keeps it, the recorder that writes it and the reader that reads it back.
///
/// A step's changes take one of two forms, hence the generic parameter: `ValueChange`s (paths
/// and the values before and after), as a store makes them and a history keeps them; or, in a
/// session file, the RFC 6902 operations they are written as (`JSONPatch.Operation` in
/// PatchbayRecorder), which say only the value after, and whose paths need the state before to
/// tell an array's index from an object's key. Reading a file's step against the state before
/// turns it into the first form.
@_spi(Shell)
public struct StoreStep<Change: Sendable & Equatable>: Sendable, Equatable {
    /// The store's name.
    public var store: String
    /// The action's number on the store's timeline: 1 for the first; the state after it is
    /// state `index`.
    public var index: Int
    /// The action object, `{type: ..., ...}`, after middleware.
    public var action: Value
    /// What the reducers changed, at the deepest paths, in the order they first changed them;
    /// applied in order to the state before, they give the state after. Empty for a failed or
    /// skipped step.
    public var changes: [Change]
    /// Why the reducers failed, for a failed step (which changed nothing).
    public var failure: String?
    /// The action during whose handling this one was dispatched, if any (a dispatch from a
    /// subscriber, a middleware or a wire; for a delayed reducer's step, the action it belongs to).
    public var cause: Int?
    /// For the step of an `after MS` reducer: that reducer's id (`r3`), which alone runs when the
    /// step is recomputed; its action is `cause`'s.
    public var delayedReducer: String?
    /// Whether `skip` turned the step off: it is kept but changes nothing.
    public var skipped: Bool
    /// Whether the step was read from a recording that does not hold its changes (an app's
    /// recording that keeps actions and checkpoints only): its `changes` are not its own. In a
    /// history they are empty, except at a step a checkpoint follows, which holds what all the
    /// unrecorded steps since the last known state changed; recomputing the history finds each
    /// step's own.
    public var unrecorded: Bool
    /// Where the action came from, when known: the line of the app that dispatched it (kept by
    /// a recording), or the shell's command or wire (kept by the history only).
    public var site: ActionSite?

    public init(store: String, index: Int, action: Value, changes: [Change], failure: String? = nil, cause: Int? = nil,
                delayedReducer: String? = nil, skipped: Bool = false, unrecorded: Bool = false, site: ActionSite? = nil) {
        self.store = store
        self.index = index
        self.action = action
        self.changes = changes
        self.failure = failure
        self.cause = cause
        self.delayedReducer = delayedReducer
        self.skipped = skipped
        self.unrecorded = unrecorded
        self.site = site
    }

    /// The action's `type`, or `?` for an action without a string type.
    public var type: String {
        if case .string(let type)? = action["type"] { return type }
        return "?"
    }

    /// The step's own changes, or `nil` for an unrecorded step.
    public var recordedChanges: [Change]? { unrecorded ? nil : changes }

    /// The same step with its changes in another form.
    public func withChanges<Other>(_ changes: [Other]) -> StoreStep<Other> {
        StoreStep<Other>(store: store, index: index, action: action, changes: changes, failure: failure, cause: cause,
                         delayedReducer: delayedReducer, skipped: skipped, unrecorded: unrecorded, site: site)
    }
}

extension StoreStep where Change == ValueChange {
    /// Whether the step changed `path`, something inside it, or something containing it.
    public func touches(_ path: [ValueChange.PathComponent]) -> Bool {
        changes.contains { change in
            change.path.starts(with: path) || path.starts(with: change.path)
        }
    }
}
