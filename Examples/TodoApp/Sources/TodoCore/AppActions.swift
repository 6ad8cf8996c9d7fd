/// An action of the app store, VISPER- and ReSwift-style: one struct per action type.
public protocol AppAction: Sendable {}

/// The user logged in under `userName`.
public struct SetUsername: AppAction, Codable, Equatable {
    public var userName: String
    public init(userName: String) { self.userName = userName }
}

/// The user logged out.
public struct LogOut: AppAction, Codable, Equatable {
    public init() {}
}

/// A to-do was added.
public struct AddTodo: AppAction, Codable, Equatable {
    public var title: String
    public init(title: String) { self.title = title }
}

/// A to-do was ticked or unticked.
public struct ToggleTodo: AppAction, Codable, Equatable {
    public var id: Int
    public init(id: Int) { self.id = id }
}
