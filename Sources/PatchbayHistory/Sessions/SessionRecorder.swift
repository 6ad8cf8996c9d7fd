@_spi(Shell) public import PatchbayCore
@_spi(Shell) public import PatchbayGraph
@_spi(Shell) public import PatchbayRecorder

/// The one place where a session's events are made (each kind is in SessionEvent+Format.swift):
/// it hears what the graph's stores and router do (stores created, actions with their JSON Patch
/// and state digest, routes, moves through time) and what the histories do (skips with their
/// recomputed steps, checkouts, sweeps, replaced histories), and the shell adds its commands,
/// probe deliveries and errors.
/// The events wait, in the order they happened, until the shell takes them when a command ends
/// (`take()`) and hands them to their one consumer: the file (`SessionWriter`) for
/// `record FILE`, or the comparison with the recording for `replay --verify`.
///
/// A recorder that starts while stores exist begins with their histories (see
/// `snapshot(of:)`), so that a reader of its events sees the session from their first line.
///
/// Like its graph, a recorder is used from one thread.
@_spi(Shell)
public final class SessionRecorder {
    /// The events heard since the last `take()`.
    private var events: [SessionEvent] = []
    private var stores: [String: StoreTrack] = [:]

    /// What the recorder keeps of a store: the digest of its state and when to checkpoint.
    private struct StoreTrack {
        var digest: StateDigest
        var checkpointInterval: Int
        var sinceCheckpoint = 0

        init(state: Value) {
            digest = StateDigest(state)
            checkpointInterval = SessionRecorder.checkpointInterval(for: state)
        }
    }

    /// Starts recording what `graph` and `histories` (when there are some) do. The stores that
    /// exist already are tracked from their current states; `snapshot(of:histories:)` gives
    /// the events that rebuild them.
    public init(graph: Graph, histories: StoreHistories? = nil) {
        attach(to: graph, histories: histories)
    }

    /// Records what `graph` and `histories` do from now on (after `reset`, the shell's are new).
    public func attach(to graph: Graph, histories: StoreHistories?) {
        for name in graph.storeNames {
            if let state = try? graph.storeState(name) { stores[name] = StoreTrack(state: state) }
        }
        graph.observeStores { [weak self] event in self?.hear(event) }
        graph.observeRoutes { [weak self] navigation in
            self?.record(.route(SessionRoute(url: navigation.url, pattern: navigation.pattern, params: navigation.params,
                                             view: navigation.view, option: navigation.option.rawValue)))
        }
        histories?.observe { [weak self] event in self?.record(event) }
    }

    /// The events that rebuild the histories of the stores that exist, in creation order (see
    /// `History.snapshot(of:live:hosted:)`); the store line of a hosted store says so, so that
    /// a shell that does not host it refuses to replay the recording.
    public static func snapshot(of graph: Graph, histories: StoreHistories) -> [SessionEvent] {
        snapshot(of: graph, histories: histories) { () throws(Never) in }
    }

    /// `snapshot(of:histories:)`, calling `check` every 1024 actions: what it throws stops it.
    package static func snapshot<Failure: Error>(of graph: Graph, histories: StoreHistories,
                                                 checking check: () throws(Failure) -> Void) throws(Failure) -> [SessionEvent] {
        let hosted = Set(graph.hostedStoreNames)
        var events: [SessionEvent] = []
        for name in graph.storeNames {
            guard let (_, history) = try? histories.history(of: name), let state = try? graph.storeState(name) else { continue }
            events += try history.snapshot(of: name, live: state, hosted: hosted.contains(name), checking: check)
        }
        return events
    }

    /// The events that rebuild the stores' histories (`snapshot(of:histories:)`) and then set
    /// the pending timers again, in the order they fire: what a session holds that its
    /// definitions do not make.
    public static func restart(of graph: Graph, histories: StoreHistories) -> [SessionEvent] {
        restart(of: graph, histories: histories) { () throws(Never) in }
    }

    /// `restart(of:histories:)`, calling `check` every 1024 actions: what it throws stops it.
    package static func restart<Failure: Error>(of graph: Graph, histories: StoreHistories,
                                                checking check: () throws(Failure) -> Void) throws(Failure) -> [SessionEvent] {
        try snapshot(of: graph, histories: histories, checking: check) + graph.pendingTimers.map(SessionEvent.timer)
    }

    /// The events that begin a recording of the session as it is: nothing for an empty one;
    /// otherwise a `setup` line (`reset`), the virtual clock's time (`tick`), the stores'
    /// histories (`snapshot(of:histories:)`), the URLs routed so far (`route` lines, which a
    /// reader puts back in the router's history), the definitions as `save` writes them, each a
    /// `setup` line, and the histories once more, with the pending timers (`restart(of:)`):
    /// making the definitions again (a wire into a store's `dispatch`, say) may dispatch, and
    /// the histories must end as they are now. A replay of the recording rebuilds from them
    /// what the session held when it started; what `save` cannot rebuild otherwise (the
    /// navigation stack, a patch's outputs) is not rebuilt.
    /// - Parameter lineLimit: the longest definition line, as for `Graph.definitionScript`.
    public static func opening(of graph: Graph, histories: StoreHistories, lineLimit: Int) -> [SessionEvent] {
        opening(of: graph, histories: histories, lineLimit: lineLimit) { () throws(Never) in }
    }

    /// `opening(of:histories:lineLimit:)`, calling `check` every 1024 actions: what it throws
    /// (Ctrl-C) stops it.
    package static func opening<Failure: Error>(of graph: Graph, histories: StoreHistories, lineLimit: Int,
                                                checking check: () throws(Failure) -> Void) throws(Failure) -> [SessionEvent] {
        let definitions = graph.definitionScript(lineLimit: lineLimit, omittingStores: true).lines.filter { !$0.hasPrefix("#") }
        let stores = try snapshot(of: graph, histories: histories, checking: check)
        let now = graph.engine.clock.now
        // The URLs routed so far, which `history router` lists: no definition routes them again.
        let routes = graph.routeHistory.map { navigation in
            SessionEvent.route(SessionRoute(url: navigation.url, pattern: navigation.pattern, params: navigation.params,
                                            view: navigation.view, option: navigation.option.rawValue))
        }
        guard !stores.isEmpty || !definitions.isEmpty || now > 0 || !routes.isEmpty else { return [] }
        var events: [SessionEvent] = [.setup("reset")]
        if now > 0 { events.append(.setup("tick \(now)")) }
        events += stores + routes + definitions.map(SessionEvent.setup)
        // A timer belongs to a node the definitions make.
        if !definitions.isEmpty { events += try restart(of: graph, histories: histories, checking: check) }
        return events
    }

    /// Adds an event: the shell's commands, deliveries and errors.
    public func record(_ event: SessionEvent) {
        events.append(event)
    }

    /// Adds events, in order.
    public func record(contentsOf newEvents: [SessionEvent]) {
        events += newEvents
    }

    /// How many events wait to be taken.
    public var pendingCount: Int { events.count }

    /// Forgets the events heard after the first `count` that wait.
    public func discard(since count: Int) {
        events.removeSubrange(Swift.min(count, events.count)...)
    }

    /// Adds the deliveries a command's probes saw.
    public func deliveries(_ graphEvents: [GraphEvent]) {
        for case .probe(let port, let value, _) in graphEvents { events.append(.publish(port: port, value: value)) }
    }

    /// The events heard since the last call, in order.
    public func take() -> [SessionEvent] {
        defer { events = [] }
        return events
    }

    private func hear(_ event: StoreEvent) {
        switch event {
        case .created(let store, let state):
            stores[store] = StoreTrack(state: state)
            record(.store(name: store, state: state))
        case .step(let step, let state):
            // The track is changed in place: one lookup of the store's name, no copy.
            guard let position = stores.index(forKey: step.store) else { return }
            if step.failure == nil { stores.values[position].digest.apply(step.changes, after: state) }
            record(.action(step.patchForm, hash: stores.values[position].digest))
            stores.values[position].sinceCheckpoint += 1
            if stores.values[position].sinceCheckpoint >= stores.values[position].checkpointInterval {
                record(.checkpoint(store: step.store, index: step.index, state: state))
                stores.values[position].sinceCheckpoint = 0
                stores.values[position].checkpointInterval = Self.checkpointInterval(for: state)
            }
        case .moved(let store, let index, let state):
            // A jump and the state it leads to: enough for `inspect`, which runs no reducer.
            stores[store] = StoreTrack(state: state)
            record(.jump(store: store, index: index))
            record(.checkpoint(store: store, index: index, state: state))
        case .removed(let store):
            stores[store] = nil
        }
    }

    /// Actions between checkpoints: about the number of leaves of the state, so that a
    /// checkpoint costs about as much as the changes between two of them.
    static func checkpointInterval(for state: Value) -> Int {
        Checkpoint.interval(after: state)
    }
}
