/// Changes a state for an action, in place (VISPER-Redux's reducers; ReSwift's without the
/// optional state).
///
/// Reducers compose: `scoped(to:)` runs a reducer on a part of a larger state (VISPER's reducer
/// per state type), and `combine` runs several in order, each on the previous one's result.
public struct Reducer<State, Action> {
    @usableFromInline package let reduce: (inout State, Action) -> Void

    public init(_ reduce: @escaping (inout State, Action) -> Void) {
        self.reduce = reduce
    }

    /// Runs the reducer: `reducer(&state, action)`.
    @inlinable
    public func callAsFunction(_ state: inout State, _ action: Action) {
        reduce(&state, action)
    }

    /// This reducer, run on the sub-state at `path` of a larger state.
    public func scoped<Root>(to path: WritableKeyPath<Root, State>) -> Reducer<Root, Action> {
        let reduce = self.reduce
        return Reducer<Root, Action> { root, action in reduce(&root[keyPath: path], action) }
    }

    /// This reducer, run only for actions that `isIncluded` accepts.
    public func filter(_ isIncluded: @escaping (Action) -> Bool) -> Reducer {
        let reduce = self.reduce
        return Reducer { state, action in if isIncluded(action) { reduce(&state, action) } }
    }

    /// Runs `reducers` in order, each on the previous one's result.
    public static func combine(_ reducers: Reducer...) -> Reducer {
        combine(reducers)
    }

    /// Runs `reducers` in order, each on the previous one's result.
    public static func combine(_ reducers: [Reducer]) -> Reducer {
        let functions = reducers.map(\.reduce)
        return Reducer { state, action in
            for reduce in functions { reduce(&state, action) }
        }
    }
}
