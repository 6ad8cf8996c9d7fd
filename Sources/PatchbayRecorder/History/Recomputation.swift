public import PatchbayCore

/// What `skip` or `unskip` did to the states after the action.
public struct Recomputation: Sendable, Equatable {
    /// How many of the states from the action's on now differ (by `==`) from what they were.
    public var changedStates: Int
    /// The state at `current`, the store's new state.
    public var state: Value

    /// A recomputation's outcome.
    public init(changedStates: Int, state: Value) {
        self.changedStates = changedStates
        self.state = state
    }
}
