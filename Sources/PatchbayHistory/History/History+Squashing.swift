@_spi(Shell) public import PatchbayCore
@_spi(Shell) import PatchbayRecorder

extension History {
    /// Redux DevTools' COMMIT: the current state (`current`, the caller's live state) becomes the
    /// initial state, and every action and every other branch is dropped. Afterwards `current`
    /// is 0 on branch `main`.
    public func commit(current live: Value) throws(HistoryError) {
        reset(initial: live)
    }

    /// Redux DevTools' ROLLBACK: drops every action of every branch and returns the initial
    /// state. Afterwards `current` is 0 on branch `main`.
    public func revert() -> Value {
        reset(initial: initial)
        return initial
    }

    /// Redux DevTools' SWEEP: drops the skipped actions of the current timeline and numbers the
    /// others again, their causes included. No state changes, since a skipped action changed
    /// nothing; `current` moves to the same state's new index, and so do the fork indexes of the
    /// branches forked from this one. A branch shares the steps before its fork index with the
    /// timeline it was forked from: where the sweep dropped one of those from one side only,
    /// the two share the steps before it, and the fork index moves there. Returns how many
    /// actions were dropped.
    ///
    /// Throws, and changes nothing, when the sweep would leave the current branch with no action
    /// of its own: such a branch could not be told from its parent.
    public func sweep() throws(HistoryError) -> Int {
        let old = timelines[selected]
        guard old.count > 0, let firstDropped = (1...old.count).first(where: { old.steps.flags(at: $0).contains(.skipped) }) else { return 0 }
        // newIndex[i]: the index state i has after the sweep.
        var newIndex = Array(0..<firstDropped)
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
                record.step.cause = record.step.cause.flatMap { cause in
                    cause >= 1 && cause < index && !old.steps.flags(at: cause).contains(.skipped) ? newIndex[cause] : nil
                }
                // Known positions are kept; an unknown one stays unknown, after the last
                // checkpoint as before.
                if swept.steps.append({ record.write(to: &$0) }), swept.firstUnresolved == nil { swept.firstUnresolved = swept.steps.count }
            }
            if index >= firstDropped { newIndex.append(index - dropped) }
        }
        /// A fork at `index` of a timeline from which the steps from `firstDropped` on went
        /// on one side only: the two share the steps before.
        func shared(_ index: Int) -> Int { Swift.min(index, firstDropped - 1) }
        swept.forkIndex = old.forkIndex.map(shared)
        if let fork = swept.forkIndex, swept.steps.count == fork, let parent = old.forkedFrom {
            throw .sweepEmptiesBranch(store: store, branch: old.name, parent: parent)
        }
        for checkpoint in old.checkpoints where swept.checkpoints.last?.index != newIndex[checkpoint.index] {
            swept.checkpoints.append(Checkpoint(index: newIndex[checkpoint.index], state: checkpoint.state))
        }
        willRewrite()
        timelines[selected] = swept
        for position in timelines.indices where timelines[position].forkedFrom == old.name {
            timelines[position].forkIndex = timelines[position].forkIndex.map(shared)
        }
        current = newIndex[current]
        return dropped
    }

    private func reset(initial newInitial: Value) {
        willRewrite()
        initial = newInitial
        timelines = [Timeline(name: "main", initial: initial)]
        selected = 0
        forks = 0
        current = 0
    }
}
