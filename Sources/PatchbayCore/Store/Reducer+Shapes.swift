/// One-line adapters from the reducer shapes of the common Swift redux libraries.
extension Reducer {
    /// ReSwift's shape, `(Action, State?) -> State`: the reducer is always given the state.
    public init(reSwift reduce: @escaping (Action, State?) -> State) {
        self.init { state, action in state = reduce(action, state) }
    }

    /// The Composable Architecture's shape, `(inout State, Action) -> Effect`: the effect the
    /// reducer returns is not run (the shell replays actions, not their effects).
    public init<Effect>(tca reduce: @escaping (inout State, Action) -> Effect) {
        self.init { state, action in _ = reduce(&state, action) }
    }

    /// VISPER-Redux's app reducer, `(ReducerProvider, Action, State) -> State`, with the
    /// provider that holds the reduce functions it delegates the parts of the state to.
    public init(visper reduce: @escaping (ReducerProvider, Action, State) -> State, provider: ReducerProvider) {
        self.init { state, action in state = reduce(provider, action, state) }
    }
}

/// VISPER-Redux's reducer container: reduce functions for an action type and a state type,
/// which `reduce(_:_:)` applies to every state of that type for every action of that type.
///
/// ```swift
/// let provider = ReducerProvider()
/// provider.add { (provider, action: SetUsername, state: UserState) in UserState(userName: action.name) }
/// let reducer = Reducer<AppState, any Action>(visper: { provider, action, state in
///     AppState(userState: provider.reduce(action, state.userState),
///              todoListState: provider.reduce(action, state.todoListState))
/// }, provider: provider)
/// ```
///
/// Not `Sendable`: add the functions first, then use it where the store is used.
public final class ReducerProvider {
    private var functions: [ObjectIdentifier: [(ReducerProvider, Any, Any) -> Any?]] = [:]

    public init() {}

    /// Adds `reduce`, for actions of type `A` and states of type `S`.
    public func add<A, S>(_ reduce: @escaping (ReducerProvider, A, S) -> S) {
        functions[ObjectIdentifier(S.self), default: []].append { provider, action, state in
            guard let action = action as? A, let state = state as? S else { return nil }
            return reduce(provider, action, state)
        }
    }

    /// `state` after every reduce function for its type and the action's type, in the order
    /// they were added.
    public func reduce<S>(_ action: Any, _ state: S) -> S {
        guard let candidates = functions[ObjectIdentifier(S.self)] else { return state }
        var state = state
        for reduce in candidates {
            if let next = reduce(self, action, state) as? S { state = next }
        }
        return state
    }
}
