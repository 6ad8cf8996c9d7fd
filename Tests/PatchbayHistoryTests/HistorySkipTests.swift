@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory
import PatchbayTestSupport
import Testing

// `skip` / `unskip` recompute the later states with the store's reducers and report how
// many states changed; `history sweep`, `commit` and `revert` follow Redux DevTools. Checked
// against a naive replay of the action list with a real reducer (`CounterReducer`), whose actions
// add and remove object keys, push and pop array elements, and fail.

/// A history of `count` random `CounterReducer` actions, and the list of those actions.
private func counterHistory(count: Int, seed: UInt64) throws -> (History, [(action: Value, skipped: Bool)]) {
    var random = SplitMix64(seed: seed)
    let actions = (0..<count).map { _ in (action: CounterReducer.action(&random), skipped: false) }
    let (states, entries) = CounterReducer.replay(actions, store: "app")
    let history = History(initial: CounterReducer.initial, store: "app")
    for (entry, state) in zip(entries, states.dropFirst()) {
        try history.record(entry, after: state)
    }
    return (history, actions)
}

/// Checks every state and entry of the current timeline against the naive replay of `actions`.
private func expectMatches(_ history: History, _ actions: [(action: Value, skipped: Bool)], live: Value,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
    let (states, entries) = CounterReducer.replay(actions, store: history.store)
    #expect(history.count == actions.count, sourceLocation: sourceLocation)
    #expect(exactly(live, states[history.current]), sourceLocation: sourceLocation)
    for index in 0...history.count {
        #expect(exactly(try history.state(at: index, current: live), states[index]), "state \(index)", sourceLocation: sourceLocation)
    }
    if history.count > 0 {
        #expect(try history.entries(1...history.count) == entries, sourceLocation: sourceLocation)
    }
}

@Suite struct HistorySkipTests {
    @Test(arguments: [61, 62, 63] as [UInt64])
    func skipAndUnskipRecomputeTheLaterStates(seed: UInt64) throws {
        var (history, actions) = try counterHistory(count: 150, seed: seed)
        var random = SplitMix64(seed: seed)
        var live = CounterReducer.replay(actions).states.last!
        for round in 0..<25 {
            if round % 5 == 0 {
                let target = Int.random(in: 0...history.count, using: &random)
                live = try history.jump(to: target, current: live)
            }
            let index = Int.random(in: 1...actions.count, using: &random)
            let skip = !actions[index - 1].skipped
            let before = CounterReducer.replay(actions).states
            actions[index - 1].skipped = skip
            let after = CounterReducer.replay(actions).states
            let result = try history.setSkipped(index, skip, current: live, reduce: CounterReducer.reduce)
            let changed = (index...actions.count).filter { before[$0] != after[$0] }.count
            #expect(result.changedStates == changed, "round \(round): \(skip ? "skip" : "unskip") \(index)")
            live = result.state
            try expectMatches(history, actions, live: live)
        }
    }

    @Test func skippingInABranchLeavesTheSharedStepsOfTheOthersAlone() throws {
        let (history, actions) = try counterHistory(count: 120, seed: 65)
        let mainStates = CounterReducer.replay(actions).states
        var live = try history.jump(to: 90, current: mainStates[120])
        var branchActions = Array(actions[..<90])
        var random = SplitMix64(seed: 66)
        for index in 91...130 {
            let action = CounterReducer.action(&random)
            var entry = StoreStep<ValueChange>(store: "the store", index: index, action: action, changes: [])
            let reduction = CounterReducer.reduce(&live, entry)
            entry.changes = reduction.changes
            entry.failure = reduction.failure
            try history.record(entry, after: live)
            branchActions.append((action, false))
        }
        #expect(history.branch == "b1")
        for index in [5, 40, 100] {
            live = try history.setSkipped(index, true, current: live, reduce: CounterReducer.reduce).state
            branchActions[index - 1].skipped = true
        }
        try expectMatches(history, branchActions, live: live)
        live = try history.checkout("main", current: live)
        try expectMatches(history, actions, live: live)
        #expect(try history.entry(5).skipped == false)
    }

    @Test func skippingTwiceOrUnskippingANotSkippedActionThrows() throws {
        let (history, actions) = try counterHistory(count: 10, seed: 64)
        let live = CounterReducer.replay(actions).states.last!
        let skipped = try history.setSkipped(4, true, current: live, reduce: CounterReducer.reduce)
        let twice = #expect(throws: HistoryError.self) {
            try history.setSkipped(4, true, current: skipped.state, reduce: CounterReducer.reduce)
        }
        #expect(twice?.description == "action 4 of app is already skipped")
        #expect(throws: HistoryError.notSkipped(store: "app", index: 5)) {
            try history.setSkipped(5, false, current: skipped.state, reduce: CounterReducer.reduce)
        }
        #expect(throws: HistoryError.noSuchAction(store: "app", index: 11, count: 10)) {
            try history.setSkipped(11, true, current: skipped.state, reduce: CounterReducer.reduce)
        }
    }

    @Test func skippingAFailedActionChangesNothing() throws {
        let actions: [Value] = [["type": "Push", "value": 1], ["type": "Pop"], ["type": "Pop"], ["type": "Add", "key": "a", "by": 2]]
        let (states, entries) = CounterReducer.replay(actions.map { ($0, false) })
        #expect(entries[2].failure == "nothing to pop")
        let history = History(initial: CounterReducer.initial)
        for (entry, state) in zip(entries, states.dropFirst()) { try history.record(entry, after: state) }
        var calls = 0
        let result = try history.setSkipped(3, true, current: states[4]) { state, entry in
            calls += 1
            return CounterReducer.reduce(&state, entry)
        }
        #expect(result.changedStates == 0)
        #expect(calls == 0)
        #expect(result.state == states[4])
        #expect(try history.entry(3).skipped)
        // A skipped action does not run, so it has no failure.
        #expect(try history.entry(3).failure == nil)
        #expect(try history.entry(4) == entries[3])
        // Unskipping runs it again: it fails again, and nothing else changes.
        let again = try history.setSkipped(3, false, current: result.state, reduce: CounterReducer.reduce)
        #expect(again.changedStates == 0)
        #expect(try history.entry(3).failure == "nothing to pop")
        #expect(try history.entry(3).skipped == false)
    }

    @Test func aSuccessClearsAnEarlierFailure() throws {
        // Skipping the first Pop lets the second one succeed.
        let actions: [Value] = [["type": "Push", "value": 7], ["type": "Pop"], ["type": "Pop"]]
        let (states, entries) = CounterReducer.replay(actions.map { ($0, false) })
        let history = History(initial: CounterReducer.initial)
        for (entry, state) in zip(entries, states.dropFirst()) { try history.record(entry, after: state) }
        #expect(try history.entry(3).failure != nil)
        let result = try history.setSkipped(2, true, current: states[3], reduce: CounterReducer.reduce)
        #expect(try history.entry(3).failure == nil)
        #expect(result.state == ["counters": ["a": 0], "items": []])
        // State 2 is now [7] instead of [], state 3 [] as before.
        #expect(result.changedStates == 1)
    }

    @Test(arguments: [71, 72] as [UInt64])
    func sweepDropsTheSkippedActionsAndKeepsTheStates(seed: UInt64) throws {
        var (history, actions) = try counterHistory(count: 200, seed: seed)
        var random = SplitMix64(seed: seed)
        var live = CounterReducer.replay(actions).states.last!
        for _ in 0..<15 {
            let index = Int.random(in: 1...actions.count, using: &random)
            guard !actions[index - 1].skipped else { continue }
            actions[index - 1].skipped = true
            live = try history.setSkipped(index, true, current: live, reduce: CounterReducer.reduce).state
        }
        let target = Int.random(in: 0...history.count, using: &random)
        live = try history.jump(to: target, current: live)
        let skippedBefore = actions[..<target].filter(\.skipped).count
        let dropped = try history.sweep()
        #expect(dropped == actions.filter(\.skipped).count)
        actions.removeAll(where: \.skipped)
        #expect(history.current == target - skippedBefore)
        try expectMatches(history, actions, live: live)
        #expect(try history.sweep() == 0)
    }

    @Test func sweepNumbersCausesAgain() throws {
        let history = History(initial: CounterReducer.initial)
        let entries = [
            StoreStep<ValueChange>(store: "the store", index: 1, action: ["type": "Push", "value": 1], changes: [
                ValueChange(path: [.key("items"), .index(0)], operation: .add, old: nil, new: 1),
            ]),
            StoreStep<ValueChange>(store: "the store", index: 2, action: ["type": "Noise"], changes: [], skipped: true),
            StoreStep<ValueChange>(store: "the store", index: 3, action: ["type": "Cause"], changes: []),
            StoreStep<ValueChange>(store: "the store", index: 4, action: ["type": "Effect"], changes: [], cause: 3),
            StoreStep<ValueChange>(store: "the store", index: 5, action: ["type": "Orphan"], changes: [], cause: 2),
        ]
        var state = history.initial
        for entry in entries {
            for change in entry.changes { try state.apply(change) }
            try history.record(entry, after: state)
        }
        #expect(try history.sweep() == 1)
        #expect(try history.entries(1...4).map(\.type) == ["Push", "Cause", "Effect", "Orphan"])
        #expect(try history.entry(3).cause == 2)
        #expect(try history.entry(4).cause == nil)
    }

    @Test func sweepMovesTheForkIndexOfTheBranchesForkedFromTheTimeline() throws {
        var (history, actions) = try counterHistory(count: 30, seed: 73)
        var live = CounterReducer.replay(actions).states.last!
        for index in [3, 8] {
            actions[index - 1].skipped = true
            live = try history.setSkipped(index, true, current: live, reduce: CounterReducer.reduce).state
        }
        live = try history.jump(to: 20, current: live)
        var entry = StoreStep<ValueChange>(store: "the store", index: 21, action: ["type": "Push", "value": 1], changes: [])
        entry.changes = CounterReducer.reduce(&live, entry).changes
        try history.record(entry, after: live)
        live = try history.checkout("main", current: live)
        #expect(try history.sweep() == 2)
        actions.removeAll(where: \.skipped)
        try expectMatches(history, actions, live: live)
        // The branch keeps its steps, skipped ones included: it shares with main only the
        // steps before the first one the sweep dropped.
        let branch = history.branches[1]
        #expect(branch.forkIndex == 2)
        live = try history.checkout("b1", current: live)
        #expect(history.count == 21)
        #expect(try history.entry(3).skipped)
    }

    @Test func sweepingABranchMovesItsForkBeforeTheFirstSharedStepItDropped() throws {
        let (history, actions) = try counterHistory(count: 10, seed: 74)
        var live = try history.jump(to: 6, current: CounterReducer.replay(actions).states.last!)
        live = try history.setSkipped(4, true, current: live, reduce: CounterReducer.reduce).state
        var entry = StoreStep<ValueChange>(store: "the store", index: 7, action: ["type": "Push", "value": 1], changes: [])
        entry.changes = CounterReducer.reduce(&live, entry).changes
        try history.record(entry, after: live)
        #expect(history.branch == "b1" && history.branches[1].forkIndex == 6)
        #expect(try history.sweep() == 1)
        #expect(history.branches[1].forkIndex == 3)
        #expect(history.count == 6)
    }

    @Test func aSweepThatWouldEmptyABranchIsRefusedAndChangesNothing() throws {
        let (history, actions) = try counterHistory(count: 10, seed: 75)
        var live = try history.jump(to: 6, current: CounterReducer.replay(actions).states.last!)
        var entry = StoreStep<ValueChange>(store: "the store", index: 7, action: ["type": "Push", "value": 1], changes: [])
        entry.changes = CounterReducer.reduce(&live, entry).changes
        try history.record(entry, after: live)
        live = try history.setSkipped(7, true, current: live, reduce: CounterReducer.reduce).state
        #expect(throws: HistoryError.sweepEmptiesBranch(store: history.store, branch: "b1", parent: "main")) { try history.sweep() }
        #expect(history.count == 7 && history.current == 7 && history.branches[1].forkIndex == 6)
        #expect(try history.entry(7).skipped)
    }

    @Test func aRollBackTakesBackTheFirstRewriteMadeWhileTheMarkWasHeld() throws {
        let (history, actions) = try counterHistory(count: 20, seed: 76)
        let live = CounterReducer.replay(actions).states.last!
        let outer = history.mark()
        let inner = history.mark()
        let skipped = try history.setSkipped(5, true, current: live, reduce: CounterReducer.reduce).state
        // A second rewrite while the marks are held: the first one's mark can still go back.
        _ = try history.setSkipped(6, true, current: skipped, reduce: CounterReducer.reduce)
        #expect(history.rollBack(to: inner) == live)
        #expect(try !history.entry(5).skipped && !history.entry(6).skipped)
        #expect(history.rollBack(to: outer) == live)
        #expect(history.count == 20 && history.current == 20)
    }

    @Test func commitMakesTheCurrentStateTheInitialOne() throws {
        let (history, actions) = try counterHistory(count: 80, seed: 81)
        let states = CounterReducer.replay(actions).states
        let live = try history.jump(to: 40, current: states[80])
        _ = try history.checkout("main", current: live)
        try history.commit(current: states[80])
        #expect(history.initial == states[80])
        #expect(history.count == 0)
        #expect(history.current == 0)
        #expect(history.branch == "main")
        #expect(try history.state(at: 0, current: states[80]) == states[80])
    }

    @Test func revertDropsEveryActionOfEveryBranch() throws {
        let (history, actions) = try counterHistory(count: 50, seed: 82)
        let states = CounterReducer.replay(actions).states
        var live = try history.jump(to: 10, current: states[50])
        var entry = StoreStep<ValueChange>(store: "the store", index: 11, action: ["type": "Push", "value": 5], changes: [])
        entry.changes = CounterReducer.reduce(&live, entry).changes
        #expect(try history.record(entry, after: live) == "b1")
        #expect(history.branches.count == 2)
        #expect(history.revert() == CounterReducer.initial)
        #expect(history.count == 0)
        #expect(history.current == 0)
        #expect(history.branches == [BranchSummary(name: "main", count: 0, forkedFrom: nil, forkIndex: nil, isCurrent: true)])
        // Branch names start again.
        var next = CounterReducer.initial
        for index in 1...2 {
            var step = StoreStep<ValueChange>(store: "the store", index: index, action: ["type": "Push", "value": .int(index)], changes: [])
            step.changes = CounterReducer.reduce(&next, step).changes
            try history.record(step, after: next)
        }
        live = try history.jump(to: 1, current: next)
        var fork = StoreStep<ValueChange>(store: "the store", index: 2, action: ["type": "Pop"], changes: [])
        fork.changes = CounterReducer.reduce(&live, fork).changes
        #expect(try history.record(fork, after: live) == "b1")
    }
}

@Suite struct InterruptedRecomputationTests {
    @Test(arguments: [1, 2, 700, 1_990])
    func ctrlCAfterSomeStepsLeavesTheHistoryAsItWas(steps: Int) throws {
        let (history, actions) = try counterHistory(count: 2_000, seed: 71)
        let live = CounterReducer.replay(actions).states.last!
        // The first action that changed something: skipping it recomputes every later step.
        let index = try #require(try history.entries(1...history.count).first { !$0.changes.isEmpty }?.index)
        let interruption = Interruption()
        var reduced = 0
        #expect(throws: HistoryError.interrupted) {
            try interruption.during {
                try history.setSkipped(index, true, current: live) { state, entry in
                    reduced += 1
                    if reduced == steps { interruption.request() }
                    return CounterReducer.reduce(&state, entry)
                }
            }
        }
        #expect(reduced == steps, "it stops after the step it is at")
        try expectMatches(history, actions, live: live)
        // Nothing is left half done: the same skip runs whole afterwards.
        var skipped = actions
        skipped[index - 1].skipped = true
        let result = try history.setSkipped(index, true, current: live, reduce: CounterReducer.reduce)
        try expectMatches(history, skipped, live: result.state)
    }
}
