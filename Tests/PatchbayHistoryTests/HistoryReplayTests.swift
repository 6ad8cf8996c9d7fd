@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory
import PatchbayTestSupport
import Testing

// `jump`, `diff`, `blame`, `find` (walk) and branches, checked against a naive history
// that keeps every state whole. The states are random nested objects and arrays changed by
// random adds, removes and replaces (array elements inserted and removed in the middle, object
// keys removed and added), applied as a reducer applies them, so the states must come back
// exactly, key order included.

/// Records `steps` random actions from `initial` into both histories, from wherever they stand.
private func recordRandomSteps(_ steps: Int, into history: History, _ naive: inout NaiveHistory,
                               mutator: inout StateMutator) throws {
    for _ in 0..<steps {
        var state = naive.live
        let changes = mutator.mutate(&state)
        let entry = StoreStep<ValueChange>(store: "the store", index: naive.current + 1, action: ["type": "Step", "n": .int(naive.current + 1)], changes: changes)
        let forked = try history.record(entry, after: state)
        #expect(forked == naive.record(entry, after: state))
    }
}

@Suite struct HistoryReplayTests {
    @Test(arguments: [11, 12, 13] as [UInt64])
    func randomJumpsGiveTheRecordedStates(seed: UInt64) throws {
        var mutator = StateMutator(seed: seed)
        let initial = mutator.state(size: 12)
        let history = History(initial: initial)
        var naive = NaiveHistory(initial: initial)
        try recordRandomSteps(300, into: history, &naive, mutator: &mutator)
        #expect(history.statistics.checkpoints > 3)
        var random = SplitMix64(seed: seed)
        var live = naive.live
        for _ in 0..<300 {
            // Short hops and long jumps, so that replays cross checkpoints both ways.
            let target = Bool.random(using: &random)
                ? Int.random(in: 0...naive.count, using: &random)
                : min(naive.count, max(0, history.current + Int.random(in: -40...40, using: &random)))
            live = try history.jump(to: target, current: live)
            #expect(exactly(live, naive.states[target]), "state \(target)")
        }
    }

    @Test func undoingARemovedKeyPutsItBackInPlace() throws {
        let initial: Value = ["a": 1, "b": 2, "c": 3, "d": ["x": 1, "y": 2]]
        let history = History(initial: initial)
        var states = [initial]
        var state = initial
        // Remove and re-add keys in turn for longer than a checkpoint interval.
        for index in 1...100 {
            let change: ValueChange
            switch index % 4 {
            case 1: change = ValueChange(path: [.key("a")], operation: .remove, old: state["a"], new: nil)
            case 2: change = ValueChange(path: [.key("d"), .key("x")], operation: .remove, old: 1, new: nil)
            case 3: change = ValueChange(path: [.key("a")], operation: .add, old: nil, new: .int(index))
            default: change = ValueChange(path: [.key("d"), .key("x")], operation: .add, old: nil, new: 1)
            }
            try state.apply(change)
            try history.record(StoreStep<ValueChange>(store: "the store", index: index, action: ["type": "T"], changes: [change]), after: state)
            states.append(state)
        }
        var live = state
        for target in [99, 97, 70, 65, 64, 33, 31, 1, 0, 50, 2, 100, 95] {
            live = try history.jump(to: target, current: live)
            #expect(live.description == states[target].description, "state \(target)")
        }
    }

    @Test(arguments: [21, 22] as [UInt64])
    func branchesKeepEveryTimeline(seed: UInt64) throws {
        var mutator = StateMutator(seed: seed)
        var random = SplitMix64(seed: seed &+ 100)
        let initial = mutator.state(size: 8)
        let history = History(initial: initial)
        var naive = NaiveHistory(initial: initial)
        var live = initial
        for _ in 0..<12 {
            try recordRandomSteps(Int.random(in: 1...60, using: &random), into: history, &naive, mutator: &mutator)
            live = naive.live
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                let target = Int.random(in: 0...naive.count, using: &random)
                live = try history.jump(to: target, current: live)
                naive.current = target
            case 1:
                let name = naive.branches[Int.random(in: 0..<naive.branches.count, using: &random)].name
                live = try history.checkout(name, current: live)
                naive.selected = naive.branches.firstIndex { $0.name == name }!
                naive.current = naive.count
            default:
                break
            }
            #expect(exactly(live, naive.live))
            #expect(history.branch == naive.branches[naive.selected].name)
            #expect(history.count == naive.count)
        }
        #expect(history.branches.count == naive.branches.count)
        // Every state of every branch, reached by checkout then jumps.
        for branch in naive.branches {
            live = try history.checkout(branch.name, current: live)
            #expect(exactly(live, branch.states.last!))
            for index in stride(from: branch.states.count - 1, through: 0, by: -3) {
                live = try history.jump(to: index, current: live)
                #expect(exactly(live, branch.states[index]), "\(branch.name) state \(index)")
            }
            #expect(try history.entries(1...max(1, history.count)).map(\.changes) == branch.entries.map(\.changes))
        }
    }

    @Test func aBranchAfterAJumpLeavesTheOldFutureToCheckOut() throws {
        let history = History(initial: ["n": 0])
        var state: Value = ["n": 0]
        for index in 1...5 {
            let change = ValueChange(path: [.key("n")], operation: .replace, old: state["n"], new: .int(index))
            try state.apply(change)
            try history.record(StoreStep<ValueChange>(store: "the store", index: index, action: ["type": "Inc"], changes: [change]), after: state)
        }
        var live = try history.jump(to: 2, current: state)
        let change = ValueChange(path: [.key("m")], operation: .add, old: nil, new: "new")
        try live.apply(change)
        let forked = try history.record(StoreStep<ValueChange>(store: "the store", index: 3, action: ["type": "Other"], changes: [change]), after: live)
        #expect(forked == "b1")
        #expect(history.branch == "b1")
        #expect(history.count == 3)
        #expect(history.branches == [
            BranchSummary(name: "main", count: 5, forkedFrom: nil, forkIndex: nil, isCurrent: false),
            BranchSummary(name: "b1", count: 3, forkedFrom: "main", forkIndex: 2, isCurrent: true),
        ])
        #expect(try history.state(at: 2, current: live) == ["n": 2])
        live = try history.checkout("main", current: live)
        #expect(live == ["n": 5])
        #expect(history.current == 5)
        for index in 0...5 {
            #expect(try history.state(at: index, current: live) == ["n": .int(index)])
        }
        live = try history.checkout("b1", current: live)
        #expect(live == ["n": 2, "m": "new"])
        let unknown = #expect(throws: HistoryError.self) { try history.checkout("b7", current: live) }
        #expect(unknown == .unknownBranch(store: "the store", name: "b7", branches: ["main", "b1"]))
        #expect(unknown?.description == "the store has no branch 'b7': its branches are main, b1")
    }

    @Test(arguments: [31, 32] as [UInt64])
    func diffsMatchTheStructuralDiffOfTheStates(seed: UInt64) throws {
        var mutator = StateMutator(seed: seed)
        let initial = mutator.state(size: 10)
        let history = History(initial: initial)
        var naive = NaiveHistory(initial: initial)
        try recordRandomSteps(150, into: history, &naive, mutator: &mutator)
        var random = SplitMix64(seed: seed)
        for _ in 0..<60 {
            let a = Int.random(in: 0...150, using: &random)
            let b = Int.random(in: 0...150, using: &random)
            #expect(try history.diff(from: a, to: b, current: naive.live) == naive.states[a].changes(to: naive.states[b]))
        }
        #expect(try history.diff(from: 7, to: 7, current: naive.live).isEmpty)
    }

    /// States a few steps apart are compared only where the steps between changed something:
    /// the same changes, in the same order, as comparing them whole.
    @Test(arguments: [33, 34, 35, 36] as [UInt64])
    func diffsOfNearbyStatesMatchTheStructuralDiff(seed: UInt64) throws {
        var mutator = StateMutator(seed: seed)
        let initial = mutator.state(size: 12)
        let history = History(initial: initial)
        var naive = NaiveHistory(initial: initial)
        try recordRandomSteps(120, into: history, &naive, mutator: &mutator)
        var random = SplitMix64(seed: seed)
        for _ in 0..<200 {
            let a = Int.random(in: 0...120, using: &random)
            let b = Swift.max(0, Swift.min(120, a + Int.random(in: -6...6, using: &random)))
            #expect(try history.diff(from: a, to: b, current: naive.live) == naive.states[a].changes(to: naive.states[b]), "\(a) → \(b)")
        }
        // From where the history stands, as `diff` asks by default.
        let live = try history.jump(to: 60, current: naive.live)
        #expect(try history.diff(from: 59, to: 60, current: live) == naive.states[59].changes(to: naive.states[60]))
        #expect(try history.diff(from: 60, to: 57, current: live) == naive.states[60].changes(to: naive.states[57]))
    }

    /// What only a whole comparison finds: a value wrapped in what replaces it, a number that
    /// changes kind, a key that goes and comes back last, an array that shifts.
    @Test func diffsOfStepsThatWrapRekindOrReorderMatchTheStructuralDiff() throws {
        let initial: Value = ["a": 1, "b": ["x": 1, "y": [1, 2, 3]], "c": "z"]
        let history = History(initial: initial)
        var states = [initial]
        var state = initial
        let steps: [[ValueChange]] = [
            [ValueChange(path: [.key("b")], operation: .replace, old: state["b"], new: ["prev": state["b"]!, "n": 1])],
            [ValueChange(path: [.key("a")], operation: .replace, old: 1, new: .decimal(1))],
            [ValueChange(path: [.key("a")], operation: .remove, old: .decimal(1), new: nil)],
            [ValueChange(path: [.key("a")], operation: .add, old: nil, new: 2)],
            [ValueChange(path: [.key("b"), .key("prev"), .key("y"), .index(0)], operation: .remove, old: 1, new: nil),
             ValueChange(path: [.key("d")], operation: .add, old: nil, new: ["k": true])],
            [ValueChange(path: [], operation: .replace, old: nil, new: ["whole": 1])],
        ]
        for (offset, changes) in steps.enumerated() {
            let fixed = changes.map { change in
                var change = change
                if change.operation != .add { change.old = state.value(at: change.path) }
                return change
            }
            for change in fixed { try state.apply(change) }
            try history.record(StoreStep<ValueChange>(store: "the store", index: offset + 1, action: ["type": "T"], changes: fixed), after: state)
            states.append(state)
        }
        for a in states.indices {
            for b in states.indices {
                #expect(try history.diff(from: a, to: b, current: state) == states[a].changes(to: states[b]), "\(a) → \(b)")
            }
        }
    }

    @Test(arguments: [41, 42] as [UInt64])
    func blameListsEveryActionAfterWhichThePathDiffers(seed: UInt64) throws {
        var mutator = StateMutator(seed: seed)
        let initial = mutator.state(size: 6)
        let history = History(initial: initial)
        var naive = NaiveHistory(initial: initial)
        try recordRandomSteps(200, into: history, &naive, mutator: &mutator)
        var reported = 0
        for sample in 0..<40 {
            let path = mutator.anyPath(in: naive.states[sample * 5])
            var expected: [Blame] = []
            for index in 1...naive.count {
                let old = naive.states[index - 1].value(at: path)
                let new = naive.states[index].value(at: path)
                if old?.description != new?.description {
                    expected.append(Blame(index: index, action: naive.entries[index - 1].action, old: old, new: new))
                }
            }
            let blame = history.blame(path)
            #expect(blame == expected, "\(ValueChange.pathText(path))")
            reported += blame.count
        }
        #expect(reported > 0)
    }

    @Test func blameOfAPathThatNeverChangedIsEmpty() throws {
        let history = History(initial: ["user": ["name": "Ada"], "items": [1, 2, 3]])
        var state = history.initial
        let changes = [
            ValueChange(path: [.key("items"), .index(2)], operation: .remove, old: 3, new: nil),
            ValueChange(path: [.key("items"), .index(0)], operation: .replace, old: 1, new: 10),
            ValueChange(path: [.key("user"), .key("age")], operation: .add, old: nil, new: 36),
            ValueChange(path: [.key("items"), .index(0)], operation: .add, old: nil, new: 0),
        ]
        for (offset, change) in changes.enumerated() {
            try state.apply(change)
            try history.record(StoreStep<ValueChange>(store: "the store", index: offset + 1, action: ["type": "T", "n": .int(offset + 1)], changes: [change]),
                               after: state)
        }
        #expect(history.blame([.key("user"), .key("name")]).isEmpty)
        #expect(history.blame([.key("nothing")]).isEmpty)
        // items[1] is 2 until the insertion at items[0] moves 10 there.
        #expect(history.blame([.key("items"), .index(1)]) == [Blame(index: 4, action: ["type": "T", "n": 4], old: 2, new: 10)])
        #expect(history.blame([.key("user")]).map(\.index) == [3])
    }

    @Test func walkMaterializesEveryStateInOrderAndStops() throws {
        var mutator = StateMutator(seed: 51)
        let initial = mutator.state(size: 10)
        let history = History(initial: initial)
        var naive = NaiveHistory(initial: initial)
        try recordRandomSteps(120, into: history, &naive, mutator: &mutator)
        var visited: [Int] = []
        history.walk { (index, entry, state) -> Bool in
            visited.append(index)
            #expect(exactly(state, naive.states[index]))
            #expect(entry == (index == 0 ? nil : naive.entries[index - 1]))
            return true
        }
        #expect(visited == Array(0...120))
        var stopped: [Int] = []
        history.walk { (index, _, _) -> Bool in
            stopped.append(index)
            return index < 10
        }
        #expect(stopped == Array(0...10))
        struct Found: Error, Equatable { var index: Int }
        #expect(throws: Found(index: 3)) {
            try history.walk { (index, _, _) throws(Found) -> Bool in
                if index == 3 { throw Found(index: index) }
                return true
            }
        }
    }
}
