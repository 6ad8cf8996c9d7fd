/// Sees every action before the reducers: it can let it through, change it, drop it, or
/// dispatch more actions (which are queued, never nested).
///
/// ```swift
/// let dropNegative = Middleware<Counter, CounterAction> { action, context in
///     if case .add(let n) = action, n < 0 { return nil }     // dropped
///     return action
/// }
/// ```
public struct Middleware<State, Action> {
    @usableFromInline package let handle: (Action, MiddlewareContext<State, Action>) -> Action?

    /// - Parameter handle: returns the action to reduce (the same or another), or `nil` to drop it.
    public init(_ handle: @escaping (Action, MiddlewareContext<State, Action>) -> Action?) {
        self.handle = handle
    }

    /// Runs `middleware` in order on `action`, each on the one before's result: the action to
    /// reduce, or `nil` when one dropped it. The one middleware loop of every store (a `Store`,
    /// a hosted store).
    @inlinable
    package static func run(_ middleware: [Middleware], on action: Action, _ context: MiddlewareContext<State, Action>) -> Action? {
        var action = action
        for step in middleware {
            guard let next = step.handle(action, context) else { return nil }
            action = next
        }
        return action
    }

    /// A middleware that only observes: it sees each action with the state before it.
    public static func observe(_ observe: @escaping (Action, State) -> Void) -> Middleware {
        Middleware { action, context in
            observe(action, context.state)
            return action
        }
    }
}

/// What a middleware can reach: the state before the action, and dispatch.
public struct MiddlewareContext<State, Action> {
    @usableFromInline package let readState: () -> State
    @usableFromInline package let dispatcher: (Action, StaticString, UInt) -> Void

    /// A context over `state` and `dispatch` (which takes the action and its call site): a
    /// `Store`'s, or a hosted store's in the shell.
    @usableFromInline
    package init(state: @escaping () -> State, dispatch: @escaping (Action, StaticString, UInt) -> Void) {
        readState = state
        dispatcher = dispatch
    }

    @usableFromInline
    package init(store: Store<State, Action>) {
        self.init(state: { [unowned store] in store.state }, dispatch: { [unowned store] in store.dispatch($0, fileID: $1, line: $2) })
    }

    /// The state before the action.
    public var state: State { readState() }

    /// Dispatches `action` after the current one (and any queued before it): a way to delay an
    /// action, or to follow it with others. The caller's file and line are the action's call
    /// site, as for `Store.dispatch`.
    public func dispatch(_ action: Action, fileID: StaticString = #fileID, line: UInt = #line) {
        dispatcher(action, fileID, line)
    }
}
