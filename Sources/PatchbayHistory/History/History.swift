@_spi(Shell) public import PatchbayCore

/// The whole history of one store (the shell's time travel): its initial state (state 0) and every
/// action, action `i` leading to state `i`, on one or more timelines.
///
/// - Memory per step does not grow with the state: each step keeps its action and its changes
///   (old and new values, so that replays go both ways) in a compact binary form, and full states
///   are kept only at checkpoints, about as many steps apart as the state has leaves.
/// - Any state is replayed from the nearest checkpoint or from the caller's live state.
/// - Recording while not at the end forks a new branch (`b1`, `b2`, ...); the old timeline keeps
///   its future. Branches share the steps before their fork.
///
/// A history is used from one isolation domain, like the store it records.
@_spi(Shell)
public final class History {
    /// The store's name, which error messages begin with.
    public let store: String
    /// The state before the first action of every timeline.
    public internal(set) var initial: Value
    /// The index of the current state, 0...count.
    public internal(set) var current = 0

    /// Every timeline, in creation order; the first is `main`.
    package var timelines: [Timeline]
    /// The position of the current branch in `timelines`.
    var selected = 0
    /// How many branches have been forked, for the next branch's name.
    var forks = 0
    /// How many times steps already recorded were changed (skips, sweeps, commits, reverts):
    /// a `Mark` taken before one is rolled back to only through what its undo kept.
    package var rewrites = 0
    /// The undo of the marks held now, if any (see `Mark`).
    weak var openUndo: RewriteUndo?

    /// A history with no actions yet. `store` names the store in error messages.
    public init(initial: Value, store: String = "the store") {
        self.store = store
        self.initial = initial
        timelines = [Timeline(name: "main", initial: initial)]
    }

    /// How many actions the current timeline has.
    public var count: Int { timelines[selected].count }

    /// The current branch's name.
    public var branch: String { timelines[selected].name }

    /// Records the step handled at `current + 1`, whose state is `state`: a step a store
    /// reports, on every dispatch, or one read from a recording. Its bytes are written straight
    /// from it (borrowed, so that the code cannot copy it without saying so).
    ///
    /// `step.index` must be `current + 1`, or this throws `.outOfOrder`. When `current < count`,
    /// the history first forks a new branch from the current state, which becomes the current
    /// branch (the old timeline keeps its name and its future); the new branch's name is returned
    /// then, `nil` otherwise. Afterwards `current == step.index == count`.
    ///
    /// `state` is kept only when a checkpoint is due: the store can go on changing its state in
    /// place without copying it.
    @discardableResult
    public func record(_ step: borrowing StoreStep<ValueChange>, after state: Value) throws(HistoryError) -> String? {
        try record(index: step.index, after: state) { writer in
            StepRecord.write(step, positions: nil, to: &writer)
        }
    }

    /// Records the action handled at `index`, whose record `write` writes (see `StepLog.append`).
    ///
    /// Always inlined, as are the appends it calls, so that `write` is inlined too and reads the
    /// parts of the step in place: a closure passed on is specialized with a copy of what it
    /// captures, which for a step costs as much as writing it.
    @inline(__always)
    private func record(index: Int, after state: Value, _ write: (inout ByteWriter) -> Bool) throws(HistoryError) -> String? {
        guard index == current + 1 else {
            throw .outOfOrder(store: store, expected: current + 1, got: index)
        }
        var forkName: String?
        if current < count {
            forks += 1
            let name = "b\(forks)"
            timelines.append(timelines[selected].forked(at: current, name: name))
            selected = timelines.count - 1
            forkName = name
        }
        timelines[selected].append(after: state, write)
        current = index
        return forkName
    }

    /// The step of action `index` (1...count) on the current timeline.
    public func entry(_ index: Int) throws(HistoryError) -> StoreStep<ValueChange> {
        try checkAction(index)
        return timelines[selected].steps.record(at: index).step(store: store)
    }

    /// The entries of the actions in `range` (within 1...count), in order. Only those are decoded,
    /// so the last few of a long history come at once.
    public func entries(_ range: ClosedRange<Int>) throws(HistoryError) -> [StoreStep<ValueChange>] {
        try checkAction(range.lowerBound)
        try checkAction(range.upperBound)
        let steps = timelines[selected].steps
        return range.map { steps.record(at: $0).step(store: store) }
    }

    func checkAction(_ index: Int) throws(HistoryError) {
        guard (1...max(1, count)).contains(index), count > 0 else {
            throw .noSuchAction(store: store, index: index, count: count)
        }
    }

    func checkState(_ index: Int) throws(HistoryError) {
        guard (0...count).contains(index) else { throw .noSuchState(store: store, index: index, count: count) }
    }

    /// The error for a step whose changes did not apply.
    func inconsistency(_ failure: StepFailure) -> HistoryError {
        .inconsistent(store: store, index: failure.index, reason: failure.reason)
    }
}
