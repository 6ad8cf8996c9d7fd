@_spi(Shell) public import PatchbayCore

extension History {
    /// The state at `index` (0...count) on the current timeline.
    ///
    /// `current` is the caller's live state, the state at `self.current` (the store's state):
    /// the replay starts from it when it is nearer than any checkpoint.
    public func state(at index: Int, current live: Value) throws(HistoryError) -> Value {
        try checkState(index)
        do throws(StepFailure) {
            return try timelines[selected].state(at: index, live: live, liveIndex: current)
        } catch {
            throw inconsistency(error)
        }
    }

    /// Makes `index` (0...count) the current state and returns it; `current` is the caller's live
    /// state, as for `state(at:current:)`.
    public func jump(to index: Int, current live: Value) throws(HistoryError) -> Value {
        let state = try state(at: index, current: live)
        current = index
        return state
    }

    /// The structural changes from state `a` to state `b` (either may be the later one), as
    /// `Value.changes(to:)` gives them.
    ///
    /// States a few steps apart (no more than a checkpoint interval, about the state's leaves)
    /// are compared only where those steps changed something, and the later one is the earlier
    /// with their changes: what one action did to a large state costs what the action changed.
    public func diff(from a: Int, to b: Int, current live: Value) throws(HistoryError) -> [ValueChange] {
        try checkState(a)
        try checkState(b)
        let (low, high) = (Swift.min(a, b), Swift.max(a, b))
        let timeline = timelines[selected]
        guard high - low <= timeline.interval else {
            return try state(at: a, current: live).changes(to: state(at: b, current: live))
        }
        var paths = ChangedPaths()
        if low < high {
            for index in low + 1...high {
                var changes = ChangeReader(step: timeline.steps.reader(at: index), values: .neither)
                while changes.next() { paths.insert(changes.path[...]) }
            }
        }
        let earlier = try state(at: low, current: live)
        var later = earlier
        if high == current {
            later = live
        } else {
            do throws(StepFailure) { try timeline.forward(&later, from: low, to: high) } catch { throw inconsistency(error) }
        }
        return a <= b ? earlier.changes(to: later, within: paths) : later.changes(to: earlier, within: paths)
    }

    /// Calls `body` with every state 0...count of the current timeline in order, with the entry
    /// that led to it (`nil` for state 0), until `body` returns `false`. The states are
    /// materialized by one walk forward. A step whose changes do not apply (which `state(at:)`
    /// reports as `.inconsistent`) is walked with them left out.
    public func walk<E: Error>(_ body: (_ index: Int, _ entry: StoreStep<ValueChange>?, _ state: Value) throws(E) -> Bool) throws(E) {
        let steps = timelines[selected].steps
        var state = initial
        guard try body(0, nil, state) else { return }
        guard steps.count > 0 else { return }
        for index in 1...steps.count {
            let entry = steps.record(at: index).step(store: store)
            for change in entry.changes {
                try? state.apply(change)
            }
            guard try body(index, entry, state) else { return }
        }
    }
}
