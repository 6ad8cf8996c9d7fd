public import PatchbayCore

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
    public func diff(from a: Int, to b: Int, current live: Value) throws(HistoryError) -> [ValueChange] {
        let before = try state(at: a, current: live)
        let after = try state(at: b, current: live)
        return before.changes(to: after)
    }

    /// Calls `body` with every state 0...count of the current timeline in order, with the entry
    /// that led to it (`nil` for state 0), until `body` returns `false`. The states are
    /// materialized by one walk forward. A step whose changes do not apply (which `state(at:)`
    /// reports as `.inconsistent`) is walked with them left out.
    public func walk<E: Error>(_ body: (_ index: Int, _ entry: HistoryEntry?, _ state: Value) throws(E) -> Bool) throws(E) {
        let steps = timelines[selected].steps
        var state = initial
        guard try body(0, nil, state) else { return }
        guard steps.count > 0 else { return }
        for index in 1...steps.count {
            let entry = steps.record(at: index).entry(index: index)
            for change in entry.changes {
                try? state.apply(change)
            }
            guard try body(index, entry, state) else { return }
        }
    }
}
