@_spi(Shell) public import PatchbayCore

extension History {
    /// Skips (`skipped` true) or unskips action `index` of the current timeline, then recomputes
    /// every later state.
    ///
    /// `reduce(&state, entry)` runs the store's reducers for `entry` on the state before it: it is
    /// called for each later action that is not skipped, and for `index` itself when unskipping.
    /// When it fails, it leaves the state as it was and the action is marked failed; a success
    /// clears an earlier failure, and so does skipping (a skipped action does not run). When it
    /// throws (the reducers cannot run at all on that state or action), the recomputation stops
    /// with that error and the history is as it was. Skipping
    /// an action that changed nothing (a failed one, say) changes no state and calls nothing.
    ///
    /// `current` is the caller's live state, as for `state(at:current:)`. Skipping a skipped
    /// action or unskipping one that is not skipped throws. Ctrl-C (`Interruption`) stops the
    /// recomputation after the step it is at, with `.interrupted`, leaving the history as it was.
    public func setSkipped(_ index: Int, _ skipped: Bool, current live: Value,
                           reduce: (inout Value, StoreStep<ValueChange>) throws(HistoryError) -> Reduction) throws(HistoryError) -> Recomputation {
        try checkAction(index)
        if Interruption.current?.isRequested == true { throw .interrupted }
        let old = timelines[selected].steps
        let flags = old.flags(at: index)
        if skipped, flags.contains(.skipped) { throw .alreadySkipped(store: store, index: index) }
        if !skipped, !flags.contains(.skipped) { throw .notSkipped(store: store, index: index) }
        if skipped, old.record(at: index).step.changes.isEmpty {
            willRewrite()
            timelines[selected].steps.setFlags(flags.union(.skipped).subtracting(.failed), at: index)
            return Recomputation(changedStates: 0, state: live, firstStep: index)
        }
        return try recompute(from: index, settingSkipped: skipped, current: live, reduce: reduce)
    }

    /// Recomputes every state of the current timeline with the store's reducers as they are now
    /// (`history recompute`, Redux DevTools' hot reload): each action that is not skipped runs
    /// again, from the initial state; skipped ones stay skipped. `reduce`, `current` and Ctrl-C
    /// are as for `setSkipped`.
    public func recompute(current live: Value, reduce: (inout Value, StoreStep<ValueChange>) throws(HistoryError) -> Reduction) throws(HistoryError) -> Recomputation {
        guard count > 0 else { return Recomputation(changedStates: 0, state: live, firstStep: 1) }
        return try recompute(from: 1, settingSkipped: nil, current: live, reduce: reduce)
    }

    /// Recomputes the states from action `index` on; `settingSkipped` sets that action's flag.
    private func recompute(from index: Int, settingSkipped skipped: Bool?, current live: Value,
                           reduce: (inout Value, StoreStep<ValueChange>) throws(HistoryError) -> Reduction) throws(HistoryError) -> Recomputation {
        // Read once, checked before anything changes and after every step (a reducer it
        // interrupts fails the step, which must not be kept): a relaxed atomic load.
        let interruption = Interruption.current
        if interruption?.isRequested == true { throw .interrupted }
        let old = timelines[selected].steps
        var state = try state(at: index - 1, current: live)
        var oldState = state
        var currentState = live
        var divergence = Divergence()
        var changedStates = 0
        var firstChanged: Int?
        var steps: [Reduction] = []
        steps.reserveCapacity(old.count - index + 1)
        // Rebuilt apart, so that a failure leaves the history as it was.
        var timeline = timelines[selected]
        timeline.truncate(to: index - 1)
        for step in index...old.count {
            var record = old.record(at: step)
            let oldChanges = record.step.changes
            for change in oldChanges {
                do throws(PathError) { try oldState.apply(change) } catch {
                    throw .inconsistent(store: store, index: step, reason: error.description)
                }
            }
            if step == index, let skipped { record.step.skipped = skipped }
            // A step whose recording held no state after it: its old state is not known, so it is
            // not counted as changed; from now on its changes are the reducer's own.
            let stateWasUnknown = record.step.unrecorded && oldChanges.isEmpty
            record.step.unrecorded = false
            if record.step.skipped {
                record.step.changes = []
                record.step.failure = nil
            } else {
                let reduction = try reduce(&state, record.step(store: store))
                record.step.changes = reduction.changes
                record.step.failure = reduction.failure
            }
            if interruption?.isRequested == true { throw .interrupted }
            record.positions = Array(repeating: nil, count: record.step.changes.count)
            steps.append(Reduction(changes: record.step.changes, failure: record.step.failure))
            timeline.append(record, after: state)
            divergence.note(first: oldChanges, second: record.step.changes)
            if !stateWasUnknown, !divergence.agree(oldState, state) {
                changedStates += 1
                if firstChanged == nil { firstChanged = step }
            }
            if step == current { currentState = state }
        }
        willRewrite()
        timelines[selected] = timeline
        return Recomputation(changedStates: changedStates, state: currentState, firstStep: index, steps: steps, firstChanged: firstChanged)
    }
}
