import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory

extension Shell {
    /// `inspect`: rebuilds every store's history from the recording's patches and checkpoints,
    /// event by event as `reader` reads them (up to the end of a followed file as it is now).
    /// Returns the result, the damage that ended the file early, if any, and the rebuild, which
    /// `inspect --follow` goes on with.
    func inspect(_ reader: SessionFileReader, path: String, at range: Range<Int>) throws(ShellError)
        -> (Inspected, SessionError?, Inspection)
    {
        var inspection = Inspection(graph: graph, histories: histories)
        var decoding = HostedDecodingCheck(graph: graph)
        var damage: SessionError?
        var stopped: ShellError?
        var count = 0
        while true {
            count += 1
            if count % 1024 == 0 { try checkInterruption() }
            let recorded: RecordedEvent
            do throws(SessionError) {
                guard let next = try reader.next() else { break }
                recorded = next
            } catch {
                damage = error
                break
            }
            do throws(InspectionError) {
                try inspection.apply(recorded.event, line: recorded.line)
            } catch {
                stopped = ShellError(.session(path: path, detail: "line \(recorded.line): \(error.message); everything before that line is loaded"),
                                     at: range)
                break
            }
            decoding.check(recorded)
        }
        // Every store shows the state of its current step, even when a line stopped the rebuild.
        do throws(InspectionError) {
            try inspection.finish()
        } catch {
            throw ShellError(.session(path: path, detail: error.message), at: range)
        }
        if let stopped { throw stopped }
        decoding.checkStates(of: inspection.order)
        let stores = inspection.order.map { name in (name: name, actions: (try? histories.history(of: name).history)?.count ?? 0) }
        // What the recording is, then what it holds that the app's types do not read, then where
        // it disagrees with itself.
        var warnings = reader.header.recordedThroughReflection
            ? ["\(path) was recorded through reflection (a state that is not Codable): it inspects fully, but it cannot be replayed, "
               + "and no reducer can recompute its states"]
            : []
        warnings += decoding.warnings + inspection.warnings
        return (Inspected(path: path, stores: stores, warnings: warnings), damage, inspection)
    }

    /// Imports a DevTools file into `store`: its history starts again from the file's
    /// preloaded state (or the store's own initial state), then each action is dispatched with
    /// a `dispatch` command. A recording holds the import as what it ran: a `setup` comment with
    /// the store's new start, then those commands, so that a replay runs the actions through the
    /// reducers as the import did (timers they schedule included) and never reads the file.
    func importDevTools(_ file: DevToolsFile, into store: String, force: Bool, path: String, range: Range<Int>,
                                command: String, origin: SourceOrigin) throws(ShellError) -> CommandResult {
        let exists = graph.storeNames.contains(store)
        // Without a state in the file, the store's own initial state: never `{}`.
        let initial: Value
        if let preloaded = file.preloadedState {
            initial = preloaded
        } else if exists {
            initial = try historyOf(store, range).initial
        } else {
            throw ShellError(.session(path: path, detail: "the file has no preloadedState (committedState) and there is no store \(store) to take "
                                      + "the initial state from; create it first ('store \(store) = {...}') or name an existing store"), at: range)
        }
        var replaced = (actions: 0, branches: 0)
        if exists {
            let history = try historyOf(store, range)
            replaced = (history.count, history.branches.count - 1)
            if replaced.actions > 0 || replaced.branches > 0, !force {
                throw ShellError(.session(path: path, detail: "\(store) has \(Self.replacedText(replaced)) in its history, which the import would replace; "
                                          + "'export devtools \(store) FILE' to keep them, then add --force, or import into a new store"), at: range)
            }
        }
        // The file holds the actions as the reducers got them: the store's middleware, which each
        // `dispatch` below would run, must not see them a second time.
        if exists, let middleware = try? graph.middlewareSummaries(of: store), !middleware.isEmpty {
            let ids = middleware.map(\.id).joined(separator: ", ")
            throw ShellError(.session(path: path, detail: "\(store) has middleware (\(ids)), which would see the imported actions a second time (a "
                                      + "Redux DevTools file holds them as the reducers got them); 'middleware rm' it first, or import into another store"),
                             at: range)
        }
        if exists, graph.hasAppMiddleware(store) {
            throw ShellError(.session(path: path, detail: "\(store) has the app's middleware, which would see the imported actions a second time (a "
                                      + "Redux DevTools file holds them as the reducers got them); import into another store"), at: range)
        }
        if let (number, reason) = file.actions.enumerated().lazy.compactMap({ index, action in
            ScriptLiteral.unreadableReason(action).map { (index + 1, $0) }
        }).first {
            throw ShellError(.session(path: path, detail: "action \(number) cannot be dispatched: \(reason)"), at: range)
        }
        // An app's store reads the file through the app's types: a state or an action they do
        // not decode is refused before anything changes (a state that does not decode would
        // leave the store refusing every dispatch; an action, a dispatch that fails unseen).
        if let failure = graph.hostedStateFailure(store, initial) {
            let state = file.preloadedState != nil ? "the file's preloadedState" : "the initial state of \(store)"
            throw ShellError(.session(path: path, detail: "\(state) does not decode as \(failure.type), the state of the app's store \(store): "
                                      + "\(failure.reason); nothing was imported"), at: range)
        }
        if let (number, action, failure) = file.actions.enumerated().lazy.compactMap({ index, action in
            self.graph.hostedActionFailure(store, action).map { (index + 1, action, $0) }
        }).first {
            let type = if case .string(let type)? = action["type"] { " (\(type))" } else { "" }
            throw ShellError(.session(path: path, detail: "action \(number)\(type) does not decode as one of the actions of the app's store \(store): "
                                      + "\(failure); nothing was imported"), at: range)
        }
        running.hasStartedInnerCommands = true
        for recorder in running.recordersInCharge { recorder.record(.setup("# " + Self.causeText(command))) }
        if exists {
            histories.replace(store, with: History(initial: initial, store: store))
            try call([], [], range) { () throws(GraphError) in try graph.travel(store, to: initial, index: 0) }
        } else {
            try call([], [], range) { () throws(GraphError) in try graph.createStore(store, state: initial) }
        }
        _ = graph.takeEvents()
        var failed = 0
        for action in file.actions {
            if perform("dispatch \(store) \(action)", at: origin, rendered: false).status == .failure { failed += 1 }
            try checkInterruption()
        }
        // The file's skipped actions and current step, as the commands that make them, so that a
        // recording holds them too. A store without reducers refuses `skip`: said in a warning.
        var unmarked: [Int] = []
        for index in file.skipped where perform("skip \(store) \(index)", at: origin, rendered: false).status == .failure {
            unmarked.append(index)
        }
        if let current = file.current, current != file.actions.count {
            _ = perform("jump \(store) \(current)", at: origin, rendered: false)
        }
        _ = graph.takeEvents()
        let hasReducers = (try? graph.hasReducers(store)) ?? false
        return CommandResult(DevToolsImported(store: store, actions: file.actions.count, failed: failed,
                                              skipped: file.skipped.filter { !unmarked.contains($0) }, unmarked: unmarked,
                                              current: file.current, replaced: replaced, hasReducers: hasReducers))
    }

    /// What an import replaces: `3 actions`, `3 actions and 1 other branch`.
    static func replacedText(_ replaced: (actions: Int, branches: Int)) -> String {
        var text = counted(replaced.actions, "action")
        if replaced.branches > 0 { text += " and \(replaced.branches) other branch\(replaced.branches == 1 ? "" : "es")" }
        return text
    }

    func historyOf(_ store: String, _ range: Range<Int>) throws(ShellError) -> History {
        do throws(TimeTravelError) { return try histories.history(of: store).history } catch {
            throw ShellError(.timeTravel(error), at: range)
        }
    }
}

/// What a recording holds that a hosted store's types do not decode: the first state (a
/// `store` line's, and for `inspect` the state the store ends at) and the first action of each
/// type, checked against the app's `State` and actions, at most one finding per store. `inspect`
/// says each in a warning line (the history shows as recorded, but the app's reducer cannot run
/// over it: `skip`, `unskip` and `history recompute` refuse, see `StoreHistories`); `replay`,
/// which would run the app's reducer on them, refuses the file.
struct HostedDecodingCheck {
    /// A state or action that does not decode: where, and the sentence that says what.
    struct Finding {
        var store: String
        var line: Int?
        var isState: Bool
        /// `the recorded state of app does not decode as AppState, the app's state (extra: missing)`.
        var text: String
    }

    private let graph: Graph
    private let hosted: Set<String>
    /// The action types checked so far, by store.
    private var checkedTypes: [String: Set<String>] = [:]
    /// The finding of each store that has one, in the order found.
    private(set) var findings: [Finding] = []

    init(graph: Graph) {
        self.graph = graph
        hosted = Set(graph.hostedStoreNames)
    }

    /// Whether there is anything to check: the shell hosts stores.
    var isNeeded: Bool { !hosted.isEmpty }

    /// Checks a state or action of a hosted store that `recorded` brings, unless its store has
    /// a finding already.
    mutating func check(_ recorded: RecordedEvent) {
        guard !hosted.isEmpty else { return }
        switch recorded.event {
        case .store(let name, let state, _), .reset(let name, let state):
            checkState(state, of: name, line: recorded.line, place: "the recorded state")
        case .action(let action, _):
            let name = action.store
            guard hosted.contains(name), !findings.contains(where: { $0.store == name }) else { return }
            guard checkedTypes[name, default: []].insert(action.type).inserted, let failure = graph.hostedActionFailure(name, action.action) else { return }
            findings.append(Finding(store: name, line: recorded.line, isState: false,
                                    text: "action #\(action.index) of \(name) does not decode as one of the app's actions (\(failure))"))
        default:
            break
        }
    }

    /// Checks the state each of `stores` is at now (where the recording left it).
    mutating func checkStates(of stores: [String]) {
        for name in stores {
            guard let state = try? graph.storeState(name), let index = try? graph.actionCount(of: name) else { continue }
            checkState(state, of: name, line: nil, place: "the state at #\(index)")
        }
    }

    private mutating func checkState(_ state: Value, of name: String, line: Int?, place: String) {
        guard hosted.contains(name), !findings.contains(where: { $0.store == name }),
              let failure = graph.hostedStateFailure(name, state) else { return }
        findings.append(Finding(store: name, line: line, isState: true,
                                text: "\(place) of \(name) does not decode as \(failure.type), the app's state (\(failure.reason))"))
    }

    /// One warning line per finding, for `inspect`.
    var warnings: [String] {
        findings.map { finding in
            let what = finding.isState
                ? "its states show as recorded, but the app's reducer cannot run on them: skip, unskip and history recompute refuse, "
                    + "and so does dispatch from such a state"
                : "its actions show as recorded, but the app's reducer cannot run them again: skip, unskip and history recompute refuse"
            return (finding.line.map { "line \($0): " } ?? "") + finding.text + ": " + what
        }
    }
}
