import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayShell

/// An app's store hosted in the shell: what hosting costs against the app's reducer called
/// directly, and how fast a recording made by the app verifies through its reducer.
///
/// - H-DISP: `dispatch todos toggle {id: K}` in a shell hosting the store (the command parsed, the
///   action decoded into the app's enum, the Swift reducer run, the state encoded and diffed,
///   the step recorded in the history, the result rendered), against `reducer(&state, action)`
///   on the typed state. The state is a user and ten to-dos. Target: the shell adds at most
///   2 µs per dispatch.
/// - H-VER: `replay FILE --verify` in the host of a `Recorder` file of 1,000,000 actions (an
///   app's recording: each action a step, dispatched to the hosted store and compared with the
///   recording), against `RecordedSession.verify`, the test API, on the same file. Target: at
///   least 100,000 actions per second.
///
/// No peer: no other tool hosts an app's reducers. Quick mode runs 2,000 dispatches and 3,000
/// recorded actions and checks results only.
struct HostingBenchmarks: BenchmarkGroup {
    let name = "Hosted stores"

    func rows(for mode: Mode) -> [BenchmarkRow] {
        let dispatches = mode == .quick ? 2_000 : 200_000
        let recorded = mode == .quick ? 3_000 : 1_000_000
        let path = NSTemporaryDirectory() + "patchbay-bench-hosted-\(getpid()).jsonl"
        return [
            BenchmarkRow(
                id: "H-DISP", title: "shell: dispatch to a hosted store (Swift reducer, Codable state of 10 to-dos), per dispatch",
                ours: Self.shellDispatch(dispatches),
                reference: Reference(kind: .floor, name: "the reducer called directly", workload: Self.directReduce(dispatches)),
                target: .overheadAtMost(2_000),
                notes: { ours, direct, _ in
                    ["hosted dispatch: \(Self.micro(ours)) µs; the reducer alone: \(Self.micro(direct ?? .nan)) µs; "
                        + "the shell adds \(Self.micro(ours - (direct ?? .nan))) µs per dispatch"]
                }
            ),
            BenchmarkRow(
                id: "H-VER", title: "replay FILE --verify of \(recorded) recorded app actions through the hosted reducer, per action",
                ours: Self.replayVerify(path, actions: recorded),
                reference: Reference(kind: .baseline, name: "RecordedSession.verify (the test API)", workload: Self.testAPI(path, actions: recorded)),
                target: .perSecondAtLeast(100_000),
                notes: { ours, api, _ in
                    ["replay --verify: \(Self.rate(ours)) actions/s; RecordedSession.verify: \(Self.rate(api ?? .nan)) actions/s"]
                },
                cleanUp: { try? FileManager.default.removeItem(atPath: path) }
            ),
        ]
    }

    static func micro(_ nanoseconds: Double) -> String { formatted(nanoseconds / 1_000, digits: 2) }
    static func rate(_ nanosecondsPerAction: Double) -> String { formatted(1e9 / nanosecondsPerAction, digits: 0) }

    // MARK: The app

    struct Todo: Codable, Equatable { var id: Int; var title: String; var done = false }
    struct TodoState: Codable, Equatable {
        var userName = "Max"
        var todos = (1...10).map { Todo(id: $0, title: "to-do number \($0)") }
    }
    enum TodoAction: Codable { case toggle(id: Int), rename(id: Int, title: String) }

    static var reducer: Reducer<TodoState, TodoAction> {
        Reducer { state, action in
            switch action {
            case .toggle(let id): state.todos[id - 1].done.toggle()
            case .rename(let id, let title): state.todos[id - 1].title = title
            }
        }
    }

    /// The to-dos done after toggling ids 1...10 in turn `count` times.
    static func doneAfter(_ count: Int) -> Int {
        (1...10).filter { id in (count / 10 + (id <= count % 10 ? 1 : 0)) % 2 == 1 }.count
    }

    // MARK: H-DISP

    static func shellDispatch(_ count: Int) -> Workload {
        Workload(operations: count) {
            let shell = Shell()
            try shell.host([HostedStore("todos", initialState: TodoState(), reducer: reducer)])
            let commands = (0..<count).map { "dispatch todos toggle {id: \($0 % 10 + 1)}" }
            return Trial(expectedChecksum: doneAfter(count)) {
                for command in commands where shell.execute(command).status != .success {
                    throw CorrectnessFailure(description: "'\(command)' failed")
                }
                return try SessionFixture.output("state todos", in: shell).components(separatedBy: "done: true").count - 1
            }
        }
    }

    static func directReduce(_ count: Int) -> Workload {
        Workload(operations: count) {
            var state = TodoState()
            let actions = (0..<count).map { TodoAction.toggle(id: $0 % 10 + 1) }
            return Trial(expectedChecksum: doneAfter(count)) {
                for action in actions { reducer(&state, action) }
                return state.todos.filter(\.done).count
            }
        }
    }

    // MARK: H-VER

    /// Records `actions` toggles and renames into `path` with the library `Recorder`, once.
    static func record(_ path: String, actions: Int) throws {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        let store = Store(initialState: TodoState(), reducer: reducer)
        let recorder = try Recorder(store: store, path: path, storeName: "todos")
        for index in 0..<actions {
            store.dispatch(index % 7 == 0 ? .rename(id: index % 10 + 1, title: "renamed \(index)") : .toggle(id: index % 10 + 1))
        }
        recorder.stop()
        if let error = recorder.error { throw CorrectnessFailure(description: "recording failed: \(error)") }
    }

    static func replayVerify(_ path: String, actions: Int) -> Workload {
        Workload(operations: actions) {
            try record(path, actions: actions)
            let shell = Shell()
            try shell.host([HostedStore("todos", initialState: TodoState(), reducer: reducer)])
            return Trial(expectedChecksum: actions) {
                let text = try SessionFixture.output("replay \(path) --verify", in: shell)
                guard text.hasPrefix("verified \(actions) steps") else { throw CorrectnessFailure(description: String(text.prefix(300))) }
                return actions
            }
        }
    }

    static func testAPI(_ path: String, actions: Int) -> Workload {
        Workload(operations: actions) {
            try record(path, actions: actions)
            return Trial(expectedChecksum: actions) { try RecordedSession(path: path).verify(reducer) }
        }
    }
}
