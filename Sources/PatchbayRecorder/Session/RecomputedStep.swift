@_spi(Shell) import PatchbayCore

/// What a step of a store's history does now that a skip, an unskip or a recompute ran it again,
/// in the `recomputed` list of that line: `{"index":3,"patch":[...],"hash":"...","failed":"..."}`.
///
/// Not a `StoreStep` of its own: the step, with its action and cause, is the one recorded
/// earlier; this is its new outcome, with the same field names (its `changes` are the line's
/// `patch`).
@_spi(Shell)
public struct RecomputedStep: Sendable, Equatable {
    /// The step's action number on the store's timeline.
    public var index: Int
    /// The operations that now turn the state before the step into the state after it (empty
    /// for a step that is skipped or fails).
    public var changes: [JSONPatch.Operation]
    /// The digest of the state after the step; `nil` when the line does not give one.
    public var hash: StateDigest?
    /// Why the step's reducers now fail, if they do.
    public var failure: String?

    /// A recomputed step.
    public init(index: Int, changes: [JSONPatch.Operation], hash: StateDigest? = nil, failure: String? = nil) {
        self.index = index
        self.changes = changes
        self.hash = hash
        self.failure = failure
    }
}
