/// The app's whole state, VISPER-style: one state per feature.
public struct AppState: Codable, Equatable, Sendable {
    public var userState = UserState()
    public var todoListState = TodoListState()

    public init() {}
}

/// Who is using the app.
public struct UserState: Codable, Equatable, Sendable {
    public var userName = "unknown"
    public var isAuthenticated = false

    public init() {}
}

/// The to-do list.
public struct TodoListState: Codable, Equatable, Sendable {
    public var todos: [Todo] = []
    /// The id the next to-do gets.
    public var nextID = 1

    public init() {}
}

/// One to-do.
public struct Todo: Codable, Equatable, Sendable {
    public var id: Int
    public var title: String
    public var done = false

    public init(id: Int, title: String, done: Bool = false) {
        self.id = id
        self.title = title
        self.done = done
    }
}
