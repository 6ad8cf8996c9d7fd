@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayHistory
@_spi(Shell) import PatchbayRecorder

/// The actions `history` shows (filtered or not, the newest when there are more): the branch
/// when the store has several, a count line when filtered or cut, then a line each, formatted
/// only when shown; in JSON the array of the steps shown (the count is for people).
struct HistoryListing: CommandReport {
    /// The store whose history it is.
    var store: String
    /// The entries shown, oldest first.
    var entries: [StoreStep<ValueChange>]
    /// The history's current step.
    var current: Int
    /// The current branch, when the history has more than one.
    var branch: BranchSummary?
    /// Whether a filter or a range (`--from`, `--to`) was given: then the count line is shown.
    var filtering: Bool
    /// How many actions of the range the filters matched (all of them without a filter).
    var matched: Int
    /// How many actions the range holds.
    var searched: Int
    /// The steps `--from` and `--to` gave, when either was given.
    var span: (from: Int, to: Int)?
    /// Whether `--last` was given.
    var lastGiven: Bool
    /// Whether the list starts at the initial state, shown as `#0 (initial state)`.
    var showsInitialState: Bool
    /// Whether each action is shown with where it came from (`--trace`): a line of its own under
    /// it, and `site` in JSON.
    var trace = false

    func lines(in style: OutputStyle) -> [String] {
        var lines: [String] = []
        if let branch {
            lines.append("on branch \(branch.name)" + (branch.origin.map { " (\($0))" } ?? ""))
        }
        let hidden = matched - entries.count
        if filtering {
            let span = span.map { " (#\($0.from) to #\($0.to))" } ?? ""
            var line = "\(matched) of \(counted(searched, "action"))\(span) \(matched == 1 ? "matches" : "match")"
            if hidden > 0 { line += " (the last \(entries.count) shown\(lastGiven ? "" : "; use --last N"))" }
            lines.append(line)
        } else if !lastGiven, hidden > 0 {
            lines.append("(\(hidden) older actions not shown; use --last N)")
        }
        if showsInitialState {
            lines.append("\(current == 0 ? ">" : " ")  #0 (initial state)")
        }
        for entry in entries {
            let mark = (entry.index == current ? ">" : " ") + (entry.skipped ? "~" : entry.failure != nil ? "!" : " ")
            let cause = entry.cause.map { "  (dispatched by #\($0))" } ?? ""
            lines.append("\(mark) #\(entry.index) \(style.action(entry.action))  \(effect(of: entry, in: style))" + cause)
            if trace { lines.append("     " + entry.site.traceLine) }
        }
        return lines
    }

    var json: Value {
        .array(entries.map { entry in
            let json = Self.json(entry, current: current)
            return trace ? json.adding("site", entry.site.json) : json
        })
    }

    /// An entry as `history --json` gives it.
    private static func json(_ entry: StoreStep<ValueChange>, current: Int) -> Value {
        var json: Value = ["index": .int(entry.index), "action": entry.action, "changes": entry.changes.json,
                           "skipped": .bool(entry.skipped), "failed": .bool(entry.failure != nil),
                           "current": .bool(entry.index == current)]
        if let failure = entry.failure { json = json.adding("failure", .string(failure)) }
        if let cause = entry.cause { json = json.adding("cause", .int(cause)) }
        if entry.unrecorded { json = json.adding("unrecorded", .bool(true)) }
        return json
    }

    /// What an action did, for a history line: the paths it changed (matched by identity, as
    /// `dispatch` shows them).
    private func effect(of entry: StoreStep<ValueChange>, in style: OutputStyle) -> String {
        if entry.skipped { return "(skipped)" }
        if let failure = entry.failure { return "failed: \(failure)" }
        if entry.unrecorded && entry.changes.isEmpty { return "(change not recorded)" }
        guard !entry.changes.isEmpty else { return "(no changes)" }
        let changes = entry.unrecorded ? entry.changes.map(PresentedChange.change) : style.presented(entry.changes, store: store, step: entry.index)
        let paths = changes.prefix(6).map(\.pathText).joined(separator: ", ")
        let shown = changes.count > 6 ? paths + ", +\(changes.count - 6) more" : paths
        return entry.unrecorded ? shown + " (since the last recorded state)" : shown
    }
}

/// The number at a path over the steps (`history --chart PATH`): a title, then a chart, or a
/// sparkline when asked or when the output is too narrow for a chart; the points in JSON.
struct HistoryChart: CommandReport {
    var store: String
    var path: String
    var from: Int
    var to: Int
    /// The number at each step; `nil` where the path is missing or null.
    var points: [(index: Int, value: Double?)]
    /// The value at each step, as it was (int, decimal or null).
    var values: [Value]
    /// Whether `--spark` asked for a sparkline.
    var sparkline: Bool
    /// The history's current step, when it is among the steps charted: marked with `▲`.
    var current: Int?

    func lines(in style: OutputStyle) -> [String] {
        let integers = values.allSatisfy { if case .decimal = $0 { false } else { true } }
        var chart = Chart(points: points) { Chart.label($0, integers: integers) }
        chart.current = current.flatMap { current in
            points.firstIndex { $0.index == current }.map { (current, style.value(values[$0])) }
        }
        let title = "\(store)\(path.hasPrefix("[") ? "" : ".")\(path) from #\(from) to #\(to)"
        let width = style.width
        return [title] + (sparkline || width < Chart.minimumWidth ? chart.sparkline(width: width) : chart.plot(width: width))
    }

    var json: Value {
        ["store": .string(store), "path": .string(path), "from": .int(from), "to": .int(to), "current": current.map(Value.int) ?? .null,
         "points": .array(zip(points, values).map { point, value in ["index": .int(point.index), "value": value] })]
    }
}

/// Every URL routed in this session (`history router`): a line each; their navigations in JSON.
struct RouteHistory: CommandReport {
    var routes: [Navigation]

    func lines(in style: OutputStyle) -> [String] {
        routes.isEmpty ? ["no URL routed yet"] : routes.enumerated().map { number, route in
            let target = route.view.map { "→ \($0) (\(route.option.rawValue))" } ?? "(handler: no view)"
            return "#\(number + 1) \(route.url)  \(route.pattern)  \(route.params)  \(target)"
        }
    }
    var json: Value { .array(routes.map(\.value)) }
}

/// A store's state at a step it went to (`jump`, `checkout`): `STORE at #I of N: STATE` or
/// `STORE on BRANCH at #I: STATE`; `{store, index, count, state}` or `{store, branch, index, state}`
/// in JSON.
struct StoreAtStep: CommandReport {
    /// How the store got there.
    enum Move: Equatable {
        /// `jump`: to a step of the current branch, which has `count` actions.
        case jump(count: Int)
        /// `checkout`: to the last step of `branch`.
        case checkout(branch: String)
    }

    var store: String
    var index: Int
    var state: Value
    var move: Move

    func lines(in style: OutputStyle) -> [String] {
        switch move {
        case .jump(let count): ["\(store) at #\(index) of \(count): \(style.value(state))"]
        case .checkout(let branch): ["\(store) on \(branch) at #\(index): \(style.value(state))"]
        }
    }

    var json: Value {
        switch move {
        case .jump(let count): ["store": .string(store), "index": .int(index), "count": .int(count), "state": state]
        case .checkout(let branch): ["store": .string(store), "branch": .string(branch), "index": .int(index), "state": state]
        }
    }
}

/// How a state differs from another (`diff`: two steps, `#2 → #5`, or two branches' current
/// states, `main → b1`): a coloured line per change, or that there is no difference (at the path
/// asked for); the changes in JSON.
struct StateDiff: CommandReport {
    /// The states compared, as the no-difference line names them (`#2`, `main`).
    var from: String
    var to: String
    /// The path `--path` narrowed the changes to.
    var path: [ValueChange.PathComponent]?
    /// The changes shown.
    var changes: [ValueChange]
    /// The changes as people read them (matched by identity): shown instead of `changes` when given.
    var presented: [PresentedChange]?

    func lines(in style: OutputStyle) -> [String] {
        let shown = presented ?? changes.map(PresentedChange.change)
        guard shown.isEmpty else { return shown.map(style.change) }
        return ["\(from) → \(to): no differences" + (path.map { " at \(ValueChange.pathText($0))" } ?? "")]
    }
    var json: Value { changes.json }
}

/// A history run again with the reducers as they are now (`history recompute`): how many
/// actions, how many states changed, and how the first changed state differs from what it was.
struct Recomputed: CommandReport {
    var store: String
    var actions: Int
    var changedStates: Int
    var firstChanged: Int?
    /// How the first changed state differs, from what it was to what it is.
    var firstChanges: [ValueChange]
    /// Those changes as people read them (matched by identity), when they are.
    var presented: [PresentedChange]?

    func lines(in style: OutputStyle) -> [String] {
        let first = firstChanged.map { ", the first at #\($0)" } ?? ""
        let head = "recomputed \(counted(actions, "action")) of \(store) with its reducers as they are now: "
            + statesChanged(changedStates) + first
        return [head + (firstChanges.isEmpty ? "" : ":")] + (presented?.map(style.change) ?? firstChanges.map(style.change))
    }

    var json: Value {
        ["store": .string(store), "actions": .int(actions), "changed": .int(changedStates),
         "firstChanged": firstChanged.map(Value.int) ?? .null, "firstChanges": firstChanges.json]
    }
}

/// An action skipped or taken back (`skip`, `unskip`): `skipped #I: N states changed`;
/// `{index, skipped, changed}` in JSON.
struct SkipToggled: CommandReport {
    var index: Int
    var skipped: Bool
    var changedStates: Int

    func lines(in style: OutputStyle) -> [String] {
        ["\(skipped ? "skipped" : "unskipped") #\(index): \(statesChanged(changedStates))"]
    }
    var json: Value { ["index": .int(index), "skipped": .bool(skipped), "changed": .int(changedStates)] }
}

/// `lines` with a line before them counting the `before` left out (`(50 earlier matches not
/// shown; use --first N or --last N)`, the hint only when no bound was given) and one after
/// them counting the `after` left out; `nouns` is what is counted, singular and plural.
private func leftOut(_ lines: [String], before: Int, after: Int, boundGiven: Bool, nouns: (String, String)) -> [String] {
    var shown = lines
    if before > 0 {
        let noun = before == 1 ? nouns.0 : nouns.1
        shown.insert("(\(before) earlier \(noun) not shown\(boundGiven ? "" : "; use --first N or --last N"))", at: 0)
    }
    if after > 0 { shown.append("(\(after) later \(after == 1 ? nouns.0 : nouns.1) not shown)") }
    return shown
}

/// `1 state changed`, `3 states changed`.
private func statesChanged(_ count: Int) -> String {
    count == 1 ? "1 state changed" : "\(count) states changed"
}

/// The actions that changed a path (`blame PATH`): each with its old and new value, with a
/// line counting those left out (`--first N`, `--last N`, the last 200 by default); in JSON
/// `[{index, action, old, new}]`, those shown.
struct BlameListing: CommandReport {
    var path: [ValueChange.PathComponent]
    var blames: [Blame]
    /// How many changes before those shown, and after them, are left out.
    var hiddenBefore = 0
    var hiddenAfter = 0
    /// Whether `--first` or `--last` was given.
    var boundGiven = false

    func lines(in style: OutputStyle) -> [String] {
        guard !blames.isEmpty || hiddenBefore + hiddenAfter > 0 else { return ["no action changed \(ValueChange.pathText(path))"] }
        let lines = blames.map { blame in
            "#\(blame.index) \(style.action(blame.action))  \(style.transition(blame.old, blame.new))"
        }
        return leftOut(lines, before: hiddenBefore, after: hiddenAfter, boundGiven: boundGiven, nouns: ("change", "changes"))
    }

    var json: Value {
        .array(blames.map { blame in
            ["index": .int(blame.index), "action": blame.action, "old": blame.old ?? .null, "new": blame.new ?? .null]
        })
    }
}

/// The states where a condition holds (`find EXPR`): the step and its action each; the step
/// numbers in JSON.
struct FoundStates: CommandReport {
    /// The matching steps shown, with the action that led to each (`nil` for the initial state).
    var matches: [(index: Int, action: Value?)]
    /// How many matches before those shown, and after them, are left out.
    var hiddenBefore = 0
    var hiddenAfter = 0
    /// Whether `--first` or `--last` was given.
    var boundGiven = false

    func lines(in style: OutputStyle) -> [String] {
        guard !matches.isEmpty || hiddenBefore + hiddenAfter > 0 else { return ["no state matches"] }
        let lines = matches.map { index, action in
            action.map { "#\(index) \(style.action($0))" } ?? "#0 (initial state)"
        }
        return leftOut(lines, before: hiddenBefore, after: hiddenAfter, boundGiven: boundGiven, nouns: ("match", "matches"))
    }
    var json: Value { .array(matches.map { .int($0.index) }) }
}

/// A store's branches (`branches`): the current one marked, each with its action count and
/// where it forked; in JSON `[{name, count, current, from, at}]`.
struct BranchListing: CommandReport {
    var branches: [BranchSummary]

    func lines(in style: OutputStyle) -> [String] {
        branches.map { branch in
            let count = counted(branch.count, "action")
            return "\(branch.isCurrent ? "*" : " ") \(branch.name)  \(count)" + (branch.origin.map { ", \($0)" } ?? "")
        }
    }

    var json: Value {
        .array(branches.map { branch in
            ["name": .string(branch.name), "count": .int(branch.count), "current": .bool(branch.isCurrent),
             "from": branch.forkedFrom.map(Value.string) ?? .null, "at": branch.forkIndex.map(Value.int) ?? .null]
        })
    }
}

extension BranchSummary {
    /// `from main at #3` for a branch forked from another; `nil` for the first.
    fileprivate var origin: String? {
        guard let forkedFrom, let forkIndex else { return nil }
        return "from \(forkedFrom) at #\(forkIndex)"
    }
}

/// A history rewritten (`history commit`, `history revert`, `history sweep`): how many actions
/// were squashed, dropped or swept; `{committed}`, `{reverted}` or `{swept}` in JSON.
enum HistoryRewritten: CommandReport, Equatable {
    /// The current state became the initial state, squashing this many actions.
    case committed(Int)
    /// The store went back to its initial state, dropping this many actions.
    case reverted(Int)
    /// This many skipped actions were removed.
    case swept(Int)

    func lines(in style: OutputStyle) -> [String] {
        switch self {
        case .committed(let count): ["committed: the current state is the initial state now (\(counted(count, "action")) squashed)"]
        case .reverted(let count): ["reverted to the initial state (\(counted(count, "action")) dropped)"]
        case .swept(let count): ["swept \(counted(count, "skipped action"))"]
        }
    }

    var json: Value {
        switch self {
        case .committed(let count): ["committed": .int(count)]
        case .reverted(let count): ["reverted": .int(count)]
        case .swept(let count): ["swept": .int(count)]
        }
    }
}

/// What `history minimize` kept of a history: a line saying how many of its actions still fail
/// and whether that is 1-minimal, then each kept action (its number in the history, the action)
/// with what it changes now, the last with why it fails; in JSON the same fields.
struct MinimizedHistory: CommandReport {
    /// What failing means (`--fails`, `--diverges`, `--until EXPR`).
    enum Criterion: Equatable {
        case fails
        case diverges
        case until(String)
    }

    /// A kept action as the reducers run it now, after the kept actions before it.
    struct Step {
        /// Its number in the history.
        var index: Int
        var action: Value
        /// What it changes now.
        var changes: [ValueChange]
        /// Why the reducers fail on it now, if they do.
        var failure: String?
        /// The `after` reducer whose step it is, if it is one.
        var delayedReducer: String?
        /// The digest of the state after it, for the recording.
        var digest: StateDigest
        /// The state after it, where the recording checkpoints it.
        var checkpoint: Value?
        /// Whether the sequence fails at this step.
        var fails = false
        /// With `--diverges`, at the step that fails: what it recorded.
        var recorded: [ValueChange]?
        var recordedFailure: String?
    }

    var store: String
    var criterion: Criterion
    var steps: [Step]
    /// Why the last step fails, in words.
    var reason: String
    /// How many actions of the history were tried (those not skipped).
    var actions = 0
    /// How many sequences the reducers ran, the last for this report.
    var runs = 0
    /// The most they could run.
    var budget = 0
    /// Whether removing any one kept action makes it pass: false when the budget ran out first.
    var isMinimal = false
    /// The recording written (`--to FILE`), if one was.
    var file: String?

    private var criterionText: String {
        switch criterion {
        case .fails: "a reducer fails"
        case .diverges: "a step diverges from its recording"
        case .until(let condition): "\(condition) comes to hold"
        }
    }

    func lines(in style: OutputStyle) -> [String] {
        let kept = "\(store): \(steps.count) of \(counted(actions, "action")) still fail (\(criterionText))"
        var lines = [isMinimal
            ? kept + ", found in \(counted(runs, "run")) of the reducers; removing any one of them makes it pass:"
            : kept + ": the smallest found when the budget of \(counted(budget, "run")) ran out, so it may not be minimal "
                + "(--budget N runs more):"]
        for step in steps {
            lines.append("\(step.fails ? "!" : " ") #\(step.index) \(style.action(step.action))"
                         + (step.failure.map { "  \($0)" } ?? "") + (step.changes.isEmpty && step.failure == nil ? "  (no change)" : ""))
            lines += step.changes.map { "      " + style.change($0) }
            guard step.fails else { continue }
            if let recorded = step.recorded {
                lines.append("    recorded: " + (step.recordedFailure ?? (recorded.isEmpty ? "no change" : "")))
                lines += recorded.map { "      " + style.change($0) }
            }
            if case .until = criterion { lines.append("    → \(reason)") }
        }
        if let file { lines.append("wrote them to \(file): 'replay \(file)' runs them") }
        return lines
    }

    var json: Value {
        let criterion: (name: String, condition: Value) = switch self.criterion {
        case .fails: ("fails", .null)
        case .diverges: ("diverges", .null)
        case .until(let condition): ("until", .string(condition))
        }
        let kept: [Value] = steps.map { step in
            var json: Value = ["index": .int(step.index), "action": step.action, "changes": step.changes.json,
                               "failure": step.failure.map(Value.string) ?? .null, "fails": .bool(step.fails)]
            if let recorded = step.recorded {
                json = json.adding("recorded", ["changes": recorded.json, "failure": step.recordedFailure.map(Value.string) ?? .null])
            }
            return json
        }
        return ["store": .string(store), "failure": .string(criterion.name), "condition": criterion.condition, "actions": .int(actions),
                "kept": .array(kept), "reason": .string(reason), "runs": .int(runs), "budget": .int(budget),
                "minimal": .bool(isMinimal), "file": file.map(Value.string) ?? .null]
    }
}
