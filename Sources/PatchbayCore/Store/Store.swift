public import Synchronization

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
/// The reducer changes the state in place, as TCA's store does: a dispatch costs the reducer
/// plus a constant, however large the state, as long as nothing else holds the state's storage
/// (a copy kept by a subscriber or an observer makes the next change copy what it changes).
/// What `state` reads:
/// - in a middleware, a subscriber or an observer: the state as it is then (before the action
///   in a middleware, after it in the others);
/// - inside the store's own reducer: nothing; the reducer has the state as its `inout`
///   parameter, and reading `store.state` there stops the program with a message saying so
///   (the state is being changed in place, and a copy would cost the whole state).
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
    /// The current state. It cannot be read from inside the store's reducer (see `Store`).
    public var state: State {
        precondition(!progress.isReducing, "Store.state was read inside the store's reducer, which changes the state in place: "
            + "use the reducer's inout state")
        return currentState
    }
    @usableFromInline package var currentState: State
    @usableFromInline package let reducer: Reducer<State, Action>
    @usableFromInline package let middleware: [Middleware<State, Action>]
    @usableFromInline package var subscriptions: [StoreSubscription<State>] = []
    @usableFromInline package var observers: [AnyStoreObserver<State, Action>] = []
    /// How many actions have been handled (dropped ones included).
    public var actionCount: Int { progress.handledCount }
    /// The dispatch's bookkeeping, read and changed several times per action.
    ///
    /// Not checked for exclusivity at run time (each check of a class's `var` costs about as
    /// much as a small reducer). The invariant that makes this safe: `progress` is only touched
    /// by `Store`'s own code, through short accesses that call no other code (no reducer,
    /// middleware, observer or subscriber runs while one is open), so two accesses never overlap.
    /// The state itself stays checked.
    @exclusivity(unchecked) @usableFromInline package var progress = DispatchProgress<Action>()

    public init(initialState: State, reducer: Reducer<State, Action>, middleware: [Middleware<State, Action>] = []) {
        self.currentState = initialState
        self.reducer = reducer
        self.middleware = middleware
    }

    /// Handles `action` now, or after the current action when called while one is handled.
    ///
    /// The caller's file and line are the action's call site (`DispatchRecord.site`), which a
    /// recording keeps: leave them to their defaults.
    @inlinable
    public func dispatch(_ action: Action, fileID: StaticString = #fileID, line: UInt = #line) {
        guard progress.start(action, fileID: fileID, line: line) else { return }
        handle(action, cause: nil, fileID: fileID, line: line)
        while let next = progress.nextQueued() { handle(next.action, cause: next.cause, fileID: next.fileID, line: next.line) }
    }

    @inlinable
    package func handle(_ action: Action, cause: Int?, fileID: StaticString, line: UInt) {
        let index = progress.count()
        var action = action
        if !middleware.isEmpty {
            guard let next = Middleware.run(middleware, on: action, MiddlewareContext(store: self)) else {
                for observer in observers { observer.didDrop(action, index) }
                return
            }
            action = next
        }
        // In place: the reducer changes the store's own storage, which nothing else holds unless
        // an observer asked for the state before.
        let before: State? = progress.observersWantStateBefore ? currentState : nil
        progress.isReducing = true
        reducer.reduce(&currentState, action)
        progress.isReducing = false
        if progress.hasObservers {
            let record = DispatchRecord(index: index, action: action, before: before, after: currentState, cause: cause,
                                        fileID: fileID, line: line)
            for observer in observers { observer.didReduce(record) }
        }
        if progress.hasSubscribers { notifySubscribers() }
    }

    @inlinable
    package func notifySubscribers() {
        // Over a snapshot: a callback may disconnect itself or others (their flag skips them at
        // once) or subscribe (the new one already got this state), which changes the array.
        let current = subscriptions
        let state = currentState
        for subscription in current { subscription.receive(state) }
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
        progress.hasSubscribers = true
        subscription.receive(state)
        return Connection { [weak self, subscription] in
            subscription.connected.store(false, ordering: .relaxed)
            guard let self else { return }
            subscriptions.removeAll { $0 === subscription }
            progress.hasSubscribers = !subscriptions.isEmpty
        }
    }

    /// Adds an observer of every action (the recorder); it stays until the connection ends. The
    /// store does not keep the observer alive: a released observer is no longer called.
    public func addObserver<Observer: StoreObserver>(_ observer: Observer) -> Connection
    where Observer.State == State, Observer.Action == Action {
        let box = AnyStoreObserver(observer)
        observers.append(box)
        progress.hasObservers = true
        progress.observersWantStateBefore = progress.observersWantStateBefore || box.wantsStateBefore
        return Connection { [weak self, box] in
            guard let self else { return }
            observers.removeAll { $0 === box }
            progress.hasObservers = !observers.isEmpty
            progress.observersWantStateBefore = observers.contains { $0.wantsStateBefore }
        }
    }
}

/// Where a store's dispatch is: the actions handled, those queued behind the current one, and
/// who listens.
@usableFromInline
package struct DispatchProgress<Action> {
    /// How many actions have been handled (dropped ones included).
    @usableFromInline package var handledCount = 0
    /// The index of the action being handled, which an action queued meanwhile names as its cause.
    @usableFromInline package var currentIndex = 0
    @usableFromInline package var isDispatching = false
    /// Whether the reducer is changing the state now (`Store.state` cannot be read then).
    @usableFromInline package var isReducing = false
    @usableFromInline package var queue: [QueuedAction] = []
    @usableFromInline package var queueHead = 0
    @usableFromInline package var hasObservers = false
    @usableFromInline package var hasSubscribers = false
    /// Whether an observer asked for the state before each action (`StoreObserver.wantsStateBefore`),
    /// which then costs a copy of what the action changes.
    @usableFromInline package var observersWantStateBefore = false

    @usableFromInline
    package init() {}

    /// An action dispatched while another was handled: the action, the index of that other one
    /// (its cause), and where it was dispatched.
    @usableFromInline package typealias QueuedAction = (action: Action, cause: Int, fileID: StaticString, line: UInt)

    /// Starts a dispatch, or queues `action` (dispatched at `fileID`, `line`) behind the one
    /// being handled.
    /// - Returns: whether the caller handles `action` now.
    @inlinable
    package mutating func start(_ action: Action, fileID: StaticString, line: UInt) -> Bool {
        if isDispatching {
            queue.append((action, currentIndex, fileID, line))
            return false
        }
        isDispatching = true
        return true
    }

    /// Counts an action as handled; returns its index.
    @inlinable
    package mutating func count() -> Int {
        handledCount += 1
        currentIndex = handledCount
        return handledCount
    }

    /// The next queued action, or `nil` when the dispatch is over.
    @inlinable
    package mutating func nextQueued() -> QueuedAction? {
        if queueHead < queue.count {
            queueHead += 1
            return queue[queueHead - 1]
        }
        if !queue.isEmpty { queue.removeAll(keepingCapacity: true) }
        queueHead = 0
        isDispatching = false
        return nil
    }
}

/// A subscriber's callback and the flag that ends it at once.
@usableFromInline
package final class StoreSubscription<State> {
    @usableFromInline package let callback: (State) -> Void
    /// The connection flag, read on every action: an `Atomic` so that it can be a `let` (a `var`
    /// costs a dynamic exclusivity check per read; a relaxed atomic load is a plain load).
    /// Nothing is concurrent: the store stays in one isolation domain.
    @usableFromInline package let connected = Atomic<Bool>(true)

    package init(_ callback: @escaping (State) -> Void) {
        self.callback = callback
    }

    @inlinable
    package func receive(_ state: State) {
        if connected.load(ordering: .relaxed) { callback(state) }
    }
}

/// An observer with its types erased to the store's.
@usableFromInline
package final class AnyStoreObserver<State, Action> {
    @usableFromInline package let didReduce: (DispatchRecord<State, Action>) -> Void
    @usableFromInline package let didDrop: (Action, Int) -> Void
    package let wantsStateBefore: Bool

    package init<Observer: StoreObserver>(_ observer: Observer) where Observer.State == State, Observer.Action == Action {
        wantsStateBefore = observer.wantsStateBefore
        // Weak: an observer (the recorder) may hold the store; once released it is not called.
        didReduce = { [weak observer] in observer?.store(didReduce: $0) }
        didDrop = { [weak observer] in observer?.store(didDrop: $0, index: $1) }
    }
}
