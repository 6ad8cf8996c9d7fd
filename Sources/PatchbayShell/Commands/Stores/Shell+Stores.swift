@_spi(Shell) import PatchbayHistory
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

extension Shell {
    func run(_ command: StoreCommand, text: String, origin: SourceOrigin, output: inout [OutputLine]) throws(ShellError) -> CommandResult {
        let whole = 0..<text.utf8.count
        switch command {
        case .store(let name, let expression):
            let value = try evaluate(expression, in: text)
            try call([name], [], whole) { () throws(GraphError) in try graph.createStore(name.text, state: value) }
            return CommandResult(StoreMade(store: name.text, state: value))
        case .addReducer(let requested, let store, let type, let path, let condition, let delay, let body):
            let id = try call([store] + [requested].compactMap { $0 }, [], store.range) { () throws(GraphError) in
                try graph.addReducer(requested?.text, to: store.text, on: type.text, at: path, when: condition, after: delay, body: body)
            }
            let summary = try call([store], [], store.range) { () throws(GraphError) in try graph.reducerSummary(id) }
            return withStaleHistoryNote(ReducerDefined(summary: summary), of: store.text, type: summary.type)
        case .replaceReducer(let id, let body):
            let store = try call([id], [], id.range) { () throws(GraphError) in try graph.replaceReducer(id.text, body: body) }
            let summary = try call([id], [], id.range) { () throws(GraphError) in try graph.reducerSummary(id.text) }
            return withStaleHistoryNote(ReducerDefined(summary: summary), of: store, type: summary.type)
        case .listReducers(let store):
            let summaries = try call(store.map { [$0] } ?? [], [], whole) { () throws(GraphError) in
                try graph.reducerSummaries(of: store?.text)
            }
            let hosted = graph.hostedStoreNames.filter { store == nil || $0 == store?.text }
            return CommandResult(ReducerList(reducers: summaries, hosted: hosted))
        case .removeReducer(let id):
            let type = graph.storeNames.flatMap { (try? graph.reducerSummaries(of: $0)) ?? [] }.first { $0.id == id.text }?.type
            let store = try call([id], [], id.range) { () throws(GraphError) in try graph.removeReducer(id.text) }
            return withStaleHistoryNote(StoreHandlerRemoved(id: id.text), of: store, type: type ?? "*")
        case .addMiddleware(let requested, let store, let type, let body):
            let id = try call([store] + [requested].compactMap { $0 }, [], store.range) { () throws(GraphError) in
                try graph.addMiddleware(requested?.text, to: store.text, on: type?.text ?? "*", body: body)
            }
            let summary = try call([store], [], store.range) { () throws(GraphError) in
                try graph.middlewareSummaries(of: store.text).first { $0.id == id }!
            }
            return CommandResult(MiddlewareDefined(summary: summary))
        case .listMiddleware(let store):
            let summaries = try call(store.map { [$0] } ?? [], [], whole) { () throws(GraphError) in
                try graph.middlewareSummaries(of: store?.text)
            }
            // Every store's: the hosted ones with middleware; one store's: it, when it is hosted.
            let hosted = graph.hostedStoreNames.compactMap { name -> (store: String, count: Int)? in
                guard store == nil || name == store?.text, let count = graph.hostedMiddlewareCount(of: name),
                      count > 0 || store != nil else { return nil }
                return (name, count)
            }
            return CommandResult(MiddlewareList(middleware: summaries, hosted: hosted))
        case .removeMiddleware(let id):
            try call([id], [], id.range) { () throws(GraphError) in try graph.removeMiddleware(id.text) }
            return CommandResult(StoreHandlerRemoved(id: id.text))
        case .dispatch(let store, let type, let payload):
            let action = try action(type: type, payload: payload, text: text)
            let typeText: String = if case .string(let named)? = action["type"] { named } else { "?" }
            let typeRange = type?.range ?? payload?.range ?? whole
            let unhandled = unhandledTypeWarning(typeText, store: store?.text)
            // Where the store was, when it was in the past: the action starts a branch there.
            let past = (try? histories.history(of: store?.text)).flatMap { name, history in
                history.current < history.count ? (name: name, branch: history.branch, at: history.current, count: history.count) : nil
            }
            let step: StoreStep<ValueChange>?
            do throws(GraphError) { step = try graph.dispatch(store?.text, action) } catch {
                // A hosted store's action that does not decode: the caret is under the type or the fields.
                let place: Range<Int>? = switch error {
                case .actionDecoding(.unknownType): typeRange
                case .actionDecoding: payload?.range ?? typeRange
                default: Self.range(of: error, names: store.map { [$0] } ?? [], targets: [])
                }
                throw ShellError(.graph(error), at: place ?? store?.range ?? typeRange)
            }
            if let unhandled { warnedActionTypes[unhandled.store, default: []].insert(typeText) }
            let warning = unhandled
            guard let step else {
                let outcome: DispatchReport.Outcome = graph.engine.isInTransaction ? .queued(type: typeText) : .dropped(type: typeText)
                return CommandResult(DispatchReport(outcome: outcome, warning: warning))
            }
            let fork = past.flatMap { past -> DispatchReport.Fork? in
                guard let branch = try? histories.history(of: past.name).history.branch, branch != past.branch else { return nil }
                return DispatchReport.Fork(store: past.name, branch: branch, from: past.branch, at: past.at, count: past.count)
            }
            return CommandResult(DispatchReport(outcome: .step(step, fork: fork), warning: warning))
        case .use(let store):
            return try use(store)
        case .edit(let id):
            return try edit(id, origin: origin, output: &output)
        case .state(let store, let path, let pathStart, let tree):
            let node = try call(store.map { [$0] } ?? [], [], whole) { () throws(GraphError) in
                try graph.storeState(store?.text)
            }
            func result(_ value: Value) -> CommandResult { CommandResult(ValueReport(value: value, tree: tree)) }
            guard let path else { return result(node) }
            do {
                return result(try path.evaluate(Bindings(state: node), in: graph))
            } catch {
                // The path is read as `state.PATH` written over the command; the caret stays
                // under what the user wrote, not under the `state` put in front of it.
                let lower = Swift.max(error.range.lowerBound, pathStart)
                let upper = Swift.min(Swift.max(error.range.upperBound, lower + 1), Swift.max(text.utf8.count, lower + 1))
                throw ShellError(.expression(error, source: path.source), at: lower..<upper)
            }
        }
    }

    /// `use [STORE]`: selects the store that commands leaving out STORE use, or clears the
    /// selection.
    private func use(_ store: Name?) throws(ShellError) -> CommandResult {
        guard let store else {
            let was = selectedStore
            selectedStore = nil
            return CommandResult(StoreSelection(store: nil, was: was))
        }
        let stores = graph.storeNames.sorted()
        guard stores.contains(store.text) else {
            throw ShellError(.unknownStore(store.text, suggestion: Spelling.closest(to: store.text, among: stores), stores: stores), at: store.range)
        }
        selectedStore = store.text
        return CommandResult(StoreSelection(store: store.text, was: nil))
    }

    /// The action `dispatch` sends: `{type: TYPE, ...EXPR}`, or the object EXPR itself when no
    /// type was named (Redux style: `{type: "Add", by: 2}`).
    private func action(type: Name?, payload: Expression?, text: String) throws(ShellError) -> Value {
        var action: Value = type.map { ["type": .string($0.text)] } ?? [:]
        guard let payload else { return action }
        let value = try evaluate(payload, in: text)
        guard case .object(let members) = value else {
            let detail = type == nil ? "the action must be an object with a string type, such as {type: 'Add', by: 2}"
                : "the action's fields must be an object, such as {by: 2}"
            throw ShellError(.graph(.invalidAction("\(detail), not \(value.typeName)")), at: payload.range)
        }
        guard type != nil else {
            guard case .string? = members["type"] else {
                let found = members["type"].map { "a type that is \($0.typeName)" } ?? "no type"
                throw ShellError(.graph(.invalidAction("the action has \(found): give it a string type, such as {type: 'Add', by: 2}, "
                                                       + "or name the type before it (dispatch TYPE {by: 2})")), at: payload.range)
            }
            return value
        }
        for (key, member) in members where key != "type" { action = action.adding(key.string, member) }
        return action
    }

    /// A warning when no reducer of the store handles `type` (a typo, most often), with the
    /// closest type that one does, and the store's name: it is said once while the store lasts
    /// (see `warnedActionTypes`), not at every dispatch of the type. A store with a `*` reducer
    /// handles every type, and a hosted store decodes its own actions (it fails on a type it does
    /// not know).
    private func unhandledTypeWarning(_ type: String, store: String?) -> DispatchReport.UnhandledType? {
        guard let name = try? graph.storeName(store), (try? graph.storeHandles(type, in: name)) == false,
              warnedActionTypes[name]?.contains(type) != true else { return nil }
        let handled = graph.actionTypes(of: name)
        return DispatchReport.UnhandledType(store: name, type: type, closest: Spelling.closest(to: type, among: handled),
                                            hasReducers: !handled.isEmpty)
    }

    /// After a reducer of `store` for actions of `type` (`*`: all) changed: when the store's
    /// history has such an action, a note that its states were made by the old reducers and
    /// how to make them again (`note` in JSON). A replay notes each store once, and not in its
    /// setup lines.
    private func withStaleHistoryNote(_ change: some CommandReport, of store: String, type: String) -> CommandResult {
        let name = (try? graph.storeName(store)) ?? store
        guard let history = try? histories.history(of: name).history, history.count > 0,
              type == "*" || history.actionTypes.contains(type)
        else { return CommandResult(change) }
        if var notes = staleHistoryNotes {
            guard !notes.inSetup, notes.noted.insert(name).inserted else { return CommandResult(change) }
            staleHistoryNotes = notes
        }
        return CommandResult(StaleHistoryNoted(change: change, store: name, states: history.count))
    }
}
