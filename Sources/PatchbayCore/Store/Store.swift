/// A store of state changed only by actions (VISPER-Redux and ReSwift, done the same way every
/// time).
///
/// - Actions run one at a time: middleware, then the reducer, then the observers, then the
///   subscribers in the order they subscribed.
/// - An action dispatched while another is being handled (from a reducer's side effect, a
///   middleware or a subscriber) is queued and handled after it, first in first out. It is never
///   nested and never a crash; observers learn which action caused it.
///
/// A store is used from one isolation domain (it is not `Sendable`), like the engine.
///
/// ```swift
/// struct Counter { var count = 0 }
/// enum CounterAction { case increment(by: Int) }
/// let store = Store(initialState: Counter(), reducer: Reducer<Counter, CounterAction> { state, action in
///     switch action { case .increment(let by): state.count += by }
/// })
/// let connection = store.subscribe(select: \.count) { print($0) }   // prints 0
/// store.dispatch(.increment(by: 2))                                 // prints 2
/// ```
public final class Store<State, Action> {
    /// The current state. A reducer that reads it while it runs sees the state before the action
    /// it is reducing: the reducer changes a copy, which becomes the state when it returns.
    public var state: State { currentState }
    @usableFromInline var currentState: State
    @usableFromInline let reducer: Reducer<State, Action>
    @usableFromInline let middleware: [Middleware<State, Action>]
    @usableFromInline var subscriptions: [StoreSubscription<State>] = []
    @usableFromInline var observers: [AnyStoreObserver<State, Action>] = []
    /// How many actions have been handled (dropped ones included).
    public var actionCount: Int { handledCount }
    @usableFromInline var handledCount = 0
    @usableFromInline var isDispatching = false
    @usableFromInline var queue: [(action: Action, cause: Int)] = []
    @usableFromInline var queueHead = 0
    @usableFromInline var currentIndex = 0

    public init(initialState: State, reducer: Reducer<State, Action>, middleware: [Middleware<State, Action>] = []) {
        self.currentState = initialState
        self.reducer = reducer
        self.middleware = middleware
    }

    /// Handles `action` now, or after the current action when called while one is handled.
    @inlinable
    public func dispatch(_ action: Action) {
        if isDispatching {
            queue.append((action, currentIndex))
            return
        }
        isDispatching = true
        handle(action, cause: nil)
        while queueHead < queue.count {
            let next = queue[queueHead]
            queueHead += 1
            handle(next.action, cause: next.cause)
        }
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
        isDispatching = false
    }

    @inlinable
    func handle(_ action: Action, cause: Int?) {
        handledCount += 1
        let index = handledCount
        currentIndex = index
        var action = action
        if !middleware.isEmpty {
            let context = MiddlewareContext(store: self)
            for step in middleware {
                guard let next = step.handle(action, context) else {
                    for observer in observers { observer.didDrop(action, index) }
                    return
                }
                action = next
            }
        }
        // The reducer works on a copy, never on `currentState` in place: reading `store.state`
        // while it runs is then an ordinary read of the state before the action.
        var next = currentState
        reducer.reduce(&next, action)
        if observers.isEmpty {
            currentState = next
        } else {
            let record = DispatchRecord(index: index, action: action, before: currentState, after: next, cause: cause)
            currentState = next
            for observer in observers { observer.didReduce(record) }
        }
        notifySubscribers()
    }

    @inlinable
    func notifySubscribers() {
        // Over a snapshot: a callback may disconnect itself or others (their flag skips them at
        // once) or subscribe (the new one already got this state), which changes the array.
        let current = subscriptions
        for subscription in current { subscription.receive(currentState) }
    }

    /// Calls `callback` with the state now, then after every action.
    public func subscribe(_ callback: @escaping (State) -> Void) -> Connection {
        add(StoreSubscription(callback))
    }

    /// Calls `callback` with the part `select` picks, now and after every action whose selection
    /// `isRepeat` does not find equal to the last one delivered.
    public func subscribe<Selection>(
        select: @escaping (State) -> Selection, skipRepeats isRepeat: ((Selection, Selection) -> Bool)?,
        _ callback: @escaping (Selection) -> Void
    ) -> Connection {
        var last: Selection?
        return add(StoreSubscription { state in
            let selection = select(state)
            if let previous = last, let isRepeat, isRepeat(previous, selection) { return }
            last = selection
            callback(selection)
        })
    }

    /// Calls `callback` with the part `select` picks, now and whenever it changes: equal
    /// selections are not delivered again.
    public func subscribe<Selection: Equatable>(
        select: @escaping (State) -> Selection, _ callback: @escaping (Selection) -> Void
    ) -> Connection {
        subscribe(select: select, skipRepeats: ==, callback)
    }

    private func add(_ subscription: StoreSubscription<State>) -> Connection {
        subscriptions.append(subscription)
        subscription.receive(state)
        return Connection { [weak self, subscription] in
            subscription.isConnected = false
            self?.subscriptions.removeAll { $0 === subscription }
        }
    }

    /// Adds an observer of every action (the recorder); it stays until the connection ends. The
    /// store does not keep the observer alive: a released observer is no longer called.
    public func addObserver<Observer: StoreObserver>(_ observer: Observer) -> Connection
    where Observer.State == State, Observer.Action == Action {
        let box = AnyStoreObserver(observer)
        observers.append(box)
        return Connection { [weak self, box] in self?.observers.removeAll { $0 === box } }
    }
}

/// A subscriber's callback and the flag that ends it at once.
@usableFromInline
final class StoreSubscription<State> {
    @usableFromInline let callback: (State) -> Void
    @usableFromInline var isConnected = true

    init(_ callback: @escaping (State) -> Void) {
        self.callback = callback
    }

    @inlinable
    func receive(_ state: State) {
        if isConnected { callback(state) }
    }
}

/// An observer with its types erased to the store's.
@usableFromInline
final class AnyStoreObserver<State, Action> {
    @usableFromInline let didReduce: (DispatchRecord<State, Action>) -> Void
    @usableFromInline let didDrop: (Action, Int) -> Void

    init<Observer: StoreObserver>(_ observer: Observer) where Observer.State == State, Observer.Action == Action {
        // Weak: an observer (the recorder) may hold the store; once released it is not called.
        didReduce = { [weak observer] in observer?.store(didReduce: $0) }
        didDrop = { [weak observer] in observer?.store(didDrop: $0, index: $1) }
    }
}
