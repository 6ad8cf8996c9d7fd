// Written by Patchbay from the history of the store todos, actions #1 to #4, with:
//   export swift-test Tests/TodoCoreTests/TodosAsRecorded.swift todos --reducer TodoReducers.todoList
// Each step sends the recorded action through the reducer and checks with #expect what the
// recording says the step changed. Write it again with the same command when the recording changes.
import Foundation
import PatchbayCore
import Testing
@testable import TodoCore

@Test("todos, actions #1 to #4, as recorded")
func todosAsRecorded() throws {
    let reducer = TodoReducers.todoList
    var state = try JSONDecoder().decode(TodoListState.self, from: Data(#"""
        {"todos":[],"nextID":1}
        """#.utf8))

    // #1 add {title: "write the report"}
    reducer(&state, TodoAction.add(title: "write the report"))
    try #require(state.todos.count == 1)
    #expect(state.todos[0].id == 1)
    #expect(state.todos[0].title == "write the report")
    #expect(state.todos[0].done == false)
    #expect(state.nextID == 2)

    // #2 add {title: "call Anna"}
    reducer(&state, TodoAction.add(title: "call Anna"))
    try #require(state.todos.count == 2)
    #expect(state.todos[1].id == 2)
    #expect(state.todos[1].title == "call Anna")
    #expect(state.todos[1].done == false)
    #expect(state.nextID == 3)

    // #3 toggle {id: 1}
    reducer(&state, TodoAction.toggle(id: 1))
    try #require(state.todos.count == 2)
    #expect(state.todos[0].done == true)

    // #4 clearCompleted
    reducer(&state, TodoAction.clearCompleted)
    try #require(state.todos.count == 1)
    #expect(state.todos[0].id == 2)
    #expect(state.todos[0].title == "call Anna")
    #expect(state.todos[0].done == false)
}
