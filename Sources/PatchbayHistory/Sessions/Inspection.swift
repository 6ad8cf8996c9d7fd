@_spi(Shell) import PatchbayCore
@_spi(Shell) public import PatchbayGraph
@_spi(Shell) public import PatchbayRecorder

/// Rebuilds store histories from a recording's events (`help inspect`), without running a
/// reducer: states come from the patches, checked against the digests and checkpoints.
@_spi(Shell)
public struct Inspection {
    private let graph: Graph
    private let histories: StoreHistories
    /// Each store a store line created, as the events so far leave it.
    private var stores: [String: RebuiltStore] = [:]
    /// The store the last event was about, which the next action is most often about too: it is
    /// found without a dictionary lookup.
    private var last: RebuiltStore?
    /// The stores, in the order the recording created them.
    public private(set) var order: [String] = []
    /// Where the recording disagrees with itself (a digest that does not match),
    /// each with the line it was found on when the caller gave it.
    public private(set) var warnings: [String] = []
    /// The line of the event being applied, for warnings.
    private var line: Int?
    /// The first line of the last command read: where the actions recorded after it without
    /// a site of the app came from (`history --trace`).
    private var command: String?

    /// Rebuilds into `graph`'s stores and `histories`.
    public init(graph: Graph, histories: StoreHistories) {
        self.graph = graph
        self.histories = histories
    }

    /// Applies one recorded event; `line`, the file's line that holds it, names it in warnings.
    public mutating func apply(_ event: SessionEvent, line: Int? = nil) throws(InspectionError) {
        self.line = line
        switch event {
        case .store(let name, let state, _):
            let history: History
            if graph.storeNameSet.contains(name) {
                // A store that exists (a recording's start rebuilds its stores twice): its
                // history starts again here.
                history = History(initial: state, store: name)
                histories.replace(name, with: history)
            } else {
                do { try graph.createStore(name, state: state) } catch { throw InspectionError(message: error.description) }
                history = try self.history(name)
            }
            if !order.contains(name) { order.append(name) }
            let store = RebuiltStore(name: name, history: history, state: state)
            // What skipped actions changed stays known through a rebuild of the same history.
            store.skippedChanges = stores[name]?.skippedChanges ?? [:]
            stores[name] = store
            last = store
        case .action(var recorded, let hash):
            if recorded.site == nil, let command { recorded.site = .shell([command]) }
            guard let store = rebuilt(recorded.store) ?? takenOver(recorded.store) else {
                throw InspectionError(message: "an action of \(recorded.store), which no store line created")
            }
            let history = store.history
            guard recorded.index == history.current + store.unrecorded.count + 1 else {
                let last = history.current + store.unrecorded.count
                throw InspectionError(message: SessionEvent.actionOutOfPlace(recorded.index, of: recorded.store, reached: last))
            }
            guard let patch = recorded.recordedChanges else {
                // Its state comes with the next checkpoint.
                store.unrecorded.append(recorded)
                return
            }
            guard store.unrecorded.isEmpty else {
                throw InspectionError(message: "action #\(recorded.index) of \(recorded.store) holds a patch, but the state before it "
                    + "is not in the recording (no checkpoint after #\(history.current + store.unrecorded.count))")
            }
            // The state is changed where the store holds it, so that only a state a checkpoint
            // of the history shares is ever copied.
            let changes: [ValueChange]
            do { changes = try JSONPatch.apply(patch, to: &store.state) } catch {
                throw InspectionError(message: "action #\(recorded.index) of \(recorded.store): \(error.description)")
            }
            store.digest.apply(changes, after: store.state)
            if let hash, hash != store.digest {
                warn("action #\(recorded.index) of \(recorded.store): the state's digest is \(store.digest), the recording says \(hash)")
            }
            do { try history.record(recorded.withChanges(changes), after: store.state) } catch {
                throw InspectionError(message: error.description)
            }
        case .checkpoint(let name, let index, let checkpoint):
            guard let store = rebuilt(name) else { return }
            if !store.unrecorded.isEmpty, store.history.current + store.unrecorded.count == index {
                try store.recordUnrecorded(reaching: checkpoint)
                return
            }
            // A checkpoint is written after the step it holds: one of another step is damage.
            let reached = store.history.current + store.unrecorded.count
            guard index == reached else { throw InspectionError(message: SessionEvent.checkpointOutOfPlace(index, of: name, reached: reached)) }
            // The history shows the states the patches give: a checkpoint that says otherwise
            // is damage, where it stands, and not a state to take (what a jump shows would then
            // disagree with what the store held).
            if store.state != checkpoint { throw InspectionError(message: SessionEvent.checkpointDamage(index, of: name)) }
        case .jump(let name, let index):
            guard let store = try rebuiltOrNone(name) else { return }
            do {
                store.reset(to: try store.history.jump(to: index, current: store.state))
            } catch {
                throw InspectionError(message: error.description)
            }
        case .skip(let name, let index, let skipped, let recomputed):
            guard let store = try rebuiltOrNone(name) else { return }
            let history = store.history
            let steps = Dictionary(recomputed.map { ($0.index, $0) }, uniquingKeysWith: { _, last in last })
            if skipped, let entry = try? history.entry(index) { store.skippedChanges[index] = entry.changes }
            let restored = skipped ? [] : store.skippedChanges[index] ?? []
            do {
                let recomputation = try history.setSkipped(index, skipped, current: store.state) { state, entry in
                    // Each step does what the recording says the recomputation made it do.
                    if let step = steps[entry.index] { return Self.apply(step, to: &state) }
                    // A file without recomputed steps (an older one): every action keeps its
                    // recorded changes, and an unskipped one gets back those it had.
                    var changes: [ValueChange] = []
                    for change in entry.index == index ? restored : entry.changes where (try? state.apply(change)) != nil {
                        changes.append(change)
                    }
                    return Reduction(changes: changes, failure: entry.failure)
                }
                store.reset(to: recomputation.state)
            } catch {
                throw InspectionError(message: error.description)
            }
        case .recompute(let name, let recomputed):
            guard let store = try rebuiltOrNone(name) else { return }
            let steps = Dictionary(recomputed.map { ($0.index, $0) }, uniquingKeysWith: { _, last in last })
            do {
                let recomputation = try store.history.recompute(current: store.state) { state, entry in
                    guard let step = steps[entry.index] else {
                        return Reduction(changes: [], failure: "the recording does not say what #\(entry.index) did")
                    }
                    return Self.apply(step, to: &state)
                }
                store.reset(to: recomputation.state)
            } catch {
                throw InspectionError(message: error.description)
            }
        case .reset(let name, let state):
            let history = History(initial: state, store: name)
            histories.replace(name, with: history)
            if let store = rebuilt(name) {
                store.history = history
                store.reset(to: state)
            } else if graph.storeNameSet.contains(name) {
                // A store no store line created (one a replayed command made) is rebuilt from here.
                stores[name] = RebuiltStore(name: name, history: history, state: state)
                order.append(name)
            }
        case .checkout(let name, let branch):
            guard let store = try rebuiltOrNone(name) else { return }
            do {
                store.reset(to: try store.history.checkout(branch, current: store.state))
            } catch {
                throw InspectionError(message: error.description)
            }
        case .sweep(let name):
            let swept = try history(name)
            do throws(HistoryError) { _ = try swept.sweep() } catch { throw InspectionError(message: error.description) }
        case .route(let route):
            // The router's history, as `history router` shows it.
            graph.restoreRoute(url: route.url, pattern: route.pattern, params: route.params, view: route.view,
                               option: route.option.flatMap(RoutingOption.init(rawValue:)) ?? .push)
        case .command(let text):
            command = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
        case .setup, .publish, .error, .timer:
            // A pending timer is set again by a replay, which makes the nodes it belongs to.
            break
        }
    }

    /// Puts every store at the state its history ends at. A store already in that state is
    /// not published again, so that nothing wired to it runs twice.
    ///
    /// More events may be applied afterwards (`inspect --follow`): call `resume()` first.
    /// `keepingUnrecorded`: actions after the last checkpoint whose states the recording does
    /// not hold wait for a later checkpoint (`inspect --follow`) instead of joining the history
    /// as not recorded.
    public func finish(keepingUnrecorded: Bool = false) throws(InspectionError) {
        for name in order {
            guard let store = stores[name] else { continue }
            if !keepingUnrecorded { try store.recordUnrecorded(reaching: nil) }
            store.finished = (store.history.branch, store.history.current)
            var failure: GraphError?
            // Derived nodes follow the state; what is wired to a dispatch does not run: the
            // recording holds the actions it dispatched.
            graph.engine.droppingFollowUps {
                do throws(GraphError) {
                    if (try? graph.storeState(name)) == store.state {
                        try graph.restore(name, to: store.state, index: store.history.current)
                    } else {
                        try graph.travel(name, to: store.state, index: store.history.current)
                    }
                } catch {
                    failure = error
                }
            }
            if let failure { throw InspectionError(message: failure.description) }
        }
    }

    /// Before more events, after `finish()` and a pause in which the stores may have been
    /// moved through their histories (`jump`, `checkout`): puts each history back where the
    /// recording left it, so that the next action follows the recording's last one. Throws when
    /// a history was replaced or rewritten so that it cannot go back there.
    public mutating func resume() throws(InspectionError) {
        for name in order {
            guard let store = stores[name], let (branch, index) = store.finished else { continue }
            let history = store.history
            guard (try? histories.history(of: name).history) === history else {
                throw InspectionError(message: "the history of \(name) was replaced since it was read; open the file again")
            }
            guard history.branch != branch || history.current != index else { continue }
            var state = (try? graph.storeState(name)) ?? store.state
            do {
                if history.branch != branch { state = try history.checkout(branch, current: state) }
                _ = try history.jump(to: index, current: state)
            } catch {
                throw InspectionError(message: "\(name) cannot go back to where the recording left it: \(error.description)")
            }
        }
    }

    /// Where `inspect` finds the file `reader` reads damaged: its first line that does not read,
    /// or that the rebuild cannot take (`line 7: action #3 of app does not follow state #1`);
    /// `nil` when the whole file rebuilds. Rebuilt into a graph of its own, so a verification
    /// that met a divergence asks what `inspect` would say of the file without touching the
    /// session. `checking` runs every 1,024 lines: what it throws (Ctrl-C) stops the reading.
    public static func damage<Failure: Error>(in reader: SessionFileReader, checking: () throws(Failure) -> Void) throws(Failure) -> String? {
        let graph = Graph()
        var inspection = Inspection(graph: graph, histories: StoreHistories(graph: graph))
        var count = 0
        while true {
            count += 1
            if count % 1_024 == 0 { try checking() }
            let recorded: RecordedEvent
            do throws(SessionError) {
                guard let next = try reader.next() else { return nil }
                recorded = next
            } catch {
                return error.detail
            }
            do throws(InspectionError) { try inspection.apply(recorded.event, line: recorded.line) } catch {
                return "line \(recorded.line): \(error.message)"
            }
        }
    }

    private mutating func warn(_ text: String) {
        warnings.append(line.map { "line \($0): \(text)" } ?? text)
    }

    /// The store a store line created under `name`, if one did.
    private mutating func rebuilt(_ name: String) -> RebuiltStore? {
        if let last, last.name == name { return last }
        guard let store = stores[name] else { return nil }
        last = store
        return store
    }

    /// A store of the graph that no store line of these events created, which an action of the
    /// events comes to (a setup's events: an import whose reset set off a wire into another
    /// store): rebuilt from here, on its history as it stands.
    private mutating func takenOver(_ name: String) -> RebuiltStore? {
        guard graph.storeNameSet.contains(name), let history = try? history(name), let state = try? graph.storeState(name) else { return nil }
        let store = RebuiltStore(name: name, history: history, state: state)
        stores[name] = store
        order.append(name)
        last = store
        return store
    }

    /// The store a store line created under `name`; `nil` for one of the graph that no store
    /// line created, which has nothing to rebuild. Throws for a name the graph does not have.
    private mutating func rebuiltOrNone(_ name: String) throws(InspectionError) -> RebuiltStore? {
        if let store = rebuilt(name) { return store }
        _ = try history(name)
        return nil
    }

    private func history(_ store: String) throws(InspectionError) -> History {
        do { return try histories.history(of: store).history } catch { throw InspectionError(message: error.description) }
    }

    /// What a recomputed step the recording carries does to `state`.
    private static func apply(_ step: RecomputedStep, to state: inout Value) -> Reduction {
        do throws(JSONPatchError) {
            return Reduction(changes: try JSONPatch.apply(step.changes, to: &state), failure: step.failure)
        } catch {
            return Reduction(changes: [], failure: "the recorded patch does not apply: \(error.description)")
        }
    }
}

/// A store being rebuilt: its history, and the state and digest the events so far leave it at.
/// A class, so that an action changes the state in place (a struct in a dictionary would be
/// taken out and put back for each action).
private final class RebuiltStore {
    let name: String
    var history: History
    var state: Value
    var digest: StateDigest
    /// What skipped actions had changed, by index, for when they are unskipped.
    var skippedChanges: [Int: [ValueChange]] = [:]
    /// Where `finish()` left the history: its branch and current state.
    var finished: (branch: String, index: Int)?
    /// Action lines without their patch since the last state known, recorded once a checkpoint
    /// gives the state after them.
    var unrecorded: [StoreStep<JSONPatch.Operation>] = []

    init(name: String, history: History, state: Value) {
        self.name = name
        self.history = history
        self.state = state
        digest = StateDigest(state)
    }

    /// Records the steps of `unrecorded`, marked so: none with changes of its own, and the last
    /// with what they all changed to reach `state`, the checkpoint after it (`nil` at the end
    /// of what was read, when no checkpoint came: the state stays the last one known).
    func recordUnrecorded(reaching state: Value?) throws(InspectionError) {
        guard let last = unrecorded.last else { return }
        do throws(HistoryError) {
            for line in unrecorded.dropLast() { try history.record(line.withChanges([ValueChange]()), after: self.state) }
            let changes = state.map { self.state.changes(to: $0) } ?? []
            if let state { reset(to: state) }
            try history.record(last.withChanges(changes), after: self.state)
        } catch {
            throw InspectionError(message: error.description)
        }
        unrecorded = []
    }

    /// Puts the store at `state`, whose digest is computed again.
    func reset(to state: Value) {
        self.state = state
        digest = StateDigest(state)
    }
}

/// Why a recording could not be rebuilt past one of its lines.
@_spi(Shell)
public struct InspectionError: Error, Sendable, Equatable {
    public var message: String
}
