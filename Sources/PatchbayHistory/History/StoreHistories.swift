@_spi(Shell) public import PatchbayCore
@_spi(Shell) public import PatchbayGraph
@_spi(Shell) public import PatchbayRecorder

/// The histories of a graph's stores (PatchbayHost.docc/TimeTravel.md).
///
/// It hears every action a store handles through the graph's store events, so the engine never
/// depends on it, and it moves stores through their histories with `Graph.travel`, so that what
/// is wired to a store follows it. Like its graph, it is used from one thread.
@_spi(Shell)
public final class StoreHistories {
    private let graph: Graph
    private var histories: [String: History] = [:] {
        didSet { lastRecorded = nil }
    }
    /// The `Marks` made and still held, oldest first (see `mark()`).
    private var openMarks: [OpenMarks] = []
    /// The history that `hear` recorded into last, with its store's name: the next action of the
    /// same store finds it without hashing the name. Any change to `histories` forgets it.
    private var lastRecorded: (store: String, history: History)?
    /// Who hears the changes to histories that a recording must carry besides moves: skips,
    /// checkouts, sweeps and replaced histories.
    private var observers: [(SessionEvent) -> Void] = []

    /// Starts keeping the history of every store `graph` creates from now on.
    public init(graph: Graph) {
        self.graph = graph
        graph.observeStores { [weak self] event in self?.hear(event) }
    }

    /// Calls `observer` with every skip, checkout, sweep and replaced history from now on, before
    /// the store moves.
    public func observe(_ observer: @escaping (SessionEvent) -> Void) {
        observers.append(observer)
    }

    private func announce(_ event: SessionEvent) {
        for observer in observers { observer(event) }
    }

    private func hear(_ event: borrowing StoreEvent) {
        switch event {
        case .created(let store, let state):
            if let old = histories[store] { willChange(store, old) }
            histories[store] = History(initial: state, store: store)
        case .step(let step, let state):
            // The store numbers its actions from the history's current state, so the step is
            // always the next one; a failure here would be a bug, and the step is dropped.
            guard let history = recordingHistory(of: step.store) else { return }
            if !openMarks.isEmpty { willChange(step.store, history) }
            _ = try? history.record(step, after: state)
        case .removed(let store):
            if let old = histories[store] { willChange(store, old) }
            histories[store] = nil
        case .moved:
            break
        }
    }

    /// The history that the actions of `store` are recorded into, if it has one.
    private func recordingHistory(of store: String) -> History? {
        if let lastRecorded, lastRecorded.store == store { return lastRecorded.history }
        let history = histories[store]
        lastRecorded = history.map { (store, $0) }
        return history
    }

    /// The history of `store` (the only store when `nil`), with the store's name.
    public func history(of store: String?) throws(TimeTravelError) -> (store: String, history: History) {
        let name = try graphCall { () throws(GraphError) in try graph.storeName(store) }
        if let history = histories[name] {
            willChange(name, history)
            return (name, history)
        }
        // A store made before the histories were attached starts its history now.
        let history = History(initial: liveState(name), store: name)
        histories[name] = history
        return (name, history)
    }

    /// Puts a history in place of a store's (`inspect`, `import`).
    public func replace(_ store: String, with history: History) {
        if let old = histories[store] {
            willChange(store, old)
            // The history replaced goes back in place if the command is taken back: it keeps
            // its steps, and the store goes back to the state it has now.
            let state = liveState(store)
            for open in openMarks {
                guard let taken = open.taken, taken.replaced[store] == nil else { continue }
                taken.replaced[store] = (old, state)
            }
        }
        histories[store] = history
        announce(.reset(store: store, state: history.initial))
    }

    /// `jump`: makes state `index` the store's state.
    @discardableResult
    public func jump(_ store: String?, to index: Int) throws(TimeTravelError) -> Value {
        let (name, history) = try self.history(of: store)
        let state = try historyCall(name) { () throws(HistoryError) in try history.jump(to: index, current: liveState(name)) }
        try travel(name, to: state, history: history)
        // The state as the store has it now (an app's, in its type's key order).
        return liveState(name)
    }

    /// `skip` / `unskip`: turns an action off or on and recomputes the later states with the
    /// store's reducers.
    public func setSkipped(_ store: String?, _ index: Int, _ skipped: Bool) throws(TimeTravelError) -> Recomputation {
        let (name, history) = try self.history(of: store)
        guard try graphCall({ () throws(GraphError) in try graph.hasReducers(name) }) else { throw .noReducers(store: name) }
        let hosted = graph.hostedStoreNames.contains(name)
        let recomputation = try historyCall(name) { () throws(HistoryError) in
            try history.setSkipped(index, skipped, current: liveState(name)) { (state, entry) throws(HistoryError) in
                try reduce(name, hosted: hosted, entry, &state)
            }
        }
        // What each later step now does goes with the skip, so that a reader rebuilds the same
        // states without reducers.
        announce(.skip(store: name, index: index, skipped: skipped, recomputed: RecomputedStep.steps(of: recomputation)))
        try travel(name, to: recomputation.state, history: history)
        return recomputation
    }

    /// `history recompute`: runs every action of the current timeline again through the store's
    /// reducers as they are now, from the initial state (skipped actions stay skipped).
    public func recompute(_ store: String?) throws(TimeTravelError) -> Recomputation {
        let (name, history) = try self.history(of: store)
        guard try graphCall({ () throws(GraphError) in try graph.hasReducers(name) }) else { throw .noReducers(store: name) }
        let hosted = graph.hostedStoreNames.contains(name)
        let recomputation = try historyCall(name) { () throws(HistoryError) in
            try history.recompute(current: liveState(name)) { (state, entry) throws(HistoryError) in
                try reduce(name, hosted: hosted, entry, &state)
            }
        }
        announce(.recompute(store: name, recomputed: RecomputedStep.steps(of: recomputation)))
        try travel(name, to: recomputation.state, history: history)
        return recomputation
    }

    /// Runs `steps` (actions of `store`'s history) through the store's reducers as they are
    /// now, one after the other from `state`, as `history recompute` runs each action, touching
    /// neither the store nor its history: what a history would do without some of its actions
    /// (`history minimize`). After each step, `visit` gets the step, what the reducers did and
    /// the state after it, and returns whether to go on. A hosted store's step whose state or
    /// action does not decode as the app's types is a failed step here, where a recomputation
    /// stops. What `visit` throws stops the run and is thrown.
    public func rerun<Failure: Error>(_ store: String, _ steps: some Sequence<StoreStep<ValueChange>>, from state: Value,
                                      visit: (StoreStep<ValueChange>, Reduction, Value) throws(Failure) -> Bool) throws(Failure) {
        let hosted = graph.hostedStoreNames.contains(store)
        var state = state
        for step in steps {
            let reduction: Reduction
            do throws(HistoryError) { reduction = try reduce(store, hosted: hosted, step, &state, stoppingOnHostedFailure: false) } catch {
                reduction = Reduction(changes: [], failure: error.description)
            }
            guard try visit(step, reduction, state) else { return }
        }
    }

    /// `checkout`: switches the store to another timeline, at its last state.
    @discardableResult
    public func checkout(_ store: String?, branch: String) throws(TimeTravelError) -> Value {
        let (name, history) = try self.history(of: store)
        let state = try historyCall(name) { () throws(HistoryError) in try history.checkout(branch, current: liveState(name)) }
        announce(.checkout(store: name, branch: branch))
        try travel(name, to: state, history: history)
        return liveState(name)
    }

    /// `history commit`: the current state becomes the initial state and every action goes.
    public func commit(_ store: String?) throws(TimeTravelError) -> Int {
        let (name, history) = try self.history(of: store)
        let dropped = history.count
        let state = liveState(name)
        try historyCall(name) { () throws(HistoryError) in try history.commit(current: state) }
        announce(.reset(store: name, state: state))
        try travel(name, to: state, history: history)
        return dropped
    }

    /// `history revert`: drops every action; the store goes back to the initial state.
    public func revert(_ store: String?) throws(TimeTravelError) -> Int {
        let (name, history) = try self.history(of: store)
        let dropped = history.count
        let initial = history.revert()
        announce(.reset(store: name, state: initial))
        try travel(name, to: initial, history: history)
        return dropped
    }

    /// `history sweep`: drops the skipped actions.
    public func sweep(_ store: String?) throws(TimeTravelError) -> Int {
        let (name, history) = try self.history(of: store)
        let removed = try historyCall(name) { () throws(HistoryError) in try history.sweep() }
        announce(.sweep(store: name))
        try travel(name, to: liveState(name), history: history)
        return removed
    }

    /// Where every history stands, for `rollBack(to:)`. A history is marked when it is first
    /// about to change after the mark (or is handed out by `history(of:)`, whose caller may
    /// change it), not when the mark is made: so marking costs the same however many stores
    /// there are, and a command costs in proportion to the histories it changes.
    package struct Marks {
        fileprivate let taken: TakenMarks
    }

    /// The histories marked so far for one `Marks`, in the order they were marked.
    fileprivate final class TakenMarks {
        var marks: [(store: String, history: History, mark: History.Mark)] = []
        var marked: Set<ObjectIdentifier> = []
        /// The histories replaced since the mark (`import devtools --force`), by store, with
        /// the store's state when each was replaced.
        var replaced: [String: (history: History, state: Value)] = [:]
    }

    /// A `Marks` still held by someone: it goes when its holder drops it.
    private struct OpenMarks {
        weak var taken: TakenMarks?
    }

    /// Where every history stands now.
    package func mark() -> Marks {
        openMarks.removeAll { $0.taken == nil }
        let taken = TakenMarks()
        openMarks.append(OpenMarks(taken: taken))
        return Marks(taken: taken)
    }

    /// Marks `history` (of `store`) for every open `Marks` that has not marked it yet: called
    /// before it changes. A history marked by the newest open `Marks` is marked by all (they
    /// mark together), which makes the common case one set lookup.
    private func willChange(_ store: String, _ history: History) {
        while let last = openMarks.last, last.taken == nil { openMarks.removeLast() }
        let id = ObjectIdentifier(history)
        guard let newest = openMarks.last?.taken, !newest.marked.contains(id) else { return }
        for open in openMarks {
            guard let taken = open.taken, taken.marked.insert(id).inserted else { continue }
            taken.marks.append((store, history, history.mark()))
        }
    }

    /// Takes back the actions every history recorded since `marks` (a command that failed as
    /// a whole) and moves each store that had some back to its state then, so that what is
    /// wired to it follows. A history replaced since (`import devtools --force`) goes back in
    /// place; one rewritten since (a skip, a sweep) is left as it is, and then `isComplete` is
    /// false.
    /// - Returns: the stores moved back, and those whose history stays as it is (empty when
    ///   every history is as it was at `marks`).
    @discardableResult
    package func rollBack(to marks: Marks) -> (moved: [String], kept: [String]) {
        var moved: [String] = []
        var kept: [String] = []
        for (store, history, mark) in marks.taken.marks {
            if histories[store] !== history, let replaced = marks.taken.replaced[store], replaced.history === history,
               graph.storeNameSet.contains(store) {
                // Replaced since: the history goes back in place, at the state it had then.
                histories[store] = history
                lastRecorded = nil
                let state = history.isUnchanged(since: mark) ? replaced.state : history.rollBack(to: mark) ?? replaced.state
                graph.engine.droppingFollowUps { try? travel(store, to: state, history: history) }
                moved.append(store)
                continue
            }
            guard histories[store] === history else {
                // A history made since, in place of one that went back (or goes back) in place.
                if let replaced = marks.taken.replaced[store], replaced.history !== history { continue }
                kept.append(store)
                continue
            }
            guard !history.isUnchanged(since: mark) else { continue }
            guard let state = history.rollBack(to: mark) else {
                kept.append(store)
                continue
            }
            // Published so that derived nodes follow; what is wired to dispatch does not run.
            graph.engine.droppingFollowUps { try? travel(store, to: state, history: history) }
            moved.append(store)
        }
        return (moved, kept)
    }

    /// Runs `body` (which puts the graph's nodes back as they were), then shows each of
    /// `stores` that still exists at the state it has now, so that a store whose history
    /// `rollBack(to:)` kept goes on showing that history.
    package func keepingStates(of stores: [String], _ body: () -> Void) {
        let states = stores.compactMap { store in histories[store].map { (store, $0, liveState(store)) } }
        body()
        for (store, history, state) in states {
            graph.engine.droppingFollowUps { try? travel(store, to: state, history: history) }
        }
    }

    /// Runs the store's reducers for a history entry, for a recomputation. A shell reducer that
    /// fails marks the step failed; an app's reducer (a hosted store) fails only when the state
    /// or the action does not decode as the app's types (a recording or an import made with
    /// other types), and then the recomputation stops and changes nothing: marking every later
    /// step failed would throw the recorded states away.
    /// (`rerun` passes `stoppingOnHostedFailure: false`, to see such a step as failed.)
    private func reduce(_ store: String, hosted: Bool, _ entry: StoreStep<ValueChange>, _ state: inout Value,
                        stoppingOnHostedFailure: Bool = true) throws(HistoryError) -> Reduction {
        let reduction: Reduction
        do {
            let reduced = try graph.reduce(store, action: entry.action, reducer: entry.delayedReducer, state: &state)
            reduction = Reduction(changes: reduced.changes, failure: reduced.failure)
        } catch {
            reduction = Reduction(changes: [], failure: error.description)
        }
        if hosted, stoppingOnHostedFailure, let failure = reduction.failure {
            throw .cannotRecompute(store: store, index: entry.index, type: entry.type, reason: failure)
        }
        return reduction
    }

    /// The store's state as the graph holds it: the history's current state.
    private func liveState(_ store: String) -> Value {
        (try? graph.storeState(store)) ?? .null
    }

    private func travel(_ store: String, to state: Value, history: History) throws(TimeTravelError) {
        try graphCall { () throws(GraphError) in try graph.travel(store, to: state, index: history.current) }
    }

    private func graphCall<T>(_ body: () throws(GraphError) -> T) throws(TimeTravelError) -> T {
        do { return try body() } catch { throw .graph(error) }
    }

    private func historyCall<T>(_ store: String, _ body: () throws(HistoryError) -> T) throws(TimeTravelError) -> T {
        do { return try body() } catch { throw .history(store: store, error) }
    }
}
