@_spi(Shell) public import PatchbayCore

extension Graph {
    /// Makes `hosted` a store of the graph, in its initial state: a store node whose reducer is
    /// the app's Swift code (see `HostedStore`).
    public func host(_ hosted: HostedStore) throws(GraphError) {
        try checkNewName(hosted.name)
        let reducer = hosted.makeReducer()
        let initial: Value
        do { initial = try reducer.initialState() } catch { throw GraphError(error) }
        try createStore(hosted.name, state: initial)
        try store(hosted.name).hosted = reducer
    }

    /// The names of the hosted stores, in creation order.
    public var hostedStoreNames: [String] {
        nodes.values.compactMap { node in
            guard let store = node as? StoreNode, store.hosted != nil else { return nil }
            return store.name
        }
    }

    /// For a hosted store, why `state` does not decode as the app's state type: the type's name
    /// and the decoder's message (`TodoListState`, `todos: missing`). `nil` when it decodes, and
    /// for a store the shell made (any value is its state).
    public func hostedStateFailure(_ storeName: String, _ state: Value) -> (type: String, reason: String)? {
        guard let hosted = (try? store(storeName))?.hosted, let reason = hosted.stateDecodingFailure(state) else { return nil }
        return (hosted.stateTypeName, reason)
    }

    /// For a hosted store, why `action` does not decode as one of the app's actions; `nil` when
    /// it does, and for a store the shell made.
    public func hostedActionFailure(_ storeName: String, _ action: Value) -> ActionDecodingError? {
        (try? store(storeName))?.hosted?.actionDecodingFailure(action)
    }

    /// A Swift Testing test that sends `request`'s recorded actions through the app's reducer
    /// of the hosted store `storeName` and checks what each changed (`export swift-test`).
    package func swiftTest(_ storeName: String, _ request: SwiftTestRequest) throws(SwiftExportError) -> SwiftTest {
        guard let hosted = (try? store(storeName))?.hosted else {
            throw SwiftExportError("\(storeName) is not an app's store: a Swift test sends actions through an app's reducer")
        }
        return try hosted.swiftTest(request)
    }

    /// Handles one action of a hosted store now: the app's reducer runs on the state, and the
    /// step records what changed between the state before and after. An action that does not
    /// decode changes nothing and is no step; one a middleware drops is no step either.
    func dispatchHosted(to store: StoreNode, _ reducer: HostedReducer, _ action: Value, cause: Int?,
                        announce: Bool, site: ActionSite) throws(GraphError) -> StoreStep<ValueChange>? {
        // The reducer has the only copy of the state: what changes changes in place.
        var state = store.takeState()
        let outcome: HostedOutcome
        do {
            outcome = try reducer.reduce(&state, action)
        } catch {
            store.restoreState(state)
            throw GraphError(error)
        }
        guard let reduced = outcome.action else {
            store.restoreState(state)
            dispatchFollowUps(Self.sited(outcome.followUps), to: store, cause: cause)
            return nil
        }
        store.actionCount += 1
        let step = StoreStep<ValueChange>(store: store.name, index: store.actionCount, action: reduced, changes: outcome.changes, cause: cause,
                                          site: site)
        if announce { report(.dispatched(step)) }
        publish(step, state: state, in: store)
        dispatchFollowUps(Self.sited(outcome.followUps), to: store, cause: step.index)
        return step
    }

    /// What a hosted store's middleware dispatched, each at the line of the app that did.
    private static func sited(_ followUps: [(action: Value, site: CallSite)]) -> [(action: Value, site: ActionSite?)] {
        followUps.map { ($0.action, .source($0.site)) }
    }

    /// The actions a store's middleware dispatched: queued after the action, as wires
    /// into a store's dispatch are, so that a loop stops at the engine's limit. Each has its
    /// site when the app's middleware dispatched it, and the shell's otherwise.
    func dispatchFollowUps(_ actions: [(action: Value, site: ActionSite?)], to store: StoreNode, cause: Int?) {
        guard !actions.isEmpty else { return }
        transaction {
            for (action, site) in actions {
                engine.enqueue("\(store.name).dispatch") { [unowned self] in dispatchLater(to: store, action, cause: cause, site: site) }
            }
        }
    }

    /// Runs a hosted store's reducer on `state`, as `reduce(_:action:reducer:state:)` does for
    /// shell reducers (recomputing a history): the action is one the middleware let through
    /// already, so the middleware does not run again.
    func reduceHosted(_ reducer: HostedReducer, action: Value, state: inout Value) -> StoreReduction {
        do {
            return StoreReduction(changes: try reducer.reduce(&state, action, throughMiddleware: false).changes, failure: nil)
        } catch {
            return StoreReduction(changes: [], failure: GraphError(error).description)
        }
    }
}

extension GraphError {
    init(_ error: HostedStoreError) {
        switch error {
        case .action(let error): self = .actionDecoding(error)
        case .state(let detail): self = .hostedState(detail)
        }
    }
}
