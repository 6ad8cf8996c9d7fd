import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayRecorder
import Testing

// The README's and the articles' test example for a store of one struct per action type, as
// they write it: the mapping a global `let` (which Swift 6 accepts only of a `Sendable` type),
// the reducer a function, the recording verified with both.

protocol ReadmeAction: Sendable {}
struct ReadmeAddTodo: Codable, ReadmeAction { var title: String }
struct ReadmeToggleTodo: Codable, ReadmeAction { var id: Int }
struct ReadmeState: Codable, Equatable { var todos: [String] = []; var toggled: [Int] = [] }

let appActions: ActionMapping<any ReadmeAction> = .types([ActionType(ReadmeAddTodo.self), ActionType(ReadmeToggleTodo.self)])

func appReducer(_ state: inout ReadmeState, _ action: any ReadmeAction) {
    switch action {
    case let add as ReadmeAddTodo: state.todos.append(add.title)
    case let toggle as ReadmeToggleTodo: state.toggled.append(toggle.id)
    default: break
    }
}

@Suite("README: one struct per action")
struct ReadmeOneStructPerActionTests {
    @Test func theRecordedSessionStillHolds() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = Store(initialState: ReadmeState(), reducer: Reducer(appReducer))
        let recorder = try Recorder(store: store, path: path, actions: appActions)
        store.dispatch(ReadmeAddTodo(title: "milk"))
        store.dispatch(ReadmeToggleTodo(id: 1))
        recorder.stop()
        // As the README writes it.
        try RecordedSession(path: path).verify(Reducer(appReducer), actions: appActions, store: "app")
        #expect(try RecordedSession(path: path).verify(Reducer(appReducer), actions: appActions) == 2)
        let shared: any Sendable = appActions
        #expect(shared is ActionMapping<any ReadmeAction>)
    }

    @Test func aRecorderReplacesAFileWhenTold() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "old\n".write(toFile: path, atomically: true, encoding: .utf8)
        let recorder = try Recorder<ReadmeState, any ReadmeAction>(path: path, initialState: ReadmeState(), actions: appActions, replacing: true)
        recorder.record(ReadmeAddTodo(title: "tea"), state: ReadmeState(todos: ["tea"]))
        recorder.stop(state: ReadmeState(todos: ["tea"]))
        #expect(try RecordedSession(path: path).verify(Reducer(appReducer), actions: appActions) == 1)
    }
}
