/// An action of the to-do list store, TCA-style: an enum with associated values.
public enum TodoAction: Codable, Equatable, Sendable {
    case add(title: String)
    case toggle(id: Int)
    case remove(id: Int)
    case clearCompleted
}
