@_spi(Shell) public import PatchbayCore

/// What happens to a graph's stores, as the history hears it.
@_spi(Shell)
public enum StoreEvent: Sendable, Equatable {
    /// A store was created with its initial state.
    case created(store: String, state: Value)
    /// A store handled an action; `state` is the store's state after it. An observer must not
    /// keep `state` beyond the call (except now and then, as a history's checkpoint): the store
    /// changes its state in place, and a second reference would make it copy the whole state.
    case step(StoreStep<ValueChange>, state: Value)
    /// Time travel made `state` the store's state at `index` (`jump`, `skip`, `checkout`, ...).
    case moved(store: String, index: Int, state: Value)
    /// A store was removed.
    case removed(store: String)
}

extension Graph {
    /// `store NAME = VALUE`
    public func createStore(_ name: String, state: Value) throws(GraphError) {
        try checkNewName(name)
        let node = StoreNode(graph: self, name: name, initial: state)
        node.state.cause = Cause(node.state.addressText, after: rootCause)
        add(node)
        storeNameSet.insert(name)
        tellStoreObservers(.created(store: name, state: state))
    }

    /// Calls `observer` for every store created, action handled and store removed from now on.
    public func observeStores(_ observer: @escaping (StoreEvent) -> Void) {
        storeObservers.append(observer)
    }

    /// Calls every store observer with `event`, which is made once, and only when someone
    /// listens: making a step's event copies the step and retains the state.
    func tellStoreObservers(_ event: @autoclosure () -> StoreEvent) {
        guard !storeObservers.isEmpty else { return }
        let event = event()
        for observer in storeObservers { observer(event) }
    }

    /// The names of the stores, in creation order.
    public var storeNames: [String] { nodes.values.compactMap { ($0 as? StoreNode)?.name } }

    /// The action types the reducers of `store` (or of every store) handle, for completion.
    public func actionTypes(of store: String? = nil) -> [String] {
        let stores = nodes.values.compactMap { $0 as? StoreNode }.filter { store == nil || $0.name == store }
        var types: [String] = []
        for reducer in stores.flatMap(\.reducers) where reducer.type != "*" && !types.contains(reducer.type) {
            types.append(reducer.type)
        }
        for type in stores.compactMap(\.hosted).flatMap(\.actionTypes) where !types.contains(type) { types.append(type) }
        return types
    }

    /// The store called `name`, or the only store when `name` is `nil`.
    func store(_ name: String?) throws(GraphError) -> StoreNode {
        guard let name else {
            let stores = nodes.values.compactMap { $0 as? StoreNode }
            guard let only = stores.first else { throw .noStore }
            guard stores.count == 1 else { throw .ambiguousStore(stores.map(\.name)) }
            return only
        }
        let node = try node(name)
        guard let store = node as? StoreNode else {
            throw .wrongKind(name, kind: node.kind, expected: "it is not a store")
        }
        return store
    }

    /// `[ID =] STORE on TYPE [at PATH] [when EXPR] [after MS] : STATEMENTS`
    ///
    /// A reducer gets the id asked for, or the lowest free one (`r1`, `r2`, ...): so the ids
    /// follow from the reducers that exist, and a script that makes the same reducers (a
    /// recording's start, a saved session) gives the same ids.
    /// - Returns: the reducer's id.
    @discardableResult
    public func addReducer(_ requested: String? = nil, to storeName: String, on type: String, at path: [ValueChange.PathComponent]? = nil,
                           when condition: Expression? = nil, after delay: Int? = nil, body: StatementBlock) throws(GraphError) -> String {
        let store = try store(storeName)
        if store.hosted != nil { throw .hostedReducer(store: store.name) }
        if let delay, !(0...VirtualClock.maximumDelay).contains(delay) { throw .invalidDelay(delay) }
        let id = try Self.id(requested: requested, in: &reducerIDs, invalid: GraphError.invalidReducerID, exists: GraphError.reducerExists)
        store.reducers.append(StoreReducer(id: id, type: type, path: path, condition: condition, delay: delay, body: body))
        reducerIDs.insert(id, of: store)
        defined(.reducer(id: id, store: store.name))
        return id
    }

    /// The id of a new reducer or middleware: `requested` when it is the prefix of `ids` and a
    /// number and not taken, or else the lowest free one (`r1`, `r2`, ...).
    static func id(requested: String?, in ids: inout HandlerIDs, invalid: (String) -> GraphError,
                   exists: (String) -> GraphError) throws(GraphError) -> String {
        guard let requested else { return ids.lowestFreeID() }
        let prefix = ids.prefix
        guard requested.hasPrefix(prefix), let number = Int(requested.dropFirst(prefix.count)), number > 0, requested == prefix + "\(number)"
        else { throw invalid(requested) }
        guard !ids.contains(requested) else { throw exists(requested) }
        return requested
    }

    /// The store named, or every store (in creation order) when none is.
    func stores(_ name: String?) throws(GraphError) -> [StoreNode] {
        try name.map { name throws(GraphError) in [try store(name)] } ?? nodes.values.compactMap { $0 as? StoreNode }
    }

    /// `reducer list [STORE]`
    public func reducerSummaries(of storeName: String? = nil) throws(GraphError) -> [ReducerSummary] {
        try stores(storeName).flatMap { store in
            store.reducers.map { reducer in
                var summary = reducer.summary
                summary.store = store.name
                return summary
            }
        }
    }

    /// `reducer rm ID`
    /// - Returns: the name of the store the reducer belonged to.
    @discardableResult
    public func removeReducer(_ id: String) throws(GraphError) -> String {
        let store = try store(ofReducer: id)
        store.reducers.removeAll { $0.id == id }
        reducerIDs.remove(id)
        return store.name
    }

    /// `reducer ID : STATEMENTS`: gives the reducer a new body in place. Its id, store, type,
    /// `at`, `when`, `after` and its place in the order stay; timers an `after` reducer set
    /// before run the body they were set with.
    /// - Returns: the name of the store the reducer belongs to.
    @discardableResult
    public func replaceReducer(_ id: String, body: StatementBlock) throws(GraphError) -> String {
        let store = try store(ofReducer: id)
        guard let position = store.reducers.firstIndex(where: { $0.id == id }) else { return store.name }
        let old = store.reducers[position]
        store.reducers[position] = StoreReducer(id: id, type: old.type, path: old.path, condition: old.condition,
                                                delay: old.delay, body: body)
        return store.name
    }

    /// The store that has the reducer `id`.
    private func store(ofReducer id: String) throws(GraphError) -> StoreNode {
        guard let store = reducerIDs.owner(of: id) else {
            throw .unknownReducer(id, existing: nodes.values.compactMap { $0 as? StoreNode }.flatMap { $0.reducers.map(\.id) })
        }
        return store
    }

    /// `reducer list` of the one reducer `id`: what the shell prints of a reducer it made or
    /// gave a new body, found without going through the others.
    public func reducerSummary(_ id: String) throws(GraphError) -> ReducerSummary {
        let store = try store(ofReducer: id)
        guard let reducer = store.reducers.last(where: { $0.id == id }) else {
            throw .unknownReducer(id, existing: store.reducers.map(\.id))
        }
        var summary = reducer.summary
        summary.store = store.name
        return summary
    }

    /// `dispatch [STORE] TYPE [EXPR]`: the action goes through the store's reducers for its type,
    /// in registration order, each on the previous one's result. A failing reducer aborts the
    /// whole action: the state stays as it was, the action is kept marked failed, and this throws.
    /// - Returns: the step, or `nil` when the action waits for the open transaction's commit (or
    ///   for the current one to finish).
    @discardableResult
    public func dispatch(_ storeName: String?, _ action: Value) throws(GraphError) -> StoreStep<ValueChange>? {
        let store = try store(storeName)
        switch engine.writeMode {
        case .immediate:
            // `dispatch(to:)` checks the action itself, reading its type once.
            return try dispatch(to: store, action, cause: nil)
        case .buffered:
            try Self.checkAction(action)
            engine.bufferedEvents.append { [unowned self] in dispatchLater(to: store, action, cause: nil) }
            return nil
        case .queued:
            try Self.checkAction(action)
            let cause = store.currentIndex
            engine.enqueue("\(store.name).dispatch") { [unowned self] in
                dispatchLater(to: store, action, cause: cause)
            }
            return nil
        }
    }

    /// Handles an action that no command waits for (from a wire, a commit, a follow-up): its step
    /// is printed as an event, and a failure is reported as the store's, never dropped.
    func dispatchLater(to store: StoreNode, _ action: Value, cause: Int?, site: ActionSite? = nil) {
        do throws(GraphError) {
            _ = try dispatch(to: store, action, cause: cause, announce: true, site: site)
        } catch {
            engine.report(.nodeFailed(node: store.name, message: error.description))
        }
    }

    static func checkAction(_ action: Value) throws(GraphError) {
        _ = try actionType(of: action)
    }

    /// The type of an action, which must be an object with a string `type`.
    static func actionType(of action: Value) throws(GraphError) -> String {
        guard case .string(let type)? = action["type"] else {
            throw .invalidAction("an action is an object with a string type, such as {type: \"AddTodo\"}, not \(action)")
        }
        return type
    }

    /// Handles one action now.
    /// - Parameters:
    ///   - announce: whether to report the step as an event, for actions that no `dispatch`
    ///     command prints (from wires).
    ///   - site: where the action came from: by default the command or the wire that brought
    ///     it (`shellSite(of:)`); a line of the app for what a hosted store's middleware dispatched.
    /// The store's middleware runs first (see `runMiddleware`).
    func dispatch(to store: StoreNode, _ action: Value, cause: Int?, announce: Bool = false,
                  site: ActionSite? = nil) throws(GraphError) -> StoreStep<ValueChange>? {
        var type = try Self.actionType(of: action)
        let site = site ?? shellSite(of: store)
        if let hosted = store.hosted { return try dispatchHosted(to: store, hosted, action, cause: cause, announce: announce, site: site) }
        var action = action
        var followUps: [Value] = []
        if !store.middleware.isEmpty {
            guard let passed = try runMiddleware(of: store, on: action, followUps: &followUps) else {
                // Dropped: no step, as in a `Store`; what the middleware dispatched still goes.
                dispatchFollowUps(followUps.map { ($0, nil) }, to: store, cause: cause)
                return nil
            }
            action = passed
            type = try Self.actionType(of: action)
        }
        store.actionCount += 1
        let index = store.actionCount
        // One evaluator for all the reducers of the action: its bindings hold the action and the
        // state being reduced, which moves from reducer to reducer without being copied. The
        // state moves out of the store for that: a copy left in the store would make the first
        // change copy the whole state.
        var evaluator = Evaluator(environment: self)
        evaluator.bindings.state = store.takeState()
        evaluator.bindings.action = action
        var changes: [ValueChange] = []
        var removedKeyPositions: [Int: Int] = [:]
        var failure: (reducer: StoreReducer, message: String)?
        for reducer in store.reducers where reducer.delay == nil && reducer.handles(type) {
            do throws(ExpressionError) {
                try reducer.apply(&evaluator, changes: &changes, removedKeyPositions: &removedKeyPositions)
            } catch {
                // The guard and the body come from the same command text.
                failure = (reducer, error.message(in: reducer.body.source))
                break
            }
        }
        var state = evaluator.bindings.state.take() ?? .null
        if let failure {
            // The whole action fails: what the reducers before the failing one changed is undone.
            for position in changes.indices.reversed() {
                try? state.undo(changes[position], position: removedKeyPositions[position])
            }
            store.restoreState(state)
            let step = StoreStep<ValueChange>(store: store.name, index: index, action: action, changes: [],
                                 failure: "\(failure.reducer.id): \(failure.message)", cause: cause, site: site)
            if announce { report(.dispatched(step)) }
            tellStoreObservers(.step(step, state: store.state.value ?? .null))
            throw .reducerFailed(store: store.name, index: index, type: type, reducer: failure.reducer.id, message: failure.message)
        }
        // The action moves out of the evaluator into the step.
        let step = StoreStep<ValueChange>(store: store.name, index: index, action: evaluator.bindings.action.take() ?? action,
                             changes: ValueChange.refined(ValueChange.coalesced(changes)), failure: nil, cause: cause, site: site)
        if announce { report(.dispatched(step)) }
        publish(step, state: state, in: store)
        for reducer in store.reducers where reducer.delay != nil && reducer.handles(type) {
            scheduleDelayed(reducer, action: action, from: index, in: store, at: engine.clock.now + (reducer.delay ?? 0))
        }
        dispatchFollowUps(followUps.map { ($0, nil) }, to: store, cause: index)
        return step
    }

    /// Where the action `store` is handling came from, as `why` tells it for the store's
    /// `action` port: the wire it arrived on, or else the command (or the timer) running now.
    func shellSite(of store: StoreNode) -> ActionSite {
        .shell((store.arrivalCause ?? rootCause).trace)
    }

    /// Tells the observers, then sends a step's new state and its action out of the store in one
    /// transaction. In that order: the transaction runs the dispatches it causes (queued), and
    /// the history must hear this step before theirs.
    func publish(_ step: StoreStep<ValueChange>, state: consuming Value, in store: StoreNode) {
        store.restoreState(state)
        tellStoreObservers(.step(step, state: store.state.value ?? .null))
        let root = store.arrivalCause ?? rootCause
        store.currentIndex = step.index
        // A step with changes goes out as a known change: comparing whole states would cost as
        // much as the state is large, and a change of a number's kind (1 → 1.0) must go out
        // though `==` finds the states equal. What the state feeds compares again (equal values stop).
        let delivery: Delivery = step.changes.isEmpty ? .change : .knownChange
        transaction {
            store.republishState(cause: root, delivery)
            store.emit(store.action, step.action, cause: root, .event)
        }
        store.currentIndex = nil
    }

    /// Applies an `after MS` reducer when the clock reaches `due` (MS after the action): a step
    /// of its own. Kept out of line: inlined, its access to the clock is checked on every dispatch.
    @inline(never)
    func scheduleDelayed(_ reducer: StoreReducer, action: Value, from index: Int, in store: StoreNode, at due: Int) {
        engine.setTimer(at: due, owner: store, purpose: .reducer(reducer.id, action: action, from: index), source: reducer) {
            [unowned self, unowned store] in
            store.actionCount += 1
            var state = store.takeState()
            var changes: [ValueChange] = []
            var failure: String?
            do throws(ExpressionError) {
                try reducer.apply(to: &state, action: action, in: self, changes: &changes)
            } catch {
                failure = "\(reducer.id): \(error.message(in: reducer.body.source))"
            }
            let saved = cause
            cause = "tick (\(reducer.id) after \(reducer.delay ?? 0) ms)"
            defer { cause = saved }
            let step = StoreStep<ValueChange>(store: store.name, index: store.actionCount, action: action,
                                 changes: failure == nil ? ValueChange.refined(ValueChange.coalesced(changes)) : [],
                                 failure: failure, cause: index, delayedReducer: reducer.id, site: shellSite(of: store))
            report(.dispatched(step))
            if let failure {
                store.restoreState(state)
                engine.report(.nodeFailed(node: store.name, message: failure))
                tellStoreObservers(.step(step, state: store.state.value ?? .null))
            } else {
                publish(step, state: state, in: store)
            }
        }
    }
}

extension Graph {
    /// The state of a store (the only one when `name` is `nil`).
    public func storeState(_ name: String? = nil) throws(GraphError) -> Value {
        try store(name).state.value ?? .null
    }
}

extension Graph {
    /// The name of the store `name` stands for: itself when it is a store, the only store when
    /// `name` is `nil`.
    public func storeName(_ name: String?) throws(GraphError) -> String {
        try store(name).name
    }

    /// How many actions the store has handled on its current timeline: its current index.
    public func actionCount(of storeName: String) throws(GraphError) -> Int {
        try store(storeName).actionCount
    }

    /// Runs the reducers of `store` for `action` on `state`, as a dispatch would, without
    /// touching the store: for recomputing a history (`skip`). With `reducer`, only that
    /// reducer runs (the step of an `after MS` reducer).
    /// - Returns: what the reducers changed, or why they failed (`state` is then as it was).
    public func reduce(_ storeName: String, action: Value, reducer id: String? = nil, state: inout Value) throws(GraphError) -> StoreReduction {
        let store = try store(storeName)
        let type = try Self.actionType(of: action)
        if let hosted = store.hosted { return reduceHosted(hosted, action: action, state: &state) }
        var evaluator = Evaluator(environment: self)
        evaluator.bindings.state = StatementBlock.take(&state)
        evaluator.bindings.action = action
        defer { state = evaluator.bindings.state.take() ?? .null }
        var changes: [ValueChange] = []
        var removedKeyPositions: [Int: Int] = [:]
        let reducers = id.map { id in store.reducers.filter { $0.id == id } }
            ?? store.reducers.filter { $0.delay == nil && $0.handles(type) }
        if let id, reducers.isEmpty { return StoreReduction(changes: [], failure: "\(id) was removed") }
        for reducer in reducers {
            do throws(ExpressionError) {
                try reducer.apply(&evaluator, changes: &changes, removedKeyPositions: &removedKeyPositions)
            } catch {
                var reduced = evaluator.bindings.state.take() ?? .null
                for position in changes.indices.reversed() {
                    try? reduced.undo(changes[position], position: removedKeyPositions[position])
                }
                evaluator.bindings.state = reduced
                return StoreReduction(changes: [], failure: "\(reducer.id): \(error.message(in: reducer.body.source))")
            }
        }
        return StoreReduction(changes: ValueChange.refined(ValueChange.coalesced(changes)), failure: nil)
    }

    /// Makes `state` the store's state at `index` of its timeline (time travel): the next action
    /// gets `index + 1`, and the store's `state` output sends the state so that wired nodes
    /// follow. Observers hear `.moved`.
    public func travel(_ storeName: String, to state: Value, index: Int) throws(GraphError) {
        let store = try store(storeName)
        // An app's state with its keys as the app's type orders them, as live.
        let state = store.hosted?.normalized(state) ?? state
        store.actionCount = index
        tellStoreObservers(.moved(store: store.name, index: index, state: state))
        let root = rootCause
        transaction { store.publish(store.state, state, cause: root, .change) }
    }

    /// Makes `state` the store's state at `index` without publishing it: a session being
    /// rebuilt (a recording's start) puts a store back as it was, and nothing wired to it runs
    /// again. Observers hear the move.
    public func restore(_ storeName: String, to state: Value, index: Int) throws(GraphError) {
        let store = try store(storeName)
        let state = store.hosted?.normalized(state) ?? state
        store.actionCount = index
        store.state.value = state
        tellStoreObservers(.moved(store: store.name, index: index, state: state))
    }

    /// Whether an action of `type` reaches a reducer of `store`: one for the type or for `*`;
    /// a hosted store handles (or refuses) every type itself.
    public func storeHandles(_ type: String, in storeName: String) throws(GraphError) -> Bool {
        let store = try store(storeName)
        return store.hosted != nil || store.reducers.contains { $0.handles(type) }
    }

    /// Whether `store` has reducers that handle actions (an inspected store has none).
    public func hasReducers(_ storeName: String) throws(GraphError) -> Bool {
        let store = try store(storeName)
        return store.hosted != nil || !store.reducers.isEmpty
    }
}

/// What a store's reducers did to a state, as `Graph.reduce` reports it.
@_spi(Shell)
public struct StoreReduction: Sendable, Equatable {
    /// The changes, at the deepest paths, in order.
    public var changes: [ValueChange]
    /// Why a reducer failed; the state was left as it was.
    public var failure: String?
}
