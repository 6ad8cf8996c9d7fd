public import PatchbayCore

/// The app's reducers: the VISPER-style app reducer, which delegates each part of the state
/// to the reduce functions registered for it, and the TCA-style to-do list reducer.
public enum TodoReducers {
    /// The reduce functions of the app store, per action and state type.
    public static func provider() -> ReducerProvider {
        let provider = ReducerProvider()
        provider.add { (_, action: SetUsername, state: UserState) in
            var state = state
            state.userName = action.userName
            state.isAuthenticated = true
            return state
        }
        provider.add { (_, _: LogOut, _: UserState) in UserState() }
        provider.add { (_, action: AddTodo, state: TodoListState) in
            var state = state
            state.todos.append(Todo(id: state.nextID, title: action.title))
            state.nextID += 1
            return state
        }
        provider.add { (_, action: ToggleTodo, state: TodoListState) in
            var state = state
            if let position = state.todos.firstIndex(where: { $0.id == action.id }) { state.todos[position].done.toggle() }
            return state
        }
        return provider
    }

    /// The app store's reducer, in VISPER's shape `(provider, action, state) -> state`.
    public static func app(provider: ReducerProvider = provider()) -> Reducer<AppState, any AppAction> {
        Reducer(visper: { provider, action, state in
            var next = state
            next.userState = provider.reduce(action, state.userState)
            next.todoListState = provider.reduce(action, state.todoListState)
            return next
        }, provider: provider)
    }

    /// The to-do list store's reducer, in TCA's shape `(inout State, Action)`.
    public static var todoList: Reducer<TodoListState, TodoAction> {
        Reducer { state, action in
            switch action {
            case .add(let title):
                state.todos.append(Todo(id: state.nextID, title: title))
                state.nextID += 1
            case .toggle(let id):
                if let position = state.todos.firstIndex(where: { $0.id == id }) { state.todos[position].done.toggle() }
            case .remove(let id):
                state.todos.removeAll { $0.id == id }
            case .clearCompleted:
                state.todos.removeAll(where: \.done)
            }
        }
    }

    /// How the app store's action structs map to Patchbay's action objects: declared once (a
    /// mapping is `Sendable`), for the hosted store and the tests alike.
    public static let appActions: ActionMapping<any AppAction> =
        .types([ActionType(SetUsername.self), ActionType(LogOut.self), ActionType(AddTodo.self), ActionType(ToggleTodo.self)])
}
