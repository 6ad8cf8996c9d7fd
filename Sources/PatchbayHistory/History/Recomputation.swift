@_spi(Shell) public import PatchbayCore
@_spi(Shell) public import PatchbayRecorder

/// What `skip` or `unskip` did to the states after the action.
@_spi(Shell)
public struct Recomputation: Sendable, Equatable {
    /// How many of the states from the action's on now differ (by `==`) from what they were.
    public var changedStates: Int
    /// The state at `current`, the store's new state.
    public var state: Value
    /// The index of the first step recomputed (the action skipped or unskipped).
    public var firstStep: Int
    /// What each step from `firstStep` to the last now does, in order: a skipped step changes
    /// nothing. Empty when nothing was recomputed (skipping an action that changed nothing).
    /// A recording carries these, so that a reader rebuilds the same states without reducers.
    public var steps: [Reduction]
    /// The first step whose state now differs, if any.
    public var firstChanged: Int?

    /// A recomputation's outcome.
    public init(changedStates: Int, state: Value, firstStep: Int = 0, steps: [Reduction] = [], firstChanged: Int? = nil) {
        self.changedStates = changedStates
        self.state = state
        self.firstStep = firstStep
        self.steps = steps
        self.firstChanged = firstChanged
    }
}

extension RecomputedStep {
    /// What each step of `recomputation` now does, as a recording carries it (with a skip or a
    /// recompute), so that a reader rebuilds the same states without reducers.
    @_spi(Shell) public static func steps(of recomputation: Recomputation) -> [RecomputedStep] {
        recomputation.steps.enumerated().map { offset, step in
            RecomputedStep(index: recomputation.firstStep + offset, changes: JSONPatch.operations(step.changes), failure: step.failure)
        }
    }
}
