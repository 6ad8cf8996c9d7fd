public import PatchbayCore

/// Turns what happens in a graph into the events of a session file (SPEC 8): store creation,
/// actions with their JSON Patch and state digest, checkpoints, routes, moves through time;
/// the shell adds its commands, probe deliveries and errors.
///
/// The events go to a `SessionWriter` for `record FILE`, or to a sink (a list in memory for
/// `replay --verify`). The first error the writer or the sink throws stops the recording and
/// is kept.
public final class SessionRecorder {
    /// Where the events go.
    public typealias Sink = (SessionEvent) throws(SessionError) -> Void

    /// Where the events go: a sink, or a receiver that takes each action straight from its step
    /// (no `SessionAction` is made).
    private enum Destination {
        case sink(Sink)
        case receiver(any SessionEventReceiver)
    }

    private let destination: Destination
    private var stores: [String: StoreTrack] = [:]
    /// The error that stopped the recording, if one did.
    public private(set) var failure: SessionError?
    /// Whether events still go to the sink.
    public private(set) var isRecording = true

    /// What the recorder keeps of a store: the digest of its state and when to checkpoint.
    private struct StoreTrack {
        var digest: StateDigest
        var checkpointInterval: Int
        var sinceCheckpoint = 0
    }

    /// Starts recording what `graph` does into `sink`.
    public init(graph: Graph, sink: @escaping Sink) {
        destination = .sink(sink)
        attach(to: graph)
    }

    /// Starts recording what `graph` does into `writer`.
    public convenience init(graph: Graph, writer: SessionWriter) {
        self.init(graph: graph, receiver: writer)
    }

    /// Starts recording what `graph` does into `receiver`.
    package init(graph: Graph, receiver: any SessionEventReceiver) {
        destination = .receiver(receiver)
        attach(to: graph)
    }

    /// Records what `graph` does from now on too (after `reset`, the shell's graph is new).
    public func attach(to graph: Graph) {
        graph.observeStores { [weak self] event in self?.hear(event) }
        graph.observeRoutes { [weak self] navigation in
            self?.record(.route(SessionRoute(url: navigation.url, pattern: navigation.pattern, params: navigation.params,
                                             view: navigation.view, option: navigation.option.rawValue)))
        }
    }

    /// Records the skips, checkouts, sweeps and replaced histories of `histories` too.
    public func attach(to histories: StoreHistories) {
        histories.observe { [weak self] event in self?.record(event) }
    }

    /// Stops recording; nothing more goes to the sink.
    public func stop() {
        isRecording = false
    }

    /// Stops recording because of `failure` (a write of lines the sink held failed, say),
    /// which `failure` then keeps, unless an earlier one stopped it.
    public func stop(failure: SessionError) {
        if isRecording { self.failure = failure }
        isRecording = false
    }

    /// Records an event, unless the recording has stopped.
    public func record(_ event: SessionEvent) {
        guard isRecording else { return }
        deliver { () throws(SessionError) in
            switch destination {
            case .sink(let sink): try sink(event)
            case .receiver(let receiver): try receiver.receive(event)
            }
        }
    }

    /// Runs a delivery to the destination; the first error stops the recording.
    private func deliver(_ delivery: () throws(SessionError) -> Void) {
        do {
            try delivery()
        } catch {
            failure = error
            isRecording = false
        }
    }

    /// Records a command's text.
    public func command(_ text: String) {
        record(.command(text))
    }

    /// Records the deliveries a command's probes saw.
    public func deliveries(_ events: [GraphEvent]) {
        for case .probe(let port, let value, _) in events { record(.publish(port: port, value: value)) }
    }

    private func hear(_ event: StoreEvent) {
        guard isRecording else { return }
        switch event {
        case .created(let store, let state):
            stores[store] = StoreTrack(digest: StateDigest(state), checkpointInterval: Self.checkpointInterval(for: state))
            record(.store(name: store, state: state))
        case .step(let step, let state):
            // The track is changed in place: one lookup of the store's name, no copy.
            guard let position = stores.index(forKey: step.store) else { return }
            if step.failure == nil { stores.values[position].digest.apply(step.changes, after: state) }
            let hash = stores.values[position].digest
            switch destination {
            case .receiver(let receiver):
                deliver { () throws(SessionError) in try receiver.receiveAction(step, hash: hash) }
            case .sink:
                record(.action(SessionAction(step, hash: hash)))
            }
            stores.values[position].sinceCheckpoint += 1
            if stores.values[position].sinceCheckpoint >= stores.values[position].checkpointInterval {
                record(.checkpoint(store: step.store, index: step.index, state: state))
                stores.values[position].sinceCheckpoint = 0
                stores.values[position].checkpointInterval = Self.checkpointInterval(for: state)
            }
        case .moved(let store, let index, let state):
            // A jump and the state it leads to: enough for `inspect`, which runs no reducer.
            stores[store]?.digest = StateDigest(state)
            stores[store]?.sinceCheckpoint = 0
            record(.jump(store: store, index: index))
            record(.checkpoint(store: store, index: index, state: state))
        case .removed(let store):
            stores[store] = nil
        }
    }

    /// Actions between checkpoints: about the number of leaves of the state, so that a
    /// checkpoint costs about as much as the changes between two of them.
    static func checkpointInterval(for state: Value) -> Int {
        Swift.max(32, Swift.min(state.leafCount(limit: 100_000), 100_000))
    }
}

extension Value {
    /// How many scalars, empty objects and empty arrays the value holds, counting no further
    /// than `limit`.
    func leafCount(limit: Int) -> Int {
        var count = 0
        var pending: [Value] = [self]
        while let value = pending.popLast(), count < limit {
            switch value {
            case .object(let members) where !members.isEmpty: pending.append(contentsOf: members.values)
            case .array(let elements) where !elements.isEmpty: pending.append(contentsOf: elements)
            default: count += 1
            }
        }
        return count
    }
}
