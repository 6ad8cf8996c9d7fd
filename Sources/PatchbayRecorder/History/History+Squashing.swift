public import PatchbayCore

extension History {
    /// Redux DevTools' COMMIT: the current state (`current`, the caller's live state) becomes the
    /// initial state, and every action and every other branch is dropped. Afterwards `current`
    /// is 0 on branch `main`.
    public func commit(current live: Value) throws(HistoryError) {
        initial = live
        reset()
    }

    /// Redux DevTools' ROLLBACK: drops every action of every branch and returns the initial
    /// state. Afterwards `current` is 0 on branch `main`.
    public func revert() -> Value {
        reset()
        return initial
    }

    /// Redux DevTools' SWEEP: drops the skipped actions of the current timeline and numbers the
    /// others again, their causes included. No state changes, since a skipped action changed
    /// nothing; `current` moves to the same state's new index, and so do the fork indexes of the
    /// branches forked from this one. Returns how many actions were dropped.
    public func sweep() -> Int {
        let old = timelines[selected]
        guard old.count > 0 else { return 0 }
        // newIndex[i]: the index state i has after the sweep.
        var newIndex = [0]
        newIndex.reserveCapacity(old.count + 1)
        var swept = old
        swept.steps = StepLog()
        swept.checkpoints = []
        swept.firstUnresolved = nil
        var dropped = 0
        for index in 1...old.count {
            if old.steps.flags(at: index).contains(.skipped) {
                dropped += 1
            } else {
                var record = old.steps.record(at: index)
                record.cause = record.cause.flatMap { cause in
                    cause >= 1 && cause < index && !old.steps.flags(at: cause).contains(.skipped) ? newIndex[cause] : nil
                }
                // Known positions are kept; an unknown one stays unknown, after the last
                // checkpoint as before.
                if swept.steps.append({ record.write(to: &$0) }), swept.firstUnresolved == nil { swept.firstUnresolved = swept.steps.count }
            }
            newIndex.append(index - dropped)
        }
        guard dropped > 0 else { return 0 }
        for checkpoint in old.checkpoints where swept.checkpoints.last?.index != newIndex[checkpoint.index] {
            swept.checkpoints.append(Checkpoint(index: newIndex[checkpoint.index], state: checkpoint.state))
        }
        timelines[selected] = swept
        rewrites += 1
        for position in timelines.indices where timelines[position].forkedFrom == old.name {
            timelines[position].forkIndex = timelines[position].forkIndex.map { newIndex[min($0, old.count)] }
        }
        current = newIndex[current]
        return dropped
    }

    private func reset() {
        rewrites += 1
        timelines = [Timeline(name: "main", initial: initial)]
        selected = 0
        forks = 0
        current = 0
    }
}
