@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayHistory

/// Store history (PatchbayHost.docc/TimeTravel.md): a state of 10,000 keys `{k0: 0, ..., k9999: 0}` and
/// 1,000,000 actions `{type: "Set", key: "kN", value: V}` (N from SplitMix64 seeded 0x5EED, V the
/// action's index), each replacing one key.
/// - H1: the history's heap bytes per step (mallinfo2 across the recording loop), the encoded
///   actions included, against keeping a full copy of the state per step (measured on 10,000
///   steps, which would take 4 GB at 10,000 keys).
/// - H2: `jump` to a random step (SplitMix64 seeded 0x1EAF), the median of single jumps each
///   timed on its own.
/// Quick mode records 20,000 actions on 1,000 keys and checks the states only.
struct HistoryBenchmarks: BenchmarkGroup {
    let name = "History"

    func rows(for mode: Mode) -> [BenchmarkRow] {
        let workload = mode == .quick
            ? SetWorkload(keys: 1_000, actions: 20_000) : SetWorkload(keys: 10_000, actions: 1_000_000)
        let naiveSteps = mode == .quick ? 1_000 : 10_000
        let jumps = mode == .quick ? 200 : 2_000
        let fixture = JumpFixture(workload: workload)
        return [
            BenchmarkRow(
                id: "H1", title: "history B/step, \(workload.keys) keys, \(workload.actions) Set actions (actions included)",
                ours: Self.historyMemory(workload),
                reference: Reference(kind: .naive, name: "full state per step (\(naiveSteps) steps)",
                                     workload: Self.naiveMemory(workload, steps: naiveSteps)),
                target: .bytesBelow(200)
            ),
            BenchmarkRow(
                id: "H2", title: "jump to a random step of \(workload.actions): median ns per jump",
                ours: Self.jumps(fixture, count: jumps),
                reference: nil,
                target: .nanosecondsBelow(1_000_000)
            ),
        ]
    }

    /// The actions of H1 and H2 and the states they lead to.
    struct SetWorkload {
        var keys: Int
        var actions: Int
        /// The key number each action sets, action `i` at `i - 1`.
        let keyOfAction: [UInt16]

        init(keys: Int, actions: Int) {
            self.keys = keys
            self.actions = actions
            var random = SplitMix64(seed: 0x5EED)
            keyOfAction = (0..<actions).map { _ in UInt16(random.next(keys)) }
        }

        var initial: Value {
            .object(Value.Members(uniqueKeysWithValues: (0..<keys).map { (ObjectKey("k\($0)"), Value.int(0)) }))
        }

        func key(ofAction index: Int) -> String { "k\(keyOfAction[index - 1])" }

        /// Applies action `index` to `state` and returns its entry.
        func perform(_ index: Int, on state: inout Value) -> StoreStep<ValueChange> {
            let key = key(ofAction: index)
            let change = ValueChange(path: [.key(key)], operation: .replace, old: state[key], new: .int(index))
            try! state.apply(change)
            return StoreStep(store: "the store", index: index, action: ["type": "Set", "key": .string(key), "value": .int(index)], changes: [change])
        }

        /// Whether `state` is state `index`, as far as its last action shows: that action's key
        /// holds its index.
        func check(_ state: Value, at index: Int) -> Bool {
            state[key(ofAction: index)] == .int(index)
        }

        /// Records every action into `history`, from `state` (the initial state), which ends as
        /// the last state.
        func record(into history: History, state: inout Value) {
            for index in 1...actions {
                let entry = perform(index, on: &state)
                try! history.record(entry, after: state)
            }
        }
    }

    /// A recorded history shared by the trials of H2, built by the first.
    final class JumpFixture {
        let workload: SetWorkload
        private var built: (history: History, live: Value)?

        init(workload: SetWorkload) {
            self.workload = workload
        }

        var history: History { prepare().history }

        /// The caller's state at the history's current index.
        var live: Value {
            get { prepare().live }
            set { built?.live = newValue }
        }

        private func prepare() -> (history: History, live: Value) {
            if let built { return built }
            var state = workload.initial
            let history = History(initial: state, store: "bench")
            workload.record(into: history, state: &state)
            built = (history, state)
            return (history, state)
        }
    }

    /// The samples checked after a memory row's loop.
    static let checks = 100

    static func historyMemory(_ workload: SetWorkload) -> Workload {
        Workload(operations: workload.actions) {
            let history = History(initial: workload.initial, store: "bench")
            let bytesPerStep = Box(0.0)
            return Trial(expectedChecksum: checks, run: {
                var state = history.initial
                let before = heapBytesInUse()
                workload.record(into: history, state: &state)
                bytesPerStep.value = Double(heapBytesInUse() - before) / Double(workload.actions)
                var random = SplitMix64(seed: 0xC4EC)
                var live = state
                var correct = 0
                for _ in 0..<checks {
                    let index = 1 + random.next(workload.actions)
                    live = try history.jump(to: index, current: live)
                    if workload.check(live, at: index) { correct += 1 }
                }
                return correct
            }, measurement: { bytesPerStep.value })
        }
    }

    /// Every state kept whole, in an array reserved up front (H1's reference).
    static func naiveMemory(_ workload: SetWorkload, steps: Int) -> Workload {
        Workload(operations: steps) {
            var states: [Value] = []
            states.reserveCapacity(steps + 1)
            let bytesPerStep = Box(0.0)
            return Trial(expectedChecksum: checks, run: {
                var state = workload.initial
                states.append(state)
                let before = heapBytesInUse()
                for index in 1...steps {
                    _ = workload.perform(index, on: &state)
                    states.append(state)
                }
                bytesPerStep.value = Double(heapBytesInUse() - before) / Double(steps)
                var random = SplitMix64(seed: 0xC4EC)
                var correct = 0
                for _ in 0..<checks {
                    let index = 1 + random.next(steps)
                    if workload.check(states[index], at: index) { correct += 1 }
                }
                states = []
                return correct
            }, measurement: { bytesPerStep.value })
        }
    }

    static func jumps(_ fixture: JumpFixture, count: Int) -> Workload {
        Workload(operations: count) {
            let history = fixture.history
            var random = SplitMix64(seed: 0x1EAF)
            let targets = (0..<count).map { _ in 1 + random.next(fixture.workload.actions) }
            var times: [Double] = []
            times.reserveCapacity(count)
            let median = Box(0.0)
            return Trial(expectedChecksum: count, run: {
                var live = fixture.live
                var correct = 0
                for target in targets {
                    let start = monotonicNanoseconds()
                    live = try history.jump(to: target, current: live)
                    times.append(Double(monotonicNanoseconds() - start))
                    if fixture.workload.check(live, at: target) { correct += 1 }
                }
                fixture.live = live
                var samples = Samples()
                for time in times { samples.append(time) }
                median.value = samples.median
                return correct
            }, measurement: { median.value })
        }
    }
}

/// A value that a trial's closures share.
final class Box<Wrapped> {
    var value: Wrapped

    init(_ value: Wrapped) {
        self.value = value
    }
}
