@_spi(Shell) public import PatchbayCore

/// What running the reducers for one action gave, when `skip` or `unskip` recomputes a step.
@_spi(Shell)
public struct Reduction: Sendable, Equatable {
    /// The changes the action made, in order; empty when it failed.
    public var changes: [ValueChange]
    /// Why the reducers failed, if they did; the state is then left as it was.
    public var failure: String?

    /// A reduction: `changes` when it succeeded, a `failure` (and no changes) when it did not.
    public init(changes: [ValueChange], failure: String? = nil) {
        self.changes = changes
        self.failure = failure
    }
}
