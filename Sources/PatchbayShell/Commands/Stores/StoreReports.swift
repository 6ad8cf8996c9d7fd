@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

/// A store made (`store NAME = EXPR`): `NAME = STATE`; `{store, state}` in JSON.
struct StoreMade: CommandReport {
    var store: String
    var state: Value

    func lines(in style: OutputStyle) -> [String] { ["\(store) = \(style.value(state))"] }
    var json: Value { ["store": .string(store), "state": state] }
}

/// A reducer as it is now (`reducer add`, `reducer replace`): `ID: STORE on TYPE ... : BODY`;
/// the summary in JSON.
struct ReducerDefined: CommandReport {
    var summary: ReducerSummary

    func lines(in style: OutputStyle) -> [String] { [Self.line(summary)] }
    var json: Value { summary.json }

    /// `ID: STORE on TYPE ... : BODY`, as `reducer list` shows it too.
    static func line(_ summary: ReducerSummary) -> String { "\(summary.id): \(summary.line)" }
}

/// The reducers of a store, or of every store (`reducer list`): a line each, and a line for
/// each hosted store listed, whose reducer is the app's Swift code; in JSON, their summaries,
/// then `{store, hosted: true}` for each hosted store.
struct ReducerList: CommandReport {
    var reducers: [ReducerSummary]
    /// The hosted stores among those listed.
    var hosted: [String] = []

    func lines(in style: OutputStyle) -> [String] {
        guard !reducers.isEmpty || !hosted.isEmpty else { return ["no reducers yet"] }
        return reducers.map(ReducerDefined.line) + hosted.map { "\($0) is hosted: its reducer is the app's Swift code" }
    }
    var json: Value { .array(reducers.map(\.json) + hosted.map { ["store": .string($0), "hosted": true] }) }
}

/// A middleware added (`middleware add`): `ID: STORE on TYPE : BODY`; the summary in JSON.
struct MiddlewareDefined: CommandReport {
    var summary: MiddlewareSummary

    func lines(in style: OutputStyle) -> [String] { [Self.line(summary)] }
    var json: Value { summary.json }

    /// `ID: STORE on TYPE : BODY`, as `middleware list` shows it too.
    static func line(_ summary: MiddlewareSummary) -> String { "\(summary.id): \(summary.line)" }
}

/// The middleware of a store, or of every store (`middleware list`): a line each, and a line
/// for each hosted store listed that has the app's middleware (or for the one hosted store
/// asked for); in JSON, their summaries, then `{store, hosted: true, count}` for those stores.
struct MiddlewareList: CommandReport {
    var middleware: [MiddlewareSummary]
    /// The hosted stores listed, with how many middleware the app gave each.
    var hosted: [(store: String, count: Int)] = []

    func lines(in style: OutputStyle) -> [String] {
        guard !middleware.isEmpty || !hosted.isEmpty else { return ["no middleware yet"] }
        return middleware.map(MiddlewareDefined.line) + hosted.map { store, count in
            count == 0 ? "\(store) is hosted: the app gave it no middleware"
                : "\(store) is hosted: the app gave it \(count) middleware, Swift code the shell does not list"
        }
    }
    var json: Value {
        .array(middleware.map(\.json) + hosted.map { ["store": .string($0.store), "hosted": true, "count": .int($0.count)] })
    }
}

/// A reducer or middleware removed (`reducer remove`, `middleware remove`): `removed ID`;
/// `{removed: ID}` in JSON.
struct StoreHandlerRemoved: CommandReport {
    var id: String

    func lines(in style: OutputStyle) -> [String] { ["removed \(id)"] }
    var json: Value { ["removed": .string(id)] }
}

/// A reducer change (`reducer add/replace/remove`) to a store that has a history: the change's
/// report, then a note that the history's states were made by the old reducers and how to make
/// them again (`note` in JSON).
struct StaleHistoryNoted<Change: CommandReport>: CommandReport {
    var change: Change
    /// The store whose reducers changed.
    var store: String
    /// How many states its history holds (at least one).
    var states: Int

    private var note: String {
        "\(store)'s \(states == 1 ? "1 state was" : "\(states) states were") made by the old reducers; "
            + "'history recompute \(store)' runs them again"
    }

    func lines(in style: OutputStyle) -> [String] { change.lines(in: style) + ["note: " + note] }
    var json: Value { change.json.adding("note", .string(note)) }
}

/// What `dispatch` did: the step it made (and the branch it started, when the store was in the
/// past), or that the action waits for the transaction or was dropped by a middleware; a
/// warning first when no reducer handles the action's type (`warning` in JSON).
struct DispatchReport: CommandReport {
    enum Outcome: Equatable {
        /// The action made `step`; `fork` when it started a new branch.
        case step(StoreStep<ValueChange>, fork: Fork?)
        /// The action of type `type` waits for the open transaction to commit.
        case queued(type: String)
        /// A middleware dropped the action of type `type`.
        case dropped(type: String)
    }

    /// The branch an action started from a past step.
    struct Fork: Equatable {
        var store: String
        /// The new branch.
        var branch: String
        /// The branch the store was on, which keeps its actions.
        var from: String
        /// The step it was at.
        var at: Int
        /// How many actions `from` keeps.
        var count: Int
    }

    /// An action type that no reducer of the store handles: a typo, most often.
    struct UnhandledType: Equatable {
        var store: String
        var type: String
        /// The handled type closest to `type`, if one is close.
        var closest: String?
        var hasReducers: Bool

        /// `no reducer of app handles 'Ad'; did you mean 'Add'?`
        var text: String {
            let hint = closest.map { "; did you mean '\($0)'?" } ?? (hasReducers ? "" : " (it has no reducers yet)")
            return "no reducer of \(store) handles '\(type)'\(hint)"
        }
    }

    var outcome: Outcome
    /// Said before the outcome, once per store and type.
    var warning: UnhandledType?

    func lines(in style: OutputStyle) -> [String] {
        let warnings = warning.map { ["warning: " + $0.text] } ?? []
        switch outcome {
        case .queued(let type): return warnings + ["\(type) waits for the transaction to commit"]
        case .dropped(let type): return warnings + ["\(type) was dropped by a middleware: nothing changed"]
        case .step(let step, let fork):
            guard let fork else { return warnings + [step.line(in: style)] }
            let line = "new branch \(fork.branch) from \(fork.from) at #\(fork.at): \(fork.from) keeps its \(counted(fork.count, "action")) "
                + "('checkout \(fork.store) \(fork.from)' goes back)"
            return warnings + [step.line(in: style), line]
        }
    }

    var json: Value {
        let base: Value = switch outcome {
        case .queued: ["queued": true]
        case .dropped: ["dropped": true]
        case .step(let step, _): step.json
        }
        let warned = warning.map { base.adding("warning", .string($0.text)) } ?? base
        guard case .step(_, let fork?) = outcome else { return warned }
        return warned.adding("branch", ["name": .string(fork.branch), "from": .string(fork.from), "at": .int(fork.at)])
    }
}

/// The store selection (`use [STORE]`): which store commands leaving out STORE use now, or that
/// none is (and which one was); `{store}` in JSON, `null` when none.
struct StoreSelection: CommandReport {
    /// The store selected now; `nil` after `use` alone.
    var store: String?
    /// The store that was selected before `use` alone cleared it.
    var was: String?

    func lines(in style: OutputStyle) -> [String] {
        if let store { return ["using \(store): commands that leave out STORE use it ('use' alone clears it)"] }
        return [was.map { "no store is selected now (was \($0)): commands name their store, or use the only one" }
            ?? "no store is selected: commands name their store, or use the only one"]
    }
    var json: Value { ["store": store.map(Value.string) ?? .null] }
}
