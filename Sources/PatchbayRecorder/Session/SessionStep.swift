import PatchbayCore

/// A step of a store's history as a skip (or unskip) recomputed it, in a skip line's
/// `recomputed` list: `{"index":3,"patch":[...],"hash":"...","failed":"..."}`.
public struct SessionStep: Sendable, Equatable {
    /// The step's action number on the store's timeline.
    public var index: Int
    /// The operations that now turn the state before the step into the state after it (empty
    /// for a step that is skipped or fails).
    public var patch: [JSONPatch.Operation]
    /// The digest of the state after the step; `nil` when the line does not give one.
    public var hash: StateDigest?
    /// Why the step's reducers now fail, if they do.
    public var failure: String?

    /// A recomputed step.
    public init(index: Int, patch: [JSONPatch.Operation], hash: StateDigest? = nil, failure: String? = nil) {
        self.index = index
        self.patch = patch
        self.hash = hash
        self.failure = failure
    }
}
