@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import Testing

// The typed `Store<State, Action>` (PatchbayHost.docc/Dataflow.md), used from plain Swift code:
// reducers and how they compose, middleware, subscribers (select, skip-repeats), the observer hook
// the recorder uses, and the reentrancy rule: a dispatch made while an action is handled is queued,
// first in first out, never nested (unlike ReSwift, which nests it from subscribers and crashes
// from reducers).

// MARK: - A counter with a log, and VISPER's AppState

struct Counter: Equatable {
    var count = 0
    var log: [String] = []
}

enum CounterAction: Equatable {
    case add(Int)
    case double
    case note(String)
}

/// `add` adds, `double` doubles, `note` appends to the log.
var counterReducer: Reducer<Counter, CounterAction> {
    Reducer { state, action in
        switch action {
        case .add(let n): state.count += n
        case .double: state.count *= 2
        case .note(let text): state.log.append(text)
        }
    }
}

/// VISPER-Redux's example: one state per feature, each with its own reducer.
struct UserState: Equatable {
    var userName = "unknown"
}

struct TodoListState: Equatable {
    var todos: [String] = []
}

struct AppState: Equatable {
    var userState = UserState()
    var todoListState = TodoListState()
}

enum AppAction: Equatable {
    case setUserName(String)
    case addTodo(String)
    case clearTodos
}

/// Records what happens in one shared list, to check the order across subscribers, observers
/// and middleware.
final class EventLog {
    var entries: [String] = []
    func callAsFunction(_ entry: String) { entries.append(entry) }
}

/// An observer that keeps every record and drop.
final class RecordingObserver<State, Action>: StoreObserver {
    var records: [DispatchRecord<State, Action>] = []
    var drops: [(action: Action, index: Int)] = []
    var log: EventLog?
    var onRecord: ((DispatchRecord<State, Action>) -> Void)?
    let wantsStateBefore: Bool

    init(log: EventLog? = nil, wantsStateBefore: Bool = false) {
        self.log = log
        self.wantsStateBefore = wantsStateBefore
    }

    func store(didReduce record: DispatchRecord<State, Action>) {
        records.append(record)
        log?("observer #\(record.index)")
        onRecord?(record)
    }

    func store(didDrop action: Action, index: Int) {
        drops.append((action, index))
        log?("observer dropped #\(index)")
    }
}

// MARK: - Reducers

@Suite("Store: reducers")
struct StoreReducerTests {
    @Test func aDispatchRunsTheReducerOnTheCurrentState() {
        let store = Store(initialState: Counter(), reducer: counterReducer)
        store.dispatch(.add(3))
        store.dispatch(.double)
        #expect(store.state == Counter(count: 6))
        #expect(store.actionCount == 2)
    }

    @Test func combineRunsReducersInOrderEachOnThePreviousResult() {
        // add then double: (1 + 3) * 2 = 8; the other order would give 1 * 2 + 3 = 5.
        let addThree = Reducer<Counter, CounterAction> { state, _ in
            state.log.append("add3 saw \(state.count)")
            state.count += 3
        }
        let double = Reducer<Counter, CounterAction> { state, _ in
            state.log.append("double saw \(state.count)")
            state.count *= 2
        }
        let store = Store(initialState: Counter(count: 1), reducer: .combine(addThree, double))
        store.dispatch(.note("ignored"))
        #expect(store.state == Counter(count: 8, log: ["add3 saw 1", "double saw 4"]))

        let reversed = Store(initialState: Counter(count: 1), reducer: .combine([double, addThree]))
        reversed.dispatch(.note("ignored"))
        #expect(reversed.state == Counter(count: 5, log: ["double saw 1", "add3 saw 2"]))
    }

    @Test func nestedCombinesFlattenToOneOrder() {
        func named(_ name: String) -> Reducer<Counter, CounterAction> {
            Reducer { state, _ in state.log.append(name) }
        }
        let reducer = Reducer<Counter, CounterAction>.combine(.combine(named("a"), named("b")), named("c"), .combine([named("d")]))
        let store = Store(initialState: Counter(), reducer: reducer)
        store.dispatch(.double)
        #expect(store.state.log == ["a", "b", "c", "d"])
    }

    @Test func combiningNoReducersChangesNothing() {
        let store = Store(initialState: Counter(count: 7), reducer: Reducer<Counter, CounterAction>.combine([]))
        store.dispatch(.add(1))
        #expect(store.state == Counter(count: 7))
    }

    @Test func scopedReducersEachChangeTheirOwnSubState() {
        // VISPER: a reducer per sub-state, combined into the app's reducer.
        let userReducer = Reducer<UserState, AppAction> { state, action in
            if case .setUserName(let name) = action { state.userName = name }
        }
        let todoReducer = Reducer<TodoListState, AppAction> { state, action in
            switch action {
            case .addTodo(let title): state.todos.append(title)
            case .clearTodos: state.todos.removeAll()
            case .setUserName: break
            }
        }
        let appReducer = Reducer.combine(
            userReducer.scoped(to: \AppState.userState),
            todoReducer.scoped(to: \AppState.todoListState)
        )
        let store = Store(initialState: AppState(), reducer: appReducer)

        store.dispatch(.setUserName("Max Mustermann"))
        #expect(store.state == AppState(userState: UserState(userName: "Max Mustermann"), todoListState: TodoListState()))

        store.dispatch(.addTodo("milk"))
        store.dispatch(.addTodo("bread"))
        #expect(store.state.todoListState.todos == ["milk", "bread"])
        #expect(store.state.userState.userName == "Max Mustermann")

        store.dispatch(.clearTodos)
        #expect(store.state == AppState(userState: UserState(userName: "Max Mustermann"), todoListState: TodoListState()))
    }

    @Test func aScopedReducerSeesOnlyItsSubStateAndItsChangeIsWrittenBack() {
        var seen: [UserState] = []
        let user = Reducer<UserState, AppAction> { state, _ in
            seen.append(state)
            state.userName += "!"
        }
        let store = Store(
            initialState: AppState(userState: UserState(userName: "Max"), todoListState: TodoListState(todos: ["x"])),
            reducer: user.scoped(to: \.userState))
        store.dispatch(.clearTodos)
        store.dispatch(.clearTodos)
        #expect(seen == [UserState(userName: "Max"), UserState(userName: "Max!")])
        #expect(store.state == AppState(userState: UserState(userName: "Max!!"), todoListState: TodoListState(todos: ["x"])))
    }

    @Test func filterRunsTheReducerOnlyForTheActionsItAccepts() {
        let onlyAdds = counterReducer.filter { action in
            if case .add = action { return true }
            return false
        }
        let store = Store(initialState: Counter(count: 1), reducer: onlyAdds)
        store.dispatch(.double)
        store.dispatch(.note("skipped"))
        #expect(store.state == Counter(count: 1))
        store.dispatch(.add(4))
        #expect(store.state == Counter(count: 5))
        // A filtered action still counts as handled.
        #expect(store.actionCount == 3)
    }

    @Test func filterAndScopeCompose() {
        let names = Reducer<UserState, AppAction> { state, action in
            if case .setUserName(let name) = action { state.userName = name }
        }
        let nonEmptyNames = names.filter { action in
            if case .setUserName(let name) = action { return !name.isEmpty }
            return false
        }
        let store = Store(initialState: AppState(), reducer: nonEmptyNames.scoped(to: \.userState))
        store.dispatch(.setUserName("Max"))
        store.dispatch(.setUserName(""))
        #expect(store.state.userState.userName == "Max")
    }
}

// MARK: - Middleware

@Suite("Store: middleware")
struct StoreMiddlewareTests {
    @Test func middlewareCanDropAnAction() {
        let dropNegative = Middleware<Counter, CounterAction> { action, _ in
            if case .add(let n) = action, n < 0 { return nil }
            return action
        }
        let store = Store(initialState: Counter(), reducer: counterReducer, middleware: [dropNegative])
        var delivered: [Int] = []
        let connection = store.subscribe(select: \.count) { delivered.append($0) }
        store.dispatch(.add(-5))
        store.dispatch(.add(2))
        #expect(store.state == Counter(count: 2))
        // The dropped action reached no reducer and no subscriber, but it took an index.
        #expect(delivered == [0, 2])
        #expect(store.actionCount == 2)
        connection.disconnect()
    }

    @Test func middlewareRunsInOrderEachOnThePreviousOnesAction() {
        // add(1) → plus one → add(2) → times two → add(4); in the other order it would be add(3).
        let plusOne = Middleware<Counter, CounterAction> { action, _ in
            if case .add(let n) = action { return .add(n + 1) }
            return action
        }
        let timesTwo = Middleware<Counter, CounterAction> { action, _ in
            if case .add(let n) = action { return .add(n * 2) }
            return action
        }
        let store = Store(initialState: Counter(), reducer: counterReducer, middleware: [plusOne, timesTwo])
        store.dispatch(.add(1))
        #expect(store.state.count == 4)

        let other = Store(initialState: Counter(), reducer: counterReducer, middleware: [timesTwo, plusOne])
        other.dispatch(.add(1))
        #expect(other.state.count == 3)
    }

    @Test func middlewareCanReplaceAnActionWithAnother() {
        let doubleToNote = Middleware<Counter, CounterAction> { action, _ in
            action == .double ? .note("no doubling") : action
        }
        let store = Store(initialState: Counter(count: 3), reducer: counterReducer, middleware: [doubleToNote])
        store.dispatch(.double)
        #expect(store.state == Counter(count: 3, log: ["no doubling"]))
    }

    @Test func anObservingMiddlewareSeesEachActionWithTheStateBeforeIt() {
        var seen: [(CounterAction, Int)] = []
        let store = Store(initialState: Counter(), reducer: counterReducer,
                          middleware: [.observe { action, state in seen.append((action, state.count)) }])
        store.dispatch(.add(2))
        store.dispatch(.double)
        #expect(seen.map(\.0) == [.add(2), .double])
        #expect(seen.map(\.1) == [0, 2])
        #expect(store.state.count == 4)
    }

    @Test func aDroppedActionIsNotSeenByLaterMiddleware() {
        var later: [CounterAction] = []
        let dropAll = Middleware<Counter, CounterAction> { _, _ in nil }
        let store = Store(initialState: Counter(), reducer: counterReducer,
                          middleware: [dropAll, .observe { action, _ in later.append(action) }])
        store.dispatch(.add(1))
        #expect(later.isEmpty)
        #expect(store.state == Counter())
    }

    @Test func theContextGivesTheStateBeforeTheAction() {
        var before: [Int] = []
        let peek = Middleware<Counter, CounterAction> { action, context in
            before.append(context.state.count)
            return action
        }
        let store = Store(initialState: Counter(count: 10), reducer: counterReducer, middleware: [peek])
        store.dispatch(.add(5))
        store.dispatch(.double)
        #expect(before == [10, 15])
        #expect(store.state.count == 30)
    }

    @Test func aDispatchFromMiddlewareIsQueuedAfterTheCurrentAction() {
        // The middleware follows every add with a note. The note is handled after the add's
        // reducer and subscribers, never in the middle of it, and goes through the middleware too.
        let log = EventLog()
        let follow = Middleware<Counter, CounterAction> { action, context in
            log("middleware \(action)")
            if case .add(let n) = action { context.dispatch(.note("added \(n)")) }
            return action
        }
        let store = Store(initialState: Counter(), reducer: counterReducer, middleware: [follow])
        let connection = store.subscribe { state in log("state \(state.count) \(state.log)") }
        store.dispatch(.add(2))
        #expect(log.entries == [
            "state 0 []",
            "middleware add(2)",
            "state 2 []",
            #"middleware note("added 2")"#,
            #"state 2 ["added 2"]"#,
        ])
        #expect(store.actionCount == 2)
        connection.disconnect()
    }

    @Test func aMiddlewareThatDropsAndDispatchesDelaysAnAction() {
        // Dropping the action and dispatching it again puts it at the end of the queue.
        var deferredOnce = false
        let deferFirstDouble = Middleware<Counter, CounterAction> { action, context in
            if action == .double, !deferredOnce {
                deferredOnce = true
                context.dispatch(.double)
                return nil
            }
            return action
        }
        let store = Store(initialState: Counter(count: 1), reducer: counterReducer, middleware: [deferFirstDouble])
        var counts: [Int] = []
        let connection = store.subscribe(select: \.count) { counts.append($0) }
        store.dispatch(.double)
        #expect(counts == [1, 2])
        #expect(store.actionCount == 2)
        connection.disconnect()
    }
}

// MARK: - Subscribers

@Suite("Store: subscribers")
struct StoreSubscriberTests {
    @Test func subscribingDeliversTheCurrentStateAtOnce() {
        let store = Store(initialState: Counter(count: 4), reducer: counterReducer)
        store.dispatch(.add(1))
        var received: [Counter] = []
        let connection = store.subscribe { received.append($0) }
        #expect(received == [Counter(count: 5)])
        store.dispatch(.double)
        #expect(received == [Counter(count: 5), Counter(count: 10)])
        connection.disconnect()
    }

    @Test func subscribersAreServedInSubscriptionOrder() {
        let log = EventLog()
        let store = Store(initialState: Counter(), reducer: counterReducer)
        let connections = ["c", "a", "b"].map { name in store.subscribe { log("\(name) \($0.count)") } }
        log.entries.removeAll()
        store.dispatch(.add(1))
        store.dispatch(.add(1))
        #expect(log.entries == ["c 1", "a 1", "b 1", "c 2", "a 2", "b 2"])
        connections.forEach { $0.disconnect() }
    }

    @Test func aDispatchFromASubscriberIsQueuedSoEveryoneSeesEachStateInOrder() {
        // The first subscriber answers A with B. The listener must see s0, sA, sAB: never sAB
        // before sA (ReSwift would nest the dispatch and deliver sAB first, then a stale sA).
        let log = EventLog()
        let store = Store(initialState: Counter(), reducer: counterReducer)
        let responder = store.subscribe { state in
            log("responder \(state.log)")
            if state.log == ["A"] { store.dispatch(.note("B")) }
        }
        let listener = store.subscribe { state in log("listener \(state.log)") }
        store.dispatch(.note("A"))
        #expect(log.entries == [
            "responder []", "listener []",
            #"responder ["A"]"#, #"listener ["A"]"#,
            #"responder ["A", "B"]"#, #"listener ["A", "B"]"#,
        ])
        #expect(store.actionCount == 2)
        responder.disconnect()
        listener.disconnect()
    }

    @Test func queuedDispatchesRunFirstInFirstOut() {
        // On A, the first subscriber dispatches B then C and the second dispatches D: B, C, D.
        let store = Store(initialState: Counter(), reducer: counterReducer)
        let first = store.subscribe { state in
            if state.log == ["A"] {
                store.dispatch(.note("B"))
                store.dispatch(.note("C"))
            }
        }
        let second = store.subscribe { state in
            if state.log == ["A"] { store.dispatch(.note("D")) }
        }
        var states: [[String]] = []
        let listener = store.subscribe { states.append($0.log) }
        store.dispatch(.note("A"))
        #expect(states == [[], ["A"], ["A", "B"], ["A", "B", "C"], ["A", "B", "C", "D"]])
        [first, second, listener].forEach { $0.disconnect() }
    }

    @Test func aDispatchFromInsideAReducerIsQueuedNotNested() {
        // ReSwift stops with a ConcurrentMutationError here; this store queues the action.
        final class Box { var store: Store<Counter, CounterAction>? }
        let box = Box()
        let reducer = Reducer<Counter, CounterAction> { state, action in
            switch action {
            case .add(let n):
                state.count += n
                box.store?.dispatch(.note("after add \(n)"))
                state.log.append("add \(n) done")
            case .note(let text): state.log.append(text)
            case .double: state.count *= 2
            }
        }
        let store = Store(initialState: Counter(), reducer: reducer)
        box.store = store
        store.dispatch(.add(1))
        #expect(store.state == Counter(count: 1, log: ["add 1 done", "after add 1"]))
        #expect(store.actionCount == 2)
        box.store = nil
    }

    @Test func aReducerChangesTheStoresOwnStorageInPlace() {
        // A dispatch costs the reducer, not a copy of the state: the array the action changes
        // is the same buffer after it, with or without an observer that does not ask for the
        // state before.
        struct Items: Equatable { var values = Array(repeating: 0, count: 1_000) }
        let store = Store(initialState: Items(), reducer: Reducer<Items, Int> { state, index in state.values[index] += 1 })
        func buffer() -> UnsafeRawPointer? { store.state.values.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
        let before = buffer()
        store.dispatch(3)
        #expect(buffer() == before)
        let observer = RecordingObserver<Items, Int>()
        let connection = store.addObserver(observer)
        store.dispatch(4)
        #expect(buffer() == before)
        #expect(observer.records.map(\.before) == [nil])
        observer.records = []
        #expect(store.state.values[3...4] == [1, 1])
        connection.disconnect()
    }

    @Test func anObserverThatAsksForTheStateBeforeGetsIt() {
        let store = Store(initialState: Counter(count: 1), reducer: counterReducer)
        let observer = RecordingObserver<Counter, CounterAction>(wantsStateBefore: true)
        let connection = store.addObserver(observer)
        store.dispatch(.add(2))
        store.dispatch(.double)
        #expect(observer.records.map { [$0.before?.count, $0.after.count] } == [[1, 3], [3, 6]])
        connection.disconnect()
        // Once it is gone, the states before are not kept any more.
        let other = RecordingObserver<Counter, CounterAction>()
        let second = store.addObserver(other)
        store.dispatch(.add(1))
        #expect(other.records.map(\.before) == [nil])
        second.disconnect()
    }

    @Test func readingTheStateInsideTheStoresOwnReducerStopsTheProgramWithAMessage() async {
        await #expect(processExitsWith: .failure) {
            final class Box { var store: Store<Int, Int>? }
            let box = Box()
            let store = Store(initialState: 0, reducer: Reducer<Int, Int> { state, n in state = box.store!.state + n })
            box.store = store
            store.dispatch(1)
        }
    }

    @Test func middlewareSubscribersAndObserversReadTheStoreAsItIsThen() {
        final class Box { var store: Store<Counter, CounterAction>? }
        let box = Box()
        var seenByMiddleware: [Int] = []
        let middleware = Middleware<Counter, CounterAction> { action, _ in
            seenByMiddleware.append(box.store!.state.count)
            return action
        }
        let store = Store(initialState: Counter(count: 1), reducer: counterReducer, middleware: [middleware])
        box.store = store
        let observer = RecordingObserver<Counter, CounterAction>()
        observer.onRecord = { _ in observer.log?("store has \(box.store!.state.count)") }
        observer.log = EventLog()
        let observation = store.addObserver(observer)
        var seen: [Int] = []
        let connection = store.subscribe { _ in seen.append(box.store!.state.count) }
        store.dispatch(.add(2))
        #expect(seenByMiddleware == [1])
        #expect(seen == [1, 3])
        #expect(observer.log?.entries == ["observer #1", "store has 3"])
        withExtendedLifetime((observation, connection)) {}
        box.store = nil
    }

    @Test func selectDeliversOnlyWhenTheSelectionChanges() {
        // An Equatable selection skips repeats without being asked to.
        let store = Store(initialState: Counter(), reducer: counterReducer)
        var counts: [Int] = []
        let connection = store.subscribe(select: \.count) { counts.append($0) }
        store.dispatch(.note("count stays 0"))
        store.dispatch(.add(2))
        store.dispatch(.add(0))
        store.dispatch(.double)
        store.dispatch(.note("count stays 4"))
        #expect(counts == [0, 2, 4])
        connection.disconnect()
    }

    @Test func aSelectionWithoutSkipRepeatsIsDeliveredAfterEveryAction() {
        let store = Store(initialState: Counter(), reducer: counterReducer)
        var counts: [Int] = []
        let connection = store.subscribe(select: \.count, skipRepeats: nil) { counts.append($0) }
        store.dispatch(.note("x"))
        store.dispatch(.add(0))
        store.dispatch(.add(1))
        #expect(counts == [0, 0, 0, 1])
        connection.disconnect()
    }

    @Test func customSkipRepeatsComparesWithTheLastDeliveredSelection() {
        // "Close enough" is not transitive: 3 is close to 0 and skipped; 6 is close to 3 but not to
        // 0, the last one delivered, so it is delivered. (ReSwift compares with the previous state
        // instead, and would skip 6.)
        let store = Store(initialState: Counter(), reducer: counterReducer)
        var counts: [Int] = []
        let connection = store.subscribe(select: \.count, skipRepeats: { abs($0 - $1) < 5 }) { counts.append($0) }
        store.dispatch(.add(3))
        store.dispatch(.add(3))
        store.dispatch(.add(1))
        store.dispatch(.add(10))
        #expect(counts == [0, 6, 17])
        connection.disconnect()
    }

    @Test func aNonEquatableSelectionCanSkipRepeatsWithAComparison() {
        struct Names { var all: [String] }
        let store = Store(initialState: Counter(), reducer: counterReducer)
        var delivered: [[String]] = []
        let connection = store.subscribe(select: { Names(all: $0.log) }, skipRepeats: { $0.all.count == $1.all.count }) {
            delivered.append($0.all)
        }
        store.dispatch(.add(1))
        store.dispatch(.note("a"))
        store.dispatch(.double)
        #expect(delivered == [[], ["a"]])
        connection.disconnect()
    }

    @Test func disconnectingStopsDelivery() {
        let store = Store(initialState: Counter(), reducer: counterReducer)
        var counts: [Int] = []
        let connection = store.subscribe(select: \.count) { counts.append($0) }
        store.dispatch(.add(1))
        connection.disconnect()
        #expect(!connection.isConnected)
        store.dispatch(.add(1))
        #expect(counts == [0, 1])
        connection.disconnect()  // again: nothing happens
    }

    @Test func releasingTheConnectionStopsDelivery() {
        let store = Store(initialState: Counter(), reducer: counterReducer)
        var counts: [Int] = []
        var connection: Connection? = store.subscribe(select: \.count) { counts.append($0) }
        store.dispatch(.add(1))
        #expect(connection?.isConnected == true)
        connection = nil
        store.dispatch(.add(1))
        #expect(counts == [0, 1])
    }

    @Test func disconnectingALaterSubscriberFromACallbackStopsItAtOnce() {
        // The first subscriber ends the second one's subscription when it sees count 1: the
        // second one does not get count 1, although it was due in the same notification.
        let store = Store(initialState: Counter(), reducer: counterReducer)
        var second: [Int] = []
        var secondConnection: Connection?
        let first = store.subscribe(select: \.count) { count in
            if count == 1 { secondConnection?.disconnect() }
        }
        secondConnection = store.subscribe(select: \.count) { second.append($0) }
        store.dispatch(.add(1))
        store.dispatch(.add(1))
        #expect(second == [0])
        first.disconnect()
    }

    @Test func aSubscriberCanDisconnectItselfWithoutDisturbingTheOthers() {
        // Each subscriber after the one that leaves still gets this state, exactly once.
        let log = EventLog()
        let store = Store(initialState: Counter(), reducer: counterReducer)
        var leaverConnection: Connection?
        let before = store.subscribe(select: \.count) { log("before \($0)") }
        leaverConnection = store.subscribe(select: \.count) { count in
            log("leaver \(count)")
            if count == 1 { leaverConnection?.disconnect() }
        }
        let after1 = store.subscribe(select: \.count) { log("after1 \($0)") }
        let after2 = store.subscribe(select: \.count) { log("after2 \($0)") }
        log.entries.removeAll()
        store.dispatch(.add(1))
        store.dispatch(.add(1))
        #expect(log.entries == [
            "before 1", "leaver 1", "after1 1", "after2 1",
            "before 2", "after1 2", "after2 2",
        ])
        [before, after1, after2].forEach { $0.disconnect() }
    }

    @Test func aSubscriptionAddedDuringANotificationStartsWithTheCurrentStateOnly() {
        let log = EventLog()
        let store = Store(initialState: Counter(), reducer: counterReducer)
        var late: Connection?
        let first = store.subscribe(select: \.count) { count in
            log("first \(count)")
            if count == 1, late == nil { late = store.subscribe(select: \.count) { log("late \($0)") } }
        }
        store.dispatch(.add(1))
        store.dispatch(.add(1))
        #expect(log.entries == ["first 0", "first 1", "late 1", "first 2", "late 2"])
        first.disconnect()
        late?.disconnect()
    }
}

// MARK: - Observers

@Suite("Store: observers")
struct StoreObserverTests {
    @Test func anObserverSeesEveryActionWithTheStatesBeforeAndAfter() {
        let store = Store(initialState: Counter(), reducer: counterReducer)
        let observer = RecordingObserver<Counter, CounterAction>()
        let connection = store.addObserver(observer)
        store.dispatch(.add(2))
        store.dispatch(.double)
        store.dispatch(.note("same count"))
        #expect(observer.records.map(\.index) == [1, 2, 3])
        #expect(observer.records.map(\.action) == [.add(2), .double, .note("same count")])
        #expect(observer.records.map(\.before) == [nil, nil, nil])
        #expect(observer.records.map(\.after) == [Counter(count: 2), Counter(count: 4), Counter(count: 4, log: ["same count"])])
        #expect(observer.records.map(\.cause) == [nil, nil, nil])
        connection.disconnect()
    }

    @Test func theObserverSeesTheActionAfterMiddleware() {
        let rewrite = Middleware<Counter, CounterAction> { action, _ in action == .double ? .add(100) : action }
        let store = Store(initialState: Counter(), reducer: counterReducer, middleware: [rewrite])
        let observer = RecordingObserver<Counter, CounterAction>()
        let connection = store.addObserver(observer)
        store.dispatch(.double)
        #expect(observer.records.map(\.action) == [.add(100)])
        connection.disconnect()
    }

    @Test func aQueuedDispatchNamesItsCause() {
        // A is #1; the subscriber answers it with B (#2), and B with C (#3); a later direct
        // dispatch (#4) has no cause.
        let store = Store(initialState: Counter(), reducer: counterReducer)
        let observer = RecordingObserver<Counter, CounterAction>()
        let observation = store.addObserver(observer)
        let chain = store.subscribe { state in
            if state.log.last == "A" { store.dispatch(.note("B")) }
            if state.log.last == "B" { store.dispatch(.note("C")) }
        }
        store.dispatch(.note("A"))
        store.dispatch(.add(1))
        #expect(observer.records.map(\.index) == [1, 2, 3, 4])
        #expect(observer.records.map(\.action) == [.note("A"), .note("B"), .note("C"), .add(1)])
        #expect(observer.records.map(\.cause) == [nil, 1, 2, nil])
        chain.disconnect()
        observation.disconnect()
    }

    @Test func aDispatchFromMiddlewareNamesItsCause() {
        let echo = Middleware<Counter, CounterAction> { action, context in
            if case .add = action { context.dispatch(.note("echo")) }
            return action
        }
        let store = Store(initialState: Counter(), reducer: counterReducer, middleware: [echo])
        let observer = RecordingObserver<Counter, CounterAction>()
        let connection = store.addObserver(observer)
        store.dispatch(.double)
        store.dispatch(.add(1))
        #expect(observer.records.map(\.action) == [.double, .add(1), .note("echo")])
        #expect(observer.records.map(\.cause) == [nil, nil, 2])
        connection.disconnect()
    }

    @Test func droppedActionsReachDidDropWithTheirIndex() {
        let dropNotes = Middleware<Counter, CounterAction> { action, _ in
            if case .note = action { return nil }
            return action
        }
        let store = Store(initialState: Counter(), reducer: counterReducer, middleware: [dropNotes])
        let observer = RecordingObserver<Counter, CounterAction>()
        let connection = store.addObserver(observer)
        store.dispatch(.add(1))
        store.dispatch(.note("dropped"))
        store.dispatch(.double)
        #expect(observer.drops.map(\.action) == [.note("dropped")])
        #expect(observer.drops.map(\.index) == [2])
        #expect(observer.records.map(\.index) == [1, 3])
        #expect(store.state == Counter(count: 2))
        connection.disconnect()
    }

    @Test func observersHearAnActionBeforeTheSubscribers() {
        let log = EventLog()
        let store = Store(initialState: Counter(), reducer: counterReducer,
                          middleware: [.observe { action, _ in log("middleware \(action)") }])
        let observer = RecordingObserver<Counter, CounterAction>(log: log)
        let observation = store.addObserver(observer)
        let subscription = store.subscribe(select: \.count) { log("subscriber \($0)") }
        store.dispatch(.add(1))
        #expect(log.entries == ["subscriber 0", "middleware add(1)", "observer #1", "subscriber 1"])
        observation.disconnect()
        subscription.disconnect()
    }

    @Test func anObserverStopsWhenItsConnectionEnds() {
        let store = Store(initialState: Counter(), reducer: counterReducer)
        let observer = RecordingObserver<Counter, CounterAction>()
        let connection = store.addObserver(observer)
        store.dispatch(.add(1))
        connection.disconnect()
        store.dispatch(.add(1))
        #expect(observer.records.map(\.index) == [1])
    }

    @Test func theStoreDoesNotKeepAReleasedObserverAlive() {
        // The store holds observers weakly, so that an observer may hold the store (the
        // recorder does); once released, it is simply not called.
        let store = Store(initialState: Counter(), reducer: counterReducer)
        weak var released: RecordingObserver<Counter, CounterAction>?
        var connection: Connection?
        do {
            let observer = RecordingObserver<Counter, CounterAction>()
            released = observer
            connection = store.addObserver(observer)
        }
        #expect(released == nil)
        store.dispatch(.add(1))
        store.dispatch(.note("dropped or not, no crash"))
        #expect(store.state == Counter(count: 1, log: ["dropped or not, no crash"]))
        connection?.disconnect()
    }
}

// MARK: - The graph's stores: what the history hears

@Suite("Graph stores: steps")
struct GraphStoreStepTests {
    /// A graph with `app = {log: []}`, reducers appending A and B, and every step collected.
    private func graph() throws -> (Graph, () -> [StoreStep<ValueChange>]) {
        let (graph, steps) = try graphWithStates()
        return (graph, { steps().map(\.step) })
    }

    /// The same graph, with the state after each step as the observers hear it.
    private func graphWithStates() throws -> (Graph, () -> [(step: StoreStep<ValueChange>, state: Value)]) {
        let graph = Graph()
        var steps: [(step: StoreStep<ValueChange>, state: Value)] = []
        graph.observeStores { event in
            if case .step(let step, let state) = event { steps.append((step, state)) }
        }
        try graph.createStore("app", state: ["log": []])
        try graph.addReducer(to: "app", on: "A", body: StatementBlock(#"state.log = append(state.log, "A")"#))
        try graph.addReducer(to: "app", on: "B", body: StatementBlock(#"state.log = append(state.log, "B")"#))
        return (graph, { steps })
    }

    @Test func aDispatchReturnsItsStepWithTheChanges() throws {
        let (graph, steps) = try graphWithStates()
        let step = try #require(try graph.dispatch("app", ["type": "A"]))
        #expect(step.store == "app")
        #expect(step.index == 1)
        #expect(step.action == ["type": "A"])
        #expect(steps().map(\.state) == [["log": ["A"]]])
        #expect(step.changes == [ValueChange(path: [.key("log"), .index(0)], operation: .add, old: nil, new: "A")])
        #expect(step.failure == nil && step.cause == nil && step.delayedReducer == nil)
        #expect(steps().map(\.step) == [step])
        #expect(try graph.storeState("app") == ["log": ["A"]])
    }

    @Test func anActionDispatchedByAWireRecordsTheActionThatCausedIt() throws {
        // app.action -> relay -> app.dispatch answers A with B: B is #2, caused by #1.
        let (graph, steps) = try graphWithStates()
        try graph.createVariable("relay", value: ["type": "none"])
        try graph.wire(from: PortAddress(node: "app", port: "action"), to: PortAddress(node: "relay", port: "set"))
        try graph.wire(from: PortAddress(node: "relay", port: "value"), to: PortAddress(node: "app", port: "dispatch"),
                       when: Expression(#"$.type == "A""#), transform: Expression(#"{type: "B"}"#))
        try graph.dispatch(nil, ["type": "A"])
        #expect(steps().map(\.step.index) == [1, 2])
        #expect(steps().map(\.step.action) == [["type": "A"], ["type": "B"]])
        #expect(steps().map(\.step.cause) == [nil, 1])
        #expect(steps().map(\.state) == [["log": ["A"]], ["log": ["A", "B"]]])
    }

    @Test func aFailedStepIsHeardWithItsFailureAndChangesNothing() throws {
        let (graph, steps) = try graphWithStates()
        let id = try graph.addReducer(to: "app", on: "A", body: StatementBlock("state.log = 1 / 0"))
        #expect(id == "r3")
        #expect(throws: GraphError.self) { try graph.dispatch("app", ["type": "A"]) }
        let (step, state) = try #require(steps().first)
        #expect(step.failure == "r3: division by zero in '1 / 0'")
        #expect(state == ["log": []])
        #expect(step.changes.isEmpty)
        #expect(try graph.storeState() == ["log": []])
    }

    @Test func anAfterReducersStepNamesTheActionItBelongsTo() throws {
        let (graph, steps) = try graph()
        try graph.addReducer(to: "app", on: "A", after: 10, body: StatementBlock("state.saved = true"))
        try graph.dispatch("app", ["type": "A"])
        _ = try graph.tick(by: 10)
        #expect(steps().map(\.index) == [1, 2])
        #expect(steps().map(\.delayedReducer) == [nil, "r3"])
        #expect(steps().map(\.cause) == [nil, 1])
        #expect(steps().last?.changes == [ValueChange(path: [.key("saved")], operation: .add, old: nil, new: true)])
    }

    @Test func anActionMustBeAnObjectWithAStringType() throws {
        let (graph, steps) = try graph()
        #expect(throws: GraphError.self) { try graph.dispatch("app", ["kind": "A"]) }
        #expect(throws: GraphError.self) { try graph.dispatch("app", ["type": 1]) }
        #expect(throws: GraphError.self) { try graph.dispatch("app", "A") }
        #expect(steps().isEmpty)
        // No index was used up.
        #expect(try graph.dispatch("app", ["type": "B"])?.index == 1)
    }
}

@Suite("Graph stores: names")
struct GraphStoreNameTests {
    @Test func theSetOfStoreNamesFollowsStoresAsTheyComeAndGo() throws {
        let graph = Graph()
        #expect(graph.storeNameSet.isEmpty)
        try graph.createStore("app", state: [:])
        try graph.createVariable("count", value: 0)
        try graph.createStore("archive", state: [:])
        #expect(graph.storeNameSet == ["app", "archive"])
        // A name that failed to become a store is not one.
        #expect(throws: GraphError.self) { try graph.createStore("count", state: [:]) }
        try graph.remove("count")
        try graph.remove("app")
        #expect(graph.storeNameSet == ["archive"])
        #expect(graph.storeNameSet == Set(graph.storeNames))
    }
}
