import Foundation
import Synchronization
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayShell

/// What each action of an app's typed store costs as its state grows: a state of N items
/// (`struct Item: Codable, Equatable { name; a; b }`, `State { items: [Item]; counter }`) and two
/// actions, "update one item" (`state.items[i].a = v`) and "append" (one item more), for N = 10,
/// 1,000, 10,000 and 100,000. The per-step rows are set against the reducer alone; beside them,
/// the copy floor (one copy of the state, timed in the same run).
///
/// - SD-N: `Store.dispatch` of "update one item", against the reducer called directly. Target:
///   at most 2x.
/// - SA-N: the same for "append".
/// - SR-N: `Store.dispatch` with the default `Recorder` observing the store, against dispatch
///   without it. Target: the recorder adds at most 5 µs per action on the app's thread.
/// - SX-N: `Store.dispatch` with a `Recorder` of `.everyChange` (every step's patch), per
///   action, the file written to its end. Target: at most 2x the copy floor + 0.1 ms.
/// - SV-N: `RecordedSession.verify` of such a recording (200,000 actions, with the checkpoints
///   the recorder chose), per action, the reading and decoding of the file's states included.
///   Target at N = 100,000: at least 100,000 actions per second; reported at the other sizes.
/// - SH-N: the shell's `dispatch` to the store hosted (`HostedStore`), "update one item", per
///   dispatch. Target: at most 2x the copy floor + 0.1 ms.
/// - SJ-N: the shell's `jump` in that store's history, one step back and one forward, per jump,
///   then a dispatch (which decodes the state jumped to). Target: as SH.
/// - SK-N: the shell's `skip` and `unskip` of a step of that store's history with 20 steps
///   after it (the app's reducer runs again on each), per step run again. Target: as SH.
/// - SQ-N: the shell's `diff` of two steps and `blame` of one item's field in that history,
///   per command. Target: as SH.
/// - SC-N: one copy of the state (the copy floor), reported.
/// - SM: `inspect` of an app's recording of 100,000 "update one item" steps at N = 100,000 (a
///   file with every step's patch), in a shell that hosts the app's store: the heap it holds, less the steps' changes (100,000 arrays
///   of `ValueChange`, built in the same run), as a multiple of one state's encoding. Target:
///   below 3.
///
/// Each row's note gives how its figure grows per 10x of N, from the size before it.
///
/// Quick mode runs N = 10 and 1,000 with few actions, and checks results only.
struct ScaleBenchmarks: BenchmarkGroup {
    let name = "Scale: an app's typed store of N items"

    struct Item: Codable, Equatable, Sendable { var name: String; var a: Int; var b: Int }
    struct State: Codable, Equatable, Sendable {
        var items: [Item]
        var counter = 0
        init(size: Int) { items = (0..<size).map { Item(name: "item \($0)", a: $0, b: 0) } }
    }
    enum Action: Codable, Sendable { case update(index: Int, value: Int), append(name: String) }

    static var reducer: Reducer<State, Action> {
        Reducer { state, action in
            switch action {
            case .update(let index, let value): state.items[index].a = value
            case .append(let name): state.items.append(Item(name: name, a: 0, b: 0))
            }
            state.counter += 1
        }
    }

    func rows(for mode: Mode) -> [BenchmarkRow] {
        let sizes = mode == .quick ? [10, 1_000] : [10, 1_000, 10_000, 100_000]
        let actions = mode == .quick ? 500 : 20_000
        let encodeAction = BenchmarkRow(
            id: "SE", title: "encode one action (.update(index:value:)) with ActionMapping.codable(), on the app's thread",
            ours: Self.encodeAction(actions), target: .reported)
        let memorySize = mode == .quick ? 1_000 : 100_000
        let memoryPath = NSTemporaryDirectory() + "patchbay-bench-scale-memory-\(getpid()).jsonl"
        let inspectMemory = BenchmarkRow(
            id: "SM", title: "inspect of an app's recording, \(memorySize) steps at N = \(memorySize): heap held beyond the steps' changes, in states",
            ours: Self.inspectMemory(size: memorySize, steps: memorySize, path: memoryPath), target: .factorBelow(3),
            notes: { _, _, _ in
                let (held, state, changes) = Self.inspectHeap.withLock { $0 }
                return ["inspect held \(formatted(held / 1e6, digits: 1)) MB: one state is \(formatted(state / 1e6, digits: 1)) MB, "
                    + "the steps' changes \(formatted(changes / 1e6, digits: 1)) MB"]
            },
            cleanUp: { try? FileManager.default.removeItem(atPath: memoryPath) })
        return [encodeAction, inspectMemory] + sizes.flatMap { size -> [BenchmarkRow] in
            let path = NSTemporaryDirectory() + "patchbay-bench-scale-\(getpid())-\(size).jsonl"
            return [
                BenchmarkRow(
                    id: "SD-\(size)", title: "Store.dispatch, update one item, N = \(size)",
                    ours: Self.dispatch(size: size, actions: actions, append: false),
                    reference: Reference(kind: .floor, name: "the reducer alone", workload: Self.reduce(size: size, actions: actions, append: false)),
                    target: .ratioAtMost(2), notes: Self.growth("SD", size)),
                BenchmarkRow(
                    id: "SA-\(size)", title: "Store.dispatch, append, N = \(size)",
                    ours: Self.dispatch(size: size, actions: actions, append: true),
                    reference: Reference(kind: .floor, name: "the reducer alone", workload: Self.reduce(size: size, actions: actions, append: true)),
                    target: .ratioAtMost(2), notes: Self.growth("SA", size)),
                BenchmarkRow(
                    id: "SR-\(size)", title: "Store.dispatch with the default Recorder, update one item, N = \(size)",
                    ours: Self.recorded(size: size, actions: actions, path: path),
                    reference: Reference(kind: .baseline, name: "dispatch, not recorded",
                                         workload: Self.dispatch(size: size, actions: actions, append: false)),
                    target: .overheadAtMost(5_000), notes: Self.growth("SR", size),
                    cleanUp: { try? FileManager.default.removeItem(atPath: path) }),
                BenchmarkRow(
                    id: "SX-\(size)", title: "Store.dispatch with a Recorder of every change, update one item, N = \(size)",
                    ours: Self.recordedEveryChange(size: size, actions: Self.hostedActions(size, mode), path: path + ".every"),
                    reference: Reference(kind: .floor, name: "one copy of the state", workload: Self.copy(size: size)),
                    target: .floorTimesPlus(times: 2, plus: 100_000), notes: Self.growth("SX", size),
                    cleanUp: { try? FileManager.default.removeItem(atPath: path + ".every") }),
                BenchmarkRow(
                    id: "SV-\(size)", title: "RecordedSession.verify of the default recording, N = \(size), per action",
                    ours: Self.verify(size: size, actions: mode == .quick ? actions : 200_000, path: path + ".verify"),
                    target: size >= 100_000 ? .perSecondAtLeast(100_000) : .reported,
                    notes: { ours, reference, second in
                        ["verify at N = \(size): \(formatted(1e9 / ours, digits: 0)) actions/s"] + Self.growth("SV", size)(ours, reference, second)
                    },
                    cleanUp: { try? FileManager.default.removeItem(atPath: path + ".verify") }),
                BenchmarkRow(
                    id: "SH-\(size)", title: "shell: dispatch to a hosted store, update one item, N = \(size)",
                    ours: Self.hostedDispatch(size: size, actions: Self.hostedActions(size, mode)),
                    reference: Reference(kind: .floor, name: "one copy of the state", workload: Self.copy(size: size)),
                    target: .floorTimesPlus(times: 2, plus: 100_000), notes: Self.growth("SH", size)),
                BenchmarkRow(
                    id: "SJ-\(size)", title: "shell: jump back and forth in a hosted store's history, N = \(size), per jump",
                    ours: Self.hostedJump(size: size, jumps: Self.hostedActions(size, mode)),
                    reference: Reference(kind: .floor, name: "one copy of the state", workload: Self.copy(size: size)),
                    target: .floorTimesPlus(times: 2, plus: 100_000), notes: Self.growth("SJ", size)),
                BenchmarkRow(
                    id: "SK-\(size)", title: "shell: skip and unskip in a hosted store's history, N = \(size), per step run again",
                    ours: Self.hostedSkip(size: size, rounds: Swift.max(2, Self.hostedActions(size, mode) / 40)),
                    reference: Reference(kind: .floor, name: "one copy of the state", workload: Self.copy(size: size)),
                    target: .floorTimesPlus(times: 2, plus: 100_000), notes: Self.growth("SK", size)),
                BenchmarkRow(
                    id: "SQ-\(size)", title: "shell: diff and blame in a hosted store's history, N = \(size), per command",
                    ours: Self.hostedQueries(size: size, rounds: Self.hostedActions(size, mode)),
                    reference: Reference(kind: .floor, name: "one copy of the state", workload: Self.copy(size: size)),
                    target: .floorTimesPlus(times: 2, plus: 100_000), notes: Self.growth("SQ", size)),
                BenchmarkRow(
                    id: "SC-\(size)", title: "the copy floor: one copy of the state, N = \(size)",
                    ours: Self.copy(size: size), target: .reported, notes: Self.growth("SC", size)),
            ]
        }
    }

    /// Each series' figure (ns per operation) by N, as the rows' notes see them, in order.
    private static let figures = Mutex<[String: (size: Int, figure: Double)]>([:])

    /// A row's note: how its figure grew per 10x of N since the series' row before (the first
    /// row of a series only records its figure).
    static func growth(_ series: String, _ size: Int) -> (Double, Double?, Double?) -> [String] {
        { ours, _, _ in
            let last = figures.withLock { figures in
                defer { figures[series] = (size, ours) }
                return figures[series]
            }
            guard let last, last.size < size, last.figure > 0 else { return [] }
            let perTenfold = Foundation.pow(ours / last.figure, 1 / Foundation.log10(Double(size) / Double(last.size)))
            return ["\(series) grows \(formatted(perTenfold, digits: 2))x per 10x of N (from N = \(last.size) to \(size))"]
        }
    }

    /// Hosted dispatches per trial: fewer for a larger state, so that a trial takes about as
    /// long at every size.
    static func hostedActions(_ size: Int, _ mode: Mode) -> Int {
        mode == .quick ? 20 : Swift.max(20, Swift.min(5_000, 2_000_000 / size))
    }

    static func hostedDispatch(size: Int, actions count: Int) -> Workload {
        Workload(operations: count) {
            let shell = Shell()
            try shell.host([HostedStore("app", initialState: State(size: size), reducer: reducer)])
            let commands = (0..<count).map { "dispatch app update {index: \(($0 &* 7919) % size), value: \($0)}" }
            return Trial(expectedChecksum: count) {
                for command in commands where shell.execute(command).status != .success {
                    throw CorrectnessFailure(description: "'\(command)' failed")
                }
                return Int(try SessionFixture.output("state app .counter", in: shell)) ?? -1
            }
        }
    }

    /// `jump app -1` and `jump app +1` in turn (the history holds a few dispatches), then one
    /// dispatch, which runs the app's reducer on the state jumped to.
    static func hostedJump(size: Int, jumps count: Int) -> Workload {
        Workload(operations: count + 1) {
            let shell = Shell()
            try shell.host([HostedStore("app", initialState: State(size: size), reducer: reducer)])
            for index in 0..<4 where shell.execute("dispatch app update {index: \(index), value: \(index)}").status != .success {
                throw CorrectnessFailure(description: "a dispatch failed")
            }
            let commands = (0..<count).map { $0 % 2 == 0 ? "jump app 3" : "jump app 4" } + ["dispatch app update {index: 0, value: 9}"]
            return Trial(expectedChecksum: 5) {
                for command in commands where shell.execute(command).status != .success {
                    throw CorrectnessFailure(description: "'\(command)' failed")
                }
                return Int(try SessionFixture.output("state app .counter", in: shell)) ?? -1
            }
        }
    }

    /// A hosted store with `steps` dispatches ("update one item") in its history.
    private static func hostedHistory(size: Int, steps: Int) throws -> Shell {
        let shell = Shell()
        try shell.host([HostedStore("app", initialState: State(size: size), reducer: reducer)])
        for index in 0..<steps where shell.execute("dispatch app update {index: \(index % size), value: \(index)}").status != .success {
            throw CorrectnessFailure(description: "a dispatch failed")
        }
        return shell
    }

    /// `skip app 2` and `unskip app 2` in turn, in a history of 22 steps: each runs the app's
    /// reducer again on the 20 steps after step 2. Counted per step run again.
    static func hostedSkip(size: Int, rounds: Int) -> Workload {
        Workload(operations: rounds * 40) {
            let shell = try hostedHistory(size: size, steps: 22)
            let commands = (0..<rounds).flatMap { _ in ["skip app 2", "unskip app 2"] }
            return Trial(expectedChecksum: 22) {
                for command in commands where shell.execute(command).status != .success {
                    throw CorrectnessFailure(description: "'\(command)' failed")
                }
                return Int(try SessionFixture.output("state app .counter", in: shell)) ?? -1
            }
        }
    }

    /// `diff app 3 4` and `blame app items[3].a` in turn, in a history of 22 steps.
    static func hostedQueries(size: Int, rounds: Int) -> Workload {
        Workload(operations: rounds) {
            let shell = try hostedHistory(size: size, steps: 22)
            let commands = (0..<rounds).map { $0 % 2 == 0 ? "diff app 3 4" : "blame app items[3].a" }
            // The last command is a blame: one step changed items[3].a.
            return Trial(expectedChecksum: 1) {
                var lines = 0
                for command in commands {
                    let outcome = shell.execute(command)
                    guard outcome.status == .success else { throw CorrectnessFailure(description: "'\(command)' failed") }
                    lines = outcome.lines.count
                }
                return lines
            }
        }
    }

    /// The last SM trial's figures, in bytes: held by `inspect`, one state, the steps' changes.
    private static let inspectHeap = Mutex<(Double, Double, Double)>((0, 0, 0))

    /// Writes a recording of `steps` "update one item" actions with their patches, then
    /// measures what `inspect` of it holds (see SM).
    static func inspectMemory(size: Int, steps: Int, path: String) -> Workload {
        Workload(operations: 1) {
            let stateBytes: Int, changesBytes: Int
            do {
                let before = heapBytesInUse()
                let state = try ValueEncoder().encode(State(size: size))
                stateBytes = heapBytesInUse() - before
                let writer = try SessionWriter(path: path, replacing: true)
                try writer.write(.store(name: "app", state: state))
                let mapping = ActionMapping<Action>.codable()
                var values = Array(0..<size)
                var events: [SessionEvent] = []
                let changesBefore = heapBytesInUse()
                var kept: [[ValueChange]] = []
                kept.reserveCapacity(steps)
                for step in 1...steps {
                    let index = (step &* 7919) % size
                    let changes = [
                        ValueChange(path: [.key("items"), .index(index), .key("a")], operation: .replace, old: .int(values[index]), new: .int(step)),
                        ValueChange(path: [.key("counter")], operation: .replace, old: .int(step - 1), new: .int(step)),
                    ]
                    values[index] = step
                    kept.append(changes)
                    events.append(.action(StoreStep(store: "app", index: step, action: try mapping.object(for: .update(index: index, value: step)), changes: JSONPatch.operations(changes), cause: nil), hash: nil))
                    if events.count == 1_000 {
                        _ = try writer.write(events)
                        events = []
                    }
                }
                changesBytes = heapBytesInUse() - changesBefore
                _ = try writer.write(events)
                writer.close()
                withExtendedLifetime((state, kept)) {}
            }
            let factor = Box(0.0)
            return Trial(expectedChecksum: steps, run: {
                // The host of the app's store, as a developer inspects the app's recording.
                let shell = Shell()
                try shell.host([HostedStore("app", initialState: State(size: size), reducer: reducer)])
                let before = heapBytesInUse()
                guard shell.execute("inspect \(path)").status == .success else { throw CorrectnessFailure(description: "inspect failed") }
                let held = heapBytesInUse() - before
                factor.value = Double(held - changesBytes) / Double(stateBytes)
                inspectHeap.withLock { $0 = (Double(held), Double(stateBytes), Double(changesBytes)) }
                return withExtendedLifetime(shell) { Int((try? SessionFixture.output("state app .counter", in: shell)) ?? "") ?? -1 }
            }, measurement: { factor.value })
        }
    }

    static func actionList(size: Int, count: Int, append: Bool) -> [Action] {
        (0..<count).map { append ? .append(name: "new \($0)") : .update(index: ($0 &* 7919) % size, value: $0) }
    }

    static func reduce(size: Int, actions count: Int, append: Bool) -> Workload {
        Workload(operations: count) {
            var state = State(size: size)
            let actions = actionList(size: size, count: count, append: append)
            return Trial(expectedChecksum: count) {
                for action in actions { reducer(&state, action) }
                return state.counter
            }
        }
    }

    static func dispatch(size: Int, actions count: Int, append: Bool) -> Workload {
        Workload(operations: count) {
            let store = Store(initialState: State(size: size), reducer: reducer)
            let actions = actionList(size: size, count: count, append: append)
            return Trial(expectedChecksum: count) {
                for action in actions { store.dispatch(action) }
                return store.state.counter
            }
        }
    }

    static func recorded(size: Int, actions count: Int, path: String) -> Workload {
        Workload(operations: count) {
            try? FileManager.default.removeItem(atPath: path)
            let store = Store(initialState: State(size: size), reducer: reducer)
            let recorder = try Recorder(store: store, path: path)
            let actions = actionList(size: size, count: count, append: false)
            return Trial(expectedChecksum: count) {
                for action in actions { store.dispatch(action) }
                if let error = recorder.error { throw CorrectnessFailure(description: "recording failed: \(error)") }
                return withExtendedLifetime(recorder) { store.state.counter }
            }
        }
    }

    static func recordedEveryChange(size: Int, actions count: Int, path: String) -> Workload {
        Workload(operations: count) {
            try? FileManager.default.removeItem(atPath: path)
            let store = Store(initialState: State(size: size), reducer: reducer)
            let recorder = try Recorder(store: store, path: path, detail: .everyChange)
            let actions = actionList(size: size, count: count, append: false)
            return Trial(expectedChecksum: count) {
                for action in actions { store.dispatch(action) }
                recorder.flush()
                if let error = recorder.error { throw CorrectnessFailure(description: "recording failed: \(error)") }
                return store.state.counter
            }
        }
    }

    static func verify(size: Int, actions count: Int, path: String) -> Workload {
        Workload(operations: count) {
            if !FileManager.default.fileExists(atPath: path) {
                let store = Store(initialState: State(size: size), reducer: reducer)
                let recorder = try Recorder(store: store, path: path)
                for action in actionList(size: size, count: count, append: false) { store.dispatch(action) }
                recorder.stop()
                if let error = recorder.error { throw CorrectnessFailure(description: "recording failed: \(error)") }
            }
            return Trial(expectedChecksum: count) { try RecordedSession(path: path).verify(reducer) }
        }
    }

    static func encodeAction(_ count: Int) -> Workload {
        Workload(operations: count) {
            let mapping = ActionMapping<Action>.codable()
            let actions = actionList(size: 1_000, count: count, append: false)
            return Trial(expectedChecksum: count) {
                var encoded = 0
                for action in actions where try mapping.object(for: action)["type"] == "update" { encoded += 1 }
                return encoded
            }
        }
    }

    static func copy(size: Int) -> Workload {
        Workload(operations: 1) {
            let state = State(size: size)
            return Trial(expectedChecksum: size) {
                var copy = state
                copy.items.reserveCapacity(copy.items.count + 1)
                return copy.items.count
            }
        }
    }
}
