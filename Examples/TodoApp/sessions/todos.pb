# A short session with the to-do app's two stores, recorded into todos.jsonl by
#   swift run todo-inspector --record sessions/todos.jsonl --force sessions/todos.pb
dispatch app SetUsername {userName: "Max"}
dispatch app AddTodo {title: "milk"}
dispatch app AddTodo {title: "bread"}
dispatch app ToggleTodo {id: 1}
dispatch todos add {title: "write the report"}
dispatch todos add {title: "call Anna"}
dispatch todos toggle {id: 1}
dispatch todos clearCompleted
history todos
