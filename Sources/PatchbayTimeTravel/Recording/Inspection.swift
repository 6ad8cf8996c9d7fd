import PatchbayCore
public import PatchbayGraph
public import PatchbayRecorder

/// Rebuilds store histories from a recording's events (`inspect`, SPEC 8), without running a
/// reducer: states come from the patches, checked against the digests and checkpoints.
public struct Inspection {
    private let graph: Graph
    private let histories: StoreHistories
    /// Each store's state as the events so far leave it, and its digest.
    private var states: [String: (state: Value, digest: StateDigest)] = [:]
    /// What skipped actions had changed, by store and index, for when they are unskipped.
    private var skippedChanges: [String: [Int: [ValueChange]]] = [:]
    /// The stores, in the order the recording created them.
    public private(set) var order: [String] = []
    /// Where the recording disagrees with itself (a digest or checkpoint that does not match),
    /// each with the line it was found on when the caller gave it.
    public private(set) var warnings: [String] = []
    /// The line of the event being applied, for warnings.
    private var line: Int?

    /// Rebuilds into `graph`'s stores and `histories`.
    public init(graph: Graph, histories: StoreHistories) {
        self.graph = graph
        self.histories = histories
    }

    /// Applies one recorded event; `line`, the file's line that holds it, names it in warnings.
    public mutating func apply(_ event: SessionEvent, line: Int? = nil) throws(InspectionError) {
        self.line = line
        switch event {
        case .store(let name, let state):
            if graph.storeNameSet.contains(name) {
                // A store that exists (a recording's start rebuilds its stores twice): its
                // history starts again here.
                histories.replace(name, with: History(initial: state, store: name))
            } else {
                do { try graph.createStore(name, state: state) } catch { throw InspectionError(message: error.description) }
            }
            if !order.contains(name) { order.append(name) }
            states[name] = (state, StateDigest(state))
        case .action(let recorded):
            guard var (state, digest) = states.removeValue(forKey: recorded.store) else {
                throw InspectionError(message: "an action of \(recorded.store), which no store line created")
            }
            defer { states[recorded.store] = (state, digest) }
            let history = try history(recorded.store)
            guard recorded.index == history.current + 1 else {
                throw InspectionError(message: "action #\(recorded.index) of \(recorded.store) does not follow state #\(history.current)")
            }
            let changes: [ValueChange]
            do { changes = try JSONPatch.apply(recorded.patch, to: &state) } catch {
                throw InspectionError(message: "action #\(recorded.index) of \(recorded.store): \(error.description)")
            }
            digest.apply(changes, after: state)
            if let hash = recorded.hash, hash != digest {
                warn("action #\(recorded.index) of \(recorded.store): the state's digest is \(digest), the recording says \(hash)")
            }
            let entry = HistoryEntry(index: recorded.index, action: recorded.action, changes: changes, failure: recorded.failure,
                                     cause: recorded.cause, delayedReducer: recorded.delayedReducer)
            do { try history.record(entry, after: state) } catch { throw InspectionError(message: error.description) }
        case .checkpoint(let store, let index, let checkpoint):
            guard let current = states[store], let history = try? history(store), history.current == index else { return }
            if current.state != checkpoint {
                warn("checkpoint #\(index) of \(store) differs from the state the patches give; the checkpoint is kept")
                states[store] = (checkpoint, StateDigest(checkpoint))
            }
        case .jump(let store, let index):
            let history = try history(store)
            guard let current = states[store] else { return }
            do {
                let state = try history.jump(to: index, current: current.state)
                states[store] = (state, StateDigest(state))
            } catch {
                throw InspectionError(message: error.description)
            }
        case .skip(let store, let index, let skipped, let recomputed):
            let history = try history(store)
            guard let current = states[store] else { return }
            let steps = Dictionary(recomputed.map { ($0.index, $0) }, uniquingKeysWith: { _, last in last })
            if skipped, let entry = try? history.entry(index) { skippedChanges[store, default: [:]][index] = entry.changes }
            let restored = skipped ? [] : skippedChanges[store]?[index] ?? []
            do {
                let recomputation = try history.setSkipped(index, skipped, current: current.state) { state, entry in
                    // Each step does what the recording says the recomputation made it do.
                    if let step = steps[entry.index] {
                        do throws(JSONPatchError) {
                            return Reduction(changes: try JSONPatch.apply(step.patch, to: &state), failure: step.failure)
                        } catch {
                            return Reduction(changes: [], failure: "the recorded patch does not apply: \(error.description)")
                        }
                    }
                    // A file without recomputed steps (an older one): every action keeps its
                    // recorded changes, and an unskipped one gets back those it had.
                    var changes: [ValueChange] = []
                    for change in entry.index == index ? restored : entry.changes where (try? state.apply(change)) != nil {
                        changes.append(change)
                    }
                    return Reduction(changes: changes, failure: entry.failure)
                }
                states[store] = (recomputation.state, StateDigest(recomputation.state))
            } catch {
                throw InspectionError(message: error.description)
            }
        case .recompute(let store, let recomputed):
            let history = try history(store)
            guard let current = states[store] else { return }
            let steps = Dictionary(recomputed.map { ($0.index, $0) }, uniquingKeysWith: { _, last in last })
            do {
                let recomputation = try history.recompute(current: current.state) { state, entry in
                    // Each step does what the recording says the recomputation made it do.
                    guard let step = steps[entry.index] else { return Reduction(changes: [], failure: "the recording does not say what #\(entry.index) did") }
                    do throws(JSONPatchError) {
                        return Reduction(changes: try JSONPatch.apply(step.patch, to: &state), failure: step.failure)
                    } catch {
                        return Reduction(changes: [], failure: "the recorded patch does not apply: \(error.description)")
                    }
                }
                states[store] = (recomputation.state, StateDigest(recomputation.state))
            } catch {
                throw InspectionError(message: error.description)
            }
        case .reset(let store, let state):
            histories.replace(store, with: History(initial: state, store: store))
            states[store] = (state, StateDigest(state))
        case .checkout(let store, let branch):
            let history = try history(store)
            guard let current = states[store] else { return }
            do {
                let state = try history.checkout(branch, current: current.state)
                states[store] = (state, StateDigest(state))
            } catch {
                throw InspectionError(message: error.description)
            }
        case .sweep(let store):
            _ = try history(store).sweep()
        case .command, .setup, .publish, .route, .error:
            break
        }
    }

    /// Puts every store at the state its history ends at. A store already in that state is
    /// not published again, so that nothing wired to it runs twice.
    public func finish() throws(InspectionError) {
        for name in order {
            guard let current = states[name], let history = try? history(name) else { continue }
            do {
                if (try? graph.storeState(name)) == current.state {
                    try graph.restore(name, to: current.state, index: history.current)
                } else {
                    try graph.travel(name, to: current.state, index: history.current)
                }
            } catch {
                throw InspectionError(message: error.description)
            }
        }
    }

    private mutating func warn(_ text: String) {
        warnings.append(line.map { "line \($0): \(text)" } ?? text)
    }

    private func history(_ store: String) throws(InspectionError) -> History {
        do { return try histories.history(of: store).history } catch { throw InspectionError(message: error.description) }
    }
}

/// Why a recording could not be rebuilt past one of its lines.
public struct InspectionError: Error, Sendable, Equatable {
    public var message: String
}
