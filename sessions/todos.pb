# Stores: the VISPER README's AppState, with a user sub-state and a todo list.
# Reducers are scoped with `at`, guarded with `when`, delayed with `after`.

store app = {userState: {userName: "unknown"}, todoListState: {todos: []}, actions: 0}

reducer app on SetUserName at userState when action.name != "" : state.userName = action.name
reducer app on AddTodo at todoListState : state.todos = append(state.todos, {title: action.title, done: false})
reducer app on ToggleTodo at todoListState.todos[0] when action.index == 0 : state.done = !state.done
reducer app on * : state.actions += 1
reducer app on AddTodo after 500 : state.lastSaved = action.title     # an async reducer, on the virtual clock

dispatch app SetUserName {name: "Max Mustermann"}
dispatch app SetUserName {name: ""}          # the guard keeps the name; only the counter moves
dispatch app AddTodo {title: "milk"}
dispatch app AddTodo {title: "bread"}
dispatch app ToggleTodo {index: 0}
state .todoListState.todos
tick 500                                     # the `after 500` reducers apply now
state .lastSaved

# A patch wired into the store: taps become actions.
signal taps
patch count counter
wire taps.out -> count.inc
wire count.count -> app.dispatch when $ > 0 : {type: "AddTodo", title: "tap \($)"}
send taps 1
send taps 1
state .todoListState.todos
reducer list
