import Foundation
import PatchbayCore
import PatchbayRecorder
import Testing
import TodoCore

/// The sessions recorded with `todo-inspector` guard the app's reducers: each test replays one
/// through the reducer and fails, with the action and the differing state, where it diverges.
@Suite("Recorded sessions as regression tests")
struct RecordedSessionTests {
    /// A file of the example's `sessions/` folder.
    static func session(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("sessions").appendingPathComponent(name).path
    }

    @Test func theAppStoreStillReducesAsRecorded() throws {
        let verified = try RecordedSession(path: Self.session("todos.jsonl"))
            .verify(TodoReducers.app(), actions: TodoReducers.appActions, store: "app")
        #expect(verified == 4)
    }

    @Test func theTodoListStoreStillReducesAsRecorded() throws {
        let verified = try RecordedSession(path: Self.session("todos.jsonl")).verify(TodoReducers.todoList, store: "todos")
        #expect(verified == 4)
    }

    @Test func aChangedReducerFailsAtTheStepItChanges() throws {
        // A regression: toggling a to-do no longer does anything.
        let broken = Reducer<TodoListState, TodoAction> { state, action in
            if case .toggle = action { return }
            TodoReducers.todoList(&state, action)
        }
        let error = try #require(throws: RecordedSessionError.self) {
            try RecordedSession(path: Self.session("todos.jsonl")).verify(broken, store: "todos")
        }
        #expect(error.description.hasPrefix("action #3 of todos (line "))
        #expect(error.description.contains("toggle {id: 1}) leaves a state other than the recording's (recorded → now):"))
        #expect(error.description.contains("todos[0].done: true → false"))
    }

    @Test func anActionThatNoLongerDecodesIsReportedAtItsStep() throws {
        // The app renamed a field of an action: the recorded action no longer decodes.
        let mapping = ActionMapping<any AppAction>.types([ActionType(SetUsername.self, name: "SetUserName")])
        let error = try #require(throws: RecordedSessionError.self) {
            try RecordedSession(path: Self.session("todos.jsonl")).verify(TodoReducers.app(), actions: mapping, store: "app")
        }
        #expect(error.description.contains("action #1 of app"))
        #expect(error.description.contains("the action no longer decodes: no action type 'SetUsername'"))
    }

    @Test func aRecordingMadeInTheAppVerifiesToo() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("todo-app-\(UUID()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = Store(initialState: TodoListState(), reducer: TodoReducers.todoList)
        let recorder = try Recorder(store: store, path: path, storeName: "todos")
        for title in ["milk", "bread", "eggs"] { store.dispatch(.add(title: title)) }
        store.dispatch(.toggle(id: 2))
        store.dispatch(.clearCompleted)
        recorder.stop()
        #expect(try RecordedSession(path: path).verify(TodoReducers.todoList) == 5)
    }
}
