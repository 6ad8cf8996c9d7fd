public import PatchbayCore

/// The app's stores, as the Patchbay shell hosts them (see `todo-inspector`).
public enum TodoStores {
    /// `app`: the whole `AppState`, with the VISPER-style reducer over action structs.
    public static func app() -> HostedStore {
        HostedStore("app", initialState: AppState(), reducer: TodoReducers.app(), actions: TodoReducers.appActions)
    }

    /// `todos`: a `TodoListState`, with the TCA-style reducer over `TodoAction`. Its cases are
    /// named here because an enum's cases cannot be listed through `Codable`: the shell completes
    /// and suggests them before each is first dispatched.
    public static func todos() -> HostedStore {
        HostedStore("todos", initialState: TodoListState(), reducer: TodoReducers.todoList,
                    actions: .codable(knownTypes: ["add", "toggle", "remove", "clearCompleted"]))
    }
}
