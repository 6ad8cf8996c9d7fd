import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory
import Testing

private struct Counter: Codable, Equatable {
    var count = 0
    var items: [String] = []
    var ratio = 0.5
}

private enum CounterAction: Codable {
    case increment(by: Int)
    case add(String)
    case insert(String, at: Int)
    case reset
    case setRatio(Double)
}

private var counterReducer: Reducer<Counter, CounterAction> {
    Reducer { state, action in
        switch action {
        case .increment(let by): state.count += by
        case .add(let item): state.items.append(item)
        case .insert(let item, let index): state.items.insert(item, at: index)
        case .reset: state = Counter()
        case .setRatio(let ratio): state.ratio = ratio
        }
    }
}

/// The states a session's store went through, rebuilt from its lines, checked against the
/// hashes and checkpoints on the way: `nil` for a state the file does not hold (an action line
/// without its patch, before the next checkpoint).
private func replay(_ load: SessionLoad) throws -> (states: [Value?], actions: [StoreStep<JSONPatch.Operation>]) {
    var states: [Value?] = []
    var actions: [StoreStep<JSONPatch.Operation>] = []
    for recorded in load.events {
        switch recorded.event {
        case .store(_, let state, _):
            states = [state]
        case .action(let action, let hash):
            #expect(action.index == states.count)
            guard var state = states.last!, let patch = action.recordedChanges else {
                states.append(nil)
                actions.append(action)
                continue
            }
            _ = try JSONPatch.apply(patch, to: &state)
            #expect(hash == StateDigest(state))
            states.append(state)
            actions.append(action)
        case .checkpoint(_, let index, let state):
            #expect(index == states.count - 1)
            if states.last! == nil { states[states.count - 1] = state }
            #expect(state == states.last)
        default:
            Issue.record("unexpected event \(recorded.event)")
        }
    }
    return (states, actions)
}

@Suite struct RecorderTests {
    @Test func aRecordingHoldsTheInitialStateAndEveryAction() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = Store(initialState: Counter(), reducer: counterReducer)
        let recorder = try Recorder(store: store, path: path, detail: .everyChange, created: Date(timeIntervalSince1970: 1_795_255_200))
        store.dispatch(.increment(by: 2))
        store.dispatch(.add("milk"))
        store.dispatch(.insert("eggs", at: 0))
        store.dispatch(.setRatio(0.25))
        #expect(recorder.isRecording)
        recorder.stop()
        #expect(!recorder.isRecording)
        store.dispatch(.increment(by: 1))
        #expect(recorder.error == nil)

        let load = try SessionReader.read(contentsOf: path)
        #expect(load.damage == nil)
        #expect(load.header.created == "2026-11-21T10:00:00Z")
        #expect(load.events.first?.event == .store(name: "app", state: ["count": 0, "items": [], "ratio": 0.5]))
        let (states, actions) = try replay(load)
        #expect(actions.map(\.action) == [
            ["type": "increment", "by": 2], ["type": "add", "_0": "milk"], ["type": "insert", "_0": "eggs", "at": 0],
            ["type": "setRatio", "_0": 0.25],
        ])
        #expect(states.last == ["count": 2, "items": ["eggs", "milk"], "ratio": 0.25])
        #expect(actions[2].recordedChanges == [JSONPatch.Operation(.add, path: JSONPointer("/items/0")!, value: "eggs")])
        #expect(load.events.map(\.seq) == Array(1...5))
    }

    @Test func theFileHoldsTheActionsSoFarAfterAFlush() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = Store(initialState: Counter(), reducer: counterReducer)
        let recorder = try Recorder(store: store, path: path, storeName: "counter", detail: .everyChange)
        store.dispatch(.increment(by: 1))
        recorder.flush()
        #expect(recorder.isRecording)
        let load = try SessionReader.read(contentsOf: path)
        #expect(load.events.count == 2)
        guard case .action(let action, _)? = load.events.last?.event else {
            Issue.record("no action line")
            return
        }
        #expect(action.store == "counter")
        #expect(action.recordedChanges == [JSONPatch.Operation(.replace, path: JSONPointer("/count")!, value: 1)])
        withExtendedLifetime(recorder) {}
    }

    @Test func actionsBecomeObjectsWithAType() throws {
        #expect(try recordedActions(CounterAction.reset) == [["type": "reset"]])
        #expect(try recordedActions(Typed(type: "Load", id: 4)) == [["type": "Load", "id": 4]])
        #expect(try recordedActions(Untyped(id: 4)) == [["type": "Untyped", "value": ["id": 4]]])
        #expect(try recordedActions("go") == [["type": "String", "value": "go"]])
        #expect(try recordedActions(Nested.wrap(type: "inner")) == [["type": "Nested", "value": ["wrap": ["type": "inner"]]]])
    }

    @Test func checkpointsComeEveryIntervalOfActions() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = Store(initialState: Counter(), reducer: counterReducer)
        let recorder = try Recorder(store: store, path: path, detail: .everyChange, checkpointInterval: 3)
        for _ in 0..<7 { store.dispatch(.increment(by: 1)) }
        recorder.stop()
        let load = try SessionReader.read(contentsOf: path)
        let checkpoints = load.events.compactMap { recorded -> Int? in
            if case .checkpoint(_, let index, _) = recorded.event { return index }
            return nil
        }
        #expect(checkpoints == [3, 6])
        _ = try replay(load)
    }

    @Test func theDefaultIntervalFollowsTheSizeOfTheState() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = Store(initialState: Counter(), reducer: counterReducer)
        let recorder = try Recorder(store: store, path: path, detail: .everyChange)
        for index in 0..<40 { store.dispatch(.add("item \(index)")) }
        for _ in 0..<40 { store.dispatch(.increment(by: 1)) }
        recorder.stop()
        let load = try SessionReader.read(contentsOf: path)
        let checkpoints = load.events.compactMap { recorded -> Int? in
            if case .checkpoint(_, let index, _) = recorded.event { return index }
            return nil
        }
        // 32 at first (the state is small); then the state has 32 items and 2 numbers: 34.
        #expect(checkpoints == [32, 66])
        _ = try replay(load)
    }

    @Test func droppedActionsAreLeftOutAndCausesFollowTheRecordedIndexes() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let dropNegative = Middleware<Counter, CounterAction> { action, _ in
            if case .increment(let by) = action, by < 0 { return nil }
            return action
        }
        let store = Store(initialState: Counter(), reducer: counterReducer, middleware: [dropNegative])
        store.dispatch(.increment(by: 5))
        let recorder = try Recorder(store: store, path: path, detail: .everyChange)
        var followed = false
        let subscription = store.subscribe { state in
            if state.count == 6, !followed {
                followed = true
                store.dispatch(.add("six"))
            }
        }
        store.dispatch(.increment(by: -1))
        store.dispatch(.increment(by: 1))
        recorder.stop()
        subscription.disconnect()
        let (states, actions) = try replay(try SessionReader.read(contentsOf: path))
        #expect(actions.map(\.index) == [1, 2])
        #expect(actions.map(\.cause) == [nil, 1])
        #expect(states.first == ["count": 5, "items": [], "ratio": 0.5])
    }

    @Test func anActionThatCannotBeEncodedEndsTheRecordingWithoutACrash() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = Store(initialState: Counter(), reducer: counterReducer)
        let recorder = try Recorder(store: store, path: path, detail: .everyChange)
        store.dispatch(.increment(by: 1))
        store.dispatch(.setRatio(.nan))
        store.dispatch(.increment(by: 1))
        #expect(!recorder.isRecording)
        guard case .encoding(let what, let message)? = recorder.error else {
            Issue.record("expected an encoding error, got \(String(describing: recorder.error))")
            return
        }
        #expect(what == "action 2")
        #expect(message == "setRatio._0: nan is not a finite number")
        #expect(store.state.count == 2)
        let load = try SessionReader.read(contentsOf: path)
        #expect(load.damage == nil)
        #expect(load.events.count == 2)
    }

    @Test func aFileThatCannotBeCreatedIsThrown() {
        let store = Store(initialState: Counter(), reducer: counterReducer)
        #expect(throws: RecorderError.session(SessionError(path: "/nonexistent/a.pb", .cannotOpen(errno: ENOENT)))) {
            try Recorder(store: store, path: "/nonexistent/a.pb", detail: .everyChange)
        }
    }

    @Test func aReleasedRecorderStopsRecording() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = Store(initialState: Counter(), reducer: counterReducer)
        var recorder: Recorder<Counter, CounterAction>? = try Recorder(store: store, path: path, detail: .everyChange)
        store.dispatch(.increment(by: 1))
        recorder = nil
        store.dispatch(.increment(by: 1))
        #expect(recorder == nil)
        #expect(try SessionReader.read(contentsOf: path).events.count == 2)
    }

    @Test func errorsReadAsOneLine() {
        #expect(
            RecorderError.encoding(what: "action 2", message: "setRatio._0: nan is not a finite number").description
                == "cannot record action 2: setRatio._0: nan is not a finite number")
    }
}

private struct Typed: Codable {
    var type: String
    var id: Int
}

private struct Untyped: Codable {
    var id: Int
}

private enum Nested: Codable {
    case wrap(type: String)
}

/// The action objects recorded for dispatching `action` to a store of any state.
private func recordedActions<Action: Codable>(_ action: Action) throws -> [Value] {
    let path = temporaryPath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let store = Store(initialState: 0, reducer: Reducer<Int, Action> { state, _ in state += 1 })
    let recorder = try Recorder(store: store, path: path, detail: .everyChange)
    store.dispatch(action)
    recorder.stop()
    return try SessionReader.read(contentsOf: path).events.compactMap { recorded in
        if case .action(let action, _) = recorded.event { return action.action }
        return nil
    }
}

@Suite struct RecordingAnyStoreTests {
    /// A store as an app might write one by hand (or a ReSwift middleware sees it): no
    /// Patchbay `Store`, one `record` per reduced action.
    private final class HandMadeStore {
        private(set) var state = Counter()
        let recorder: Recorder<Counter, CounterAction>

        init(path: String) throws {
            recorder = try Recorder(path: path, storeName: "hand", initialState: state, detail: .everyChange, created: Date(timeIntervalSince1970: 1_795_255_200))
        }

        func dispatch(_ action: CounterAction) {
            switch action {
            case .increment(let by): state.count += by
            case .add(let item): state.items.append(item)
            case .insert(let item, let index): state.items.insert(item, at: index)
            case .reset: state = Counter()
            case .setRatio(let ratio): state.ratio = ratio
            }
            recorder.record(action, state: state)
        }
    }

    @Test func aHandMadeStoreRecordsWithOneCallPerAction() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try HandMadeStore(path: path)
        store.dispatch(.increment(by: 3))
        store.dispatch(.setRatio(1))
        store.dispatch(.add("milk"))
        store.recorder.stop()
        #expect(store.recorder.error == nil)

        let load = try SessionReader.read(contentsOf: path)
        #expect(load.header == SessionHeader(created: "2026-11-21T10:00:00Z"))
        guard case .store(let name, let initial, _)? = load.events.first?.event, case .object(let members) = initial else {
            Issue.record("no store line")
            return
        }
        #expect(name == "hand")
        #expect(Array(members.keys) == ["count", "items", "ratio"], "keys in the order of declaration")
        let (states, actions) = try replay(load)
        #expect(actions.map(\.action) == [["type": "increment", "by": 3], ["type": "setRatio", "_0": 1.0], ["type": "add", "_0": "milk"]])
        // A Double stays a decimal, even with an integral value.
        #expect(actions[1].recordedChanges == [JSONPatch.Operation(.replace, path: JSONPointer("/ratio")!, value: .decimal(1))])
        guard case .decimal? = states.last??["ratio"] else {
            Issue.record("ratio is not a decimal: \(String(describing: states.last??["ratio"]))")
            return
        }
        #expect(states.last == ["count": 3, "items": ["milk"], "ratio": 1.0])
    }

    @Test func causesAreTheRecordedIndexesGiven() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = try Recorder<Counter, CounterAction>(path: path, initialState: Counter(), detail: .everyChange)
        recorder.record(.increment(by: 1), state: Counter(count: 1))
        recorder.record(.add("x"), state: Counter(count: 1, items: ["x"]), cause: 1)
        recorder.stop()
        let (_, actions) = try replay(try SessionReader.read(contentsOf: path))
        #expect(actions.map(\.cause) == [nil, 1])
    }

    @Test func aMappingOfOneStructPerActionIsUsed() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = try Recorder<Int, any Sendable>(
            path: path, initialState: 0, actions: .types([ActionType(Bump.self), ActionType(Clear.self, name: "clear")]), detail: .everyChange)
        recorder.record(Bump(by: 2), state: 2)
        recorder.record(Clear(), state: 0)
        recorder.record("not registered", state: 0)
        #expect(recorder.error == .encoding(what: "action 3", message: "no action type is registered for String"))
        let (states, actions) = try replay(try SessionReader.read(contentsOf: path))
        #expect(actions.map(\.action) == [["type": "Bump", "by": 2], ["type": "clear"]])
        #expect(states == [0, 2, 0])
    }

    @Test func aStateThatIsNotCodableIsRecordedThroughReflection() throws {
        final class Connection { var onClose: () -> Void = {} }
        struct Screen { var title: String; var visits: Int; var connection: Connection }
        enum Tap { case open(id: Int), close }
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var screen = Screen(title: "home", visits: 0, connection: Connection())
        let recorder = try Recorder<Screen, Tap>(path: path, reflecting: screen, detail: .everyChange, created: Date(timeIntervalSince1970: 1_795_255_200))
        #expect(recorder.isReflecting)
        screen.visits = 1
        recorder.record(.open(id: 7), state: screen)
        recorder.record(.close, state: screen)
        recorder.stop()
        #expect(recorder.error == nil)

        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix(#"{"patchbay":"session","version":1,"created":"2026-11-21T10:00:00Z","reflection":true}"# + "\n"))
        let load = try SessionReader.read(contentsOf: path)
        #expect(load.header.recordedThroughReflection)
        let (states, actions) = try replay(load)
        #expect(actions.map(\.action) == [["type": "open", "id": 7], ["type": "close"]])
        #expect(states.last??["visits"] == 1)
        #expect(states.last??["connection"]?["onClose"]?["$unrepresentable"] == "() -> ()")
    }

    @Test func reflectedStatesCanHaveCodableActions() throws {
        struct Opaque { var handler: () -> Int }
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = try Recorder<Opaque, CounterAction>(path: path, reflecting: Opaque { 1 }, actions: .codable(), detail: .everyChange)
        recorder.record(.increment(by: 1), state: Opaque { 2 })
        recorder.stop()
        let (_, actions) = try replay(try SessionReader.read(contentsOf: path))
        #expect(actions.map(\.action) == [["type": "increment", "by": 1]])
        #expect(try SessionReader.read(contentsOf: path).header.recordedThroughReflection)
    }

    @Test func aStoreWhoseStateIsNotCodableIsRecordedThroughReflection() throws {
        struct Model { var count = 0; var format: (Int) -> String = { "\($0)" } }
        enum Step { case up }
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = Store(initialState: Model(), reducer: Reducer<Model, Step> { state, _ in state.count += 1 })
        let recorder = try Recorder(reflecting: store, path: path, detail: .everyChange)
        store.dispatch(.up)
        store.dispatch(.up)
        recorder.stop()
        let load = try SessionReader.read(contentsOf: path)
        #expect(load.header.recordedThroughReflection)
        let (states, actions) = try replay(load)
        #expect(actions.map(\.action) == [["type": "up"], ["type": "up"]])
        #expect(states.map { $0?["count"] } == [0, 1, 2])
        #expect(states.last??["format"]?["$unrepresentable"] == "(Int) -> String")
    }

    @Test func aHeaderWithoutTheFlagIsNotReflected() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try #"{"patchbay":"session","version":1,"created":"2026-11-21T10:00:00Z"}"#.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try !SessionReader.read(contentsOf: path).header.recordedThroughReflection)
        #expect(SessionHeader(created: nil, recordedThroughReflection: true).line == #"{"patchbay":"session","version":1,"reflection":true}"#)
    }

    @Test func anInitialStateThatCannotBeEncodedIsThrown() {
        #expect(throws: RecorderError.encoding(what: "the initial state", message: "1: nan is not a finite number")) {
            try Recorder<[Double], CounterAction>(path: temporaryPath(), initialState: [1, .nan], detail: .everyChange)
        }
    }
}

private struct Bump: Codable, Sendable { var by: Int }
private struct Clear: Codable, Sendable {}
