@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory

extension Shell {
    /// How many actions `history` lists without `--last` before it shows only the newest.
    static let historyPageSize = 200

    func run(_ command: TimeTravelCommand, text: String) throws(ShellError) -> CommandResult {
        let whole = 0..<text.utf8.count
        switch command {
        case .history(let store, let filter, let trace):
            let (name, history) = try travel(store, whole) { () throws(TimeTravelError) in try histories.history(of: store?.text) }
            return try listHistory(history, of: name, filter: filter, trace: trace, at: whole)
        case .chart(let store, let request):
            let (name, history) = try travel(store, whole) { () throws(TimeTravelError) in try histories.history(of: store?.text) }
            return try chart(request, of: name, history: history, text: text)
        case .routerHistory:
            return routerHistoryResult()
        case .rewrite(let rewrite, let store, let force):
            return try self.rewrite(rewrite, store: store, force: force, at: whole)
        case .jump(let store, let target, let range):
            let (name, history) = try travel(store, whole) { () throws(TimeTravelError) in try histories.history(of: store?.text) }
            let index: Int
            switch target {
            case .index(let number): index = number
            // Saturated: a step past either end is out of range, and said so by the history.
            case .forward(let count): index = history.current.saturatingAdding(count)
            case .backward(let count): index = history.current.saturatingAdding(-count)
            case .end: index = history.count
            }
            // A relative move past either end says so (a step number out of range is the history's to say).
            if case .index = target {} else if !(0...history.count).contains(index) {
                let side = index < 0 ? "before the initial state (#0)" : "past the last step (#\(history.count))"
                throw ShellError(.session(path: "jump", detail: "it would go \(side) of \(name), which is at #\(history.current)"), at: range)
            }
            let state = try travel(store, range) { () throws(TimeTravelError) in try histories.jump(name, to: index) }
            return CommandResult(StoreAtStep(store: name, index: index, state: state, move: .jump(count: history.count)))
        case .diff(let store, let from, let to, let path):
            let (name, history) = try travel(store, whole) { () throws(TimeTravelError) in try histories.history(of: store?.text) }
            let (a, b): (Int, Int)
            switch (from, to) {
            case (nil, _): (a, b) = (Swift.max(0, history.current - 1), history.current)
            case (let from?, nil): (a, b) = (Swift.max(0, from.0.saturatingAdding(-1)), from.0)
            case (let from?, let to?): (a, b) = (from.0, to.0)
            }
            let range = from.map { from in from.1.lowerBound..<(to?.1.upperBound ?? from.1.upperBound) } ?? whole
            let changes = try travel(store, range) { () throws(TimeTravelError) in
                let current: Value
                do throws(GraphError) { current = try graph.storeState(name) } catch { throw .graph(error) }
                do throws(HistoryError) { return try history.diff(from: a, to: b, current: current) } catch {
                    throw .history(store: name, error)
                }
            }
            return CommandResult(stateDiff(changes, from: "#\(a)", to: "#\(b)", at: path) { () -> (Value, Value)? in
                guard let live = try? graph.storeState(name), let old = try? history.state(at: a, current: live),
                      let new = try? history.state(at: b, current: live) else { return nil }
                return (old, new)
            })
        case .branchDiff(let store, let from, let to, let path):
            let (name, history) = try travel(store, whole) { () throws(TimeTravelError) in try histories.history(of: store?.text) }
            let current: Value
            do throws(GraphError) { current = try graph.storeState(name) } catch { throw ShellError(.graph(error), at: store?.range ?? whole) }
            func state(of branch: Name) throws(ShellError) -> Value {
                do throws(HistoryError) { return try history.state(ofBranch: branch.text, current: current) } catch {
                    throw ShellError(.timeTravel(.history(store: name, error)), at: branch.range)
                }
            }
            let old = try state(of: from)
            let new = try to.map { branch throws(ShellError) in try state(of: branch) } ?? current
            return CommandResult(stateDiff(old.changes(to: new), from: from.text, to: to?.text ?? "the current state", at: path) {
                (old, new)
            })
        case .recompute(let store):
            let (name, history) = try travel(store, whole) { () throws(TimeTravelError) in try histories.history(of: store?.text) }
            // What each action did before, to show how the first changed state differs.
            let before = history.count == 0 ? [] : ((try? history.entries(1...history.count)) ?? [])
            let recomputation = try travel(store, whole) { () throws(TimeTravelError) in try histories.recompute(store?.text) }
            // The first changed state as `diff` shows it, from what it was to what it is.
            let first = recomputation.firstChanged.map { firstChangedDiff(history, at: $0, before: before, store: name) }
            return CommandResult(Recomputed(store: name, actions: recomputation.steps.count, changedStates: recomputation.changedStates,
                                            firstChanged: recomputation.firstChanged, firstChanges: first?.changes ?? [],
                                            presented: first?.presented))
        case .minimize(let store, let request):
            return try minimize(store, request, text: text)
        case .skip(let store, let index, let range, let skipped):
            let recomputation = try travel(store, range) { () throws(TimeTravelError) in
                try histories.setSkipped(store?.text, index, skipped)
            }
            return CommandResult(SkipToggled(index: index, skipped: skipped, changedStates: recomputation.changedStates))
        case .blame(let store, let path, let pathRange, let bound):
            let (name, history) = try travel(store, whole) { () throws(TimeTravelError) in try histories.history(of: store?.text) }
            // The elements the path leads to now, followed by identity through the history.
            let identity = options.settings.identity.flatMap { key in
                (try? graph.storeState(name)).flatMap { IdentityPath(path, in: $0, identity: key) }
            }
            let blames = try history.blame(path, identity: identity, checking: { (done, total) throws(ShellError) in
                try checkInterruption()
                showProgress("blame", done, of: total, "steps")
            })
            if blames.isEmpty { try checkPathExists(path, in: history, of: name, at: pathRange) }
            let (shown, before, after) = bounded(blames, by: bound)
            return CommandResult(BlameListing(path: path, blames: shown, hiddenBefore: before, hiddenAfter: after, boundGiven: bound != nil))
        case .find(let store, let condition, let bound):
            let (_, history) = try travel(store, whole) { () throws(TimeTravelError) in try histories.history(of: store?.text) }
            return try find(condition, in: history, bound: bound, text: text)
        case .branches(let store):
            let (_, history) = try travel(store, whole) { () throws(TimeTravelError) in try histories.history(of: store?.text) }
            return CommandResult(BranchListing(branches: history.branches))
        case .checkout(let store, let branch):
            let state = try travel(store, branch.range) { () throws(TimeTravelError) in
                try histories.checkout(store?.text, branch: branch.text)
            }
            let (name, history) = try travel(store, whole) { () throws(TimeTravelError) in try histories.history(of: store?.text) }
            return CommandResult(StoreAtStep(store: name, index: history.current, state: state, move: .checkout(branch: branch.text)))
        }
    }

    /// How state `index` differs now from what it was before a recomputation: the state
    /// before it is the same (it is the first that changed), so the old one is that state with
    /// the action's old changes.
    /// The changes are also given as people read them (matched by identity), as `diff` shows them.
    private func firstChangedDiff(_ history: History, at index: Int, before: [StoreStep<ValueChange>], store: String)
        -> (changes: [ValueChange], presented: [PresentedChange]?) {
        guard index >= 1, index <= before.count, let live = try? graph.storeState(store),
              var old = try? history.state(at: index - 1, current: live),
              let new = try? history.state(at: index, current: live) else { return ([], nil) }
        for change in before[index - 1].changes {
            do throws(PathError) { try old.apply(change) } catch { return ([], nil) }
        }
        let changes = old.changes(to: new)
        return (changes, changePresenter?.present(changes, from: old, to: new))
    }

    private func listHistory(_ history: History, of store: String, filter: HistoryFilter, trace: Bool,
                             at range: Range<Int>) throws(ShellError) -> CommandResult {
        let (from, to) = try steps(filter.from, filter.to, of: store, history: history)
        try checkTypesExist(filter, in: history, of: store)
        // Action `i` leads to step `i`: the actions from #from to #to, #0 being no action.
        let actions = Swift.max(1, from)..<Swift.max(Swift.max(1, from), to + 1)
        let searched = actions.count
        let narrows = filter.type != nil || !filter.excludedTypes.isEmpty || filter.text != nil || filter.failed || filter.skipped
            || filter.path != nil
        let needle = filter.text?.lowercased()
        let limit = filter.last ?? (options.json ? nil : Self.historyPageSize)
        // The newest first, in chunks, so that `--last 20` of a long history reads 20 entries;
        // with a filter every action of the range is read, to count the matches.
        var picked: [StoreStep<ValueChange>] = []
        var matched = narrows ? 0 : searched
        var upper = actions.upperBound - 1
        while upper >= actions.lowerBound, narrows || limit.map({ picked.count < $0 }) ?? true {
            let wanted = narrows ? 1024 : limit.map { Swift.min(1024, $0 - picked.count) } ?? 1024
            let lower = Swift.max(actions.lowerBound, upper - wanted + 1)
            // A filter over a long history reads all of it: Ctrl-C stops it between two chunks.
            try checkInterruption()
            showProgress("history", actions.upperBound - upper, of: actions.count, "steps")
            let chunk = try travel(nil, range) { () throws(TimeTravelError) in
                do throws(HistoryError) { return try history.entries(lower...upper) } catch { throw .history(store: store, error) }
            }
            for entry in chunk.reversed() where !narrows || filter.matches(entry, text: needle) {
                if narrows { matched += 1 }
                if limit.map({ picked.count < $0 }) ?? true { picked.append(entry) }
            }
            upper = lower - 1
        }
        picked.reverse()
        if matched == 0, let path = filter.path { try checkPathExists(path, in: history, of: store, at: filter.pathRange ?? range) }
        let branches = history.branches
        let branch = branches.count > 1 ? branches.first(where: \.isCurrent) : nil
        let span = filter.from != nil || filter.to != nil ? (from: from, to: to) : nil
        let showsInitialState = !narrows && from == 0 && (picked.first?.index ?? actions.upperBound) == 1
        return CommandResult(HistoryListing(store: store, entries: picked, current: history.current, branch: branch, filtering: filter.isFiltering,
                                            matched: matched, searched: searched, span: span, lastGiven: filter.last != nil,
                                            showsInitialState: showsInitialState, trace: trace))
    }

    /// The steps `--from` and `--to` give (all of them by default), checked against the history.
    private func steps(_ fromBound: StepBound?, _ toBound: StepBound?, of store: String, history: History) throws(ShellError) -> (Int, Int) {
        let count = history.count
        let from = fromBound?.index(count: count) ?? 0
        let to = toBound?.index(count: count) ?? count
        for (step, bound) in [(from, fromBound), (to, toBound)] where step > count {
            throw ShellError(.usage(command: "history", detail: "\(store) has steps #0 to #\(count), not #\(step)",
                                    synopsis: CommandCatalog.info(for: "history")?.synopsis ?? "history"), at: bound?.range ?? 0..<0)
        }
        if from > to, let fromBound, let toBound {
            throw ShellError(.usage(command: "history", detail: "--from must not come after --to (#\(from) > #\(to))",
                                    synopsis: CommandCatalog.info(for: "history")?.synopsis ?? "history"),
                             at: Swift.min(fromBound.range.lowerBound, toBound.range.lowerBound)..<Swift.max(fromBound.range.upperBound, toBound.range.upperBound))
        }
        return (from, to)
    }

    private func rewrite(_ rewrite: HistoryRewrite, store: Name?, force: Bool, at range: Range<Int>) throws(ShellError) -> CommandResult {
        let target = store?.range ?? range
        if rewrite != .sweep, !force {
            // Commit and revert keep one timeline: the others go only when the user says so.
            let (name, history) = try travel(store, target) { () throws(TimeTravelError) in try histories.history(of: store?.text) }
            let others = history.branches.filter { !$0.isCurrent }.map(\.name)
            if !others.isEmpty {
                let list = others.joined(separator: ", ")
                let noun = others.count == 1 ? "branch" : "branches"
                throw ShellError(.session(path: "history \(rewrite.rawValue)", detail: "it keeps only the current branch (\(history.branch)) and "
                                          + "\(name) also has \(noun) \(list); add --force to drop \(others.count == 1 ? "it" : "them"), "
                                          + "or 'checkout' the branch to keep first"), at: range)
            }
        }
        switch rewrite {
        case .commit:
            let dropped = try travel(store, target) { () throws(TimeTravelError) in try histories.commit(store?.text) }
            return CommandResult(HistoryRewritten.committed(dropped))
        case .revert:
            let dropped = try travel(store, target) { () throws(TimeTravelError) in try histories.revert(store?.text) }
            return CommandResult(HistoryRewritten.reverted(dropped))
        case .sweep:
            let removed = try travel(store, target) { () throws(TimeTravelError) in try histories.sweep(store?.text) }
            return CommandResult(HistoryRewritten.swept(removed))
        }
    }

    /// `history --chart PATH`: the number at PATH over the steps, as a chart (JSON: the points).
    private func chart(_ request: ChartRequest, of store: String, history: History, text: String) throws(ShellError) -> CommandResult {
        let (from, to) = try steps(request.from, request.to, of: store, history: history)
        let pathText = ValueChange.pathText(request.path)
        var points: [(index: Int, value: Double?)] = []
        var raw: [Value] = []
        var found: (index: Int, value: Value)?
        history.walk { index, _, state in
            guard index <= to else { return false }
            guard index >= from else { return true }
            let value = state.value(at: request.path) ?? .null
            switch value {
            case .int(let number): points.append((index, Double(number)))
            case .decimal(let number): points.append((index, number))
            case .null: points.append((index, nil))
            default:
                found = (index, value)
                return false
            }
            raw.append(value)
            return true
        }
        if let found {
            throw ShellError(.usage(command: "history", detail: "\(store)\(pathText.hasPrefix("[") ? "" : ".")\(pathText) is \(["array", "int", "object"].contains(found.value.typeName) ? "an" : "a") \(found.value.typeName) at #\(found.index) "
                                    + "(\(style.value(found.value))), not a number: --chart plots a path that holds numbers",
                                    synopsis: "history [STORE] --chart PATH [--from A] [--to B] [--spark]"), at: request.pathRange)
        }
        guard points.contains(where: { $0.value != nil }) else {
            throw ShellError(.usage(command: "history", detail: "\(store) has no number at \(pathText) from #\(from) to #\(to)",
                                    synopsis: "history [STORE] --chart PATH [--from A] [--to B] [--spark]"), at: request.pathRange)
        }
        return CommandResult(HistoryChart(store: store, path: pathText, from: from, to: to, points: points, values: raw,
                                          sparkline: request.sparkline, current: (from...to).contains(history.current) ? history.current : nil))
    }

    /// `history router`: every URL routed in this session.
    private func routerHistoryResult() -> CommandResult {
        CommandResult(RouteHistory(routes: graph.routeHistory))
    }

    /// `find EXPR`: the states where EXPR holds. A step where it fails to evaluate does not
    /// match; when it fails everywhere, the first error is the answer. A condition that gives
    /// something else than a bool is an error at once.
    private func find(_ condition: Expression, in history: History, bound: SearchBound?, text: String) throws(ShellError) -> CommandResult {
        var found: [(index: Int, action: Value?)] = []
        var firstError: ExpressionError?
        var notABool: ExpressionError?
        var evaluated = 0
        try history.walk { (index, entry, state) throws(ShellError) -> Bool in
            // A long history is read whole: Ctrl-C stops it between two steps.
            if index % 256 == 0 {
                try checkInterruption()
                showProgress("find", index, of: history.count, "steps")
            }
            do throws(ExpressionError) {
                let result = try condition.evaluate(Bindings(state: state, action: entry?.action ?? .null), in: graph)
                evaluated += 1
                guard case .bool(let holds) = result else {
                    notABool = ExpressionError(.notABool(context: "find's condition (at #\(index))", type: result.typeName), at: condition.range)
                    return false
                }
                if holds { found.append((index, entry?.action)) }
            } catch {
                if firstError == nil { firstError = error }
            }
            return true
        }
        if let notABool { throw ShellError(notABool, in: text) }
        if evaluated == 0, let firstError { throw ShellError(firstError, in: text) }
        let (shown, before, after) = bounded(found, by: bound)
        return CommandResult(FoundStates(matches: shown, hiddenBefore: before, hiddenAfter: after, boundGiven: bound != nil))
    }

    /// The lines `find` or `blame` shows of all it found: the first or last N asked for, or
    /// the last `historyPageSize` for people (all in JSON); with how many are left out before
    /// and after them.
    private func bounded<T>(_ lines: [T], by bound: SearchBound?) -> (shown: [T], before: Int, after: Int) {
        switch bound {
        case .first(let count)?:
            let shown = Array(lines.prefix(count))
            return (shown, 0, lines.count - shown.count)
        case .last(let count)?:
            let shown = Array(lines.suffix(count))
            return (shown, lines.count - shown.count, 0)
        case nil:
            guard !options.json else { return (lines, 0, 0) }
            let shown = Array(lines.suffix(Self.historyPageSize))
            return (shown, lines.count - shown.count, 0)
        }
    }

    /// Throws when no state of the history has `path` (the initial state, and every state an
    /// action changed it in: `blame` found none), naming the closest path that exists: a typo
    /// gets a suggestion, not an empty answer.
    private func checkPathExists(_ path: [ValueChange.PathComponent], in history: History, of store: String,
                                 at range: Range<Int>) throws(ShellError) {
        let live = (try? graph.storeState(store)) ?? history.initial
        guard history.initial.value(at: path) == nil, live.value(at: path) == nil,
              try history.blame(path, checking: { (_, _) throws(ShellError) in try checkInterruption() }).isEmpty
        else { return }
        // The deepest container on the way that exists, in the current state or the initial one.
        var depth = 0
        while depth < path.count, live.value(at: Array(path[...depth])) != nil || history.initial.value(at: Array(path[...depth])) != nil {
            depth += 1
        }
        let parent = Array(path[..<depth])
        let container = live.value(at: parent) ?? history.initial.value(at: parent)
        var detail = "no path '\(ValueChange.pathText(path))' in \(store)'s states"
        if case .key(let missing) = path[depth], case .object(let members)? = container {
            let keys = members.keys.map(\.string)
            if let closest = Spelling.closest(to: missing, among: keys) {
                var suggested = path
                suggested[depth] = .key(closest)
                detail += "; did you mean '\(ValueChange.pathText(suggested))'?"
            } else if !keys.isEmpty {
                detail += " (\(parent.isEmpty ? "keys" : "keys of " + ValueChange.pathText(parent)): \(Spelling.list(keys)))"
            }
        }
        throw ShellError(.notFound(detail), at: range)
    }

    /// Throws when `--type` or `--not` names an action type that neither the history nor a
    /// reducer of the store knows, naming the closest that does.
    private func checkTypesExist(_ filter: HistoryFilter, in history: History, of store: String) throws(ShellError) {
        let named = zip([filter.type].compactMap { $0 } + filter.excludedTypes, [filter.typeRange].compactMap { $0 } + filter.excludedTypeRanges)
        guard named.contains(where: { _ in true }) else { return }
        let seen = history.actionTypes
        let handled = graph.actionTypes(of: store)
        for (type, range) in named where !seen.contains(type) && !handled.contains(type) {
            let known = (Array(seen) + handled).sorted()
            var detail = "no action type '\(type)' in \(store)'s history"
            if let closest = Spelling.closest(to: type, among: known) {
                detail += "; did you mean '\(closest)'?"
            } else if !seen.isEmpty {
                detail += " (types: \(Spelling.list(seen.sorted())))"
            }
            throw ShellError(.notFound(detail), at: range)
        }
    }

    /// Runs a time-travel call, turning its error into the shell's, under `range` (or the
    /// store's name when the error is about the store).
    func travel<T>(_ store: Name?, _ range: Range<Int>, _ body: () throws(TimeTravelError) -> T) throws(ShellError) -> T {
        do {
            return try body()
        } catch {
            if case .graph(let graphError) = error {
                throw ShellError(.graph(graphError), at: Self.range(of: graphError, names: store.map { [$0] } ?? [], targets: []) ?? range)
            }
            throw ShellError(.timeTravel(error), at: range)
        }
    }

    /// A `diff`'s report: `changes` narrowed to `path` (`--path P`: what changed at P, inside
    /// it, or around it, a parent replaced whole), and, as people read them, matched by identity
    /// between the two states `states` gives (asked for only when that can differ).
    func stateDiff(_ changes: [ValueChange], from: String, to: String, at path: [ValueChange.PathComponent]?,
                   states: () -> (Value, Value)?) -> StateDiff {
        func narrowed<Change>(_ all: [Change], _ pathOf: (Change) -> [ValueChange.PathComponent]) -> [Change] {
            guard let path else { return all }
            return all.filter { pathOf($0).starts(with: path) || path.starts(with: pathOf($0)) }
        }
        let presented = changePresenter.flatMap { presenter -> [PresentedChange]? in
            guard Value.mayPresentByIdentity(changes, key: presenter.key), let (old, new) = states() else { return nil }
            return narrowed(presenter.present(changes, from: old, to: new), \.path)
        }
        return StateDiff(from: from, to: to, path: path, changes: narrowed(changes, \.path), presented: presented)
    }
}

extension HistoryFilter {
    /// Whether `entry` passes every filter but the range; `text` is `self.text` lowercased.
    func matches(_ entry: StoreStep<ValueChange>, text: String?) -> Bool {
        if let type, entry.type != type { return false }
        if !excludedTypes.isEmpty, excludedTypes.contains(entry.type) { return false }
        if failed, entry.failure == nil { return false }
        if skipped, !entry.skipped { return false }
        if let path, !entry.touches(path) { return false }
        if let text {
            // The action as a history line shows it, whole: the type, then the payload.
            let shown = OutputStyle(limit: nil, color: false, width: 0).action(entry.action)
            if !shown.lowercased().contains(text) { return false }
        }
        return true
    }
}

extension Int {
    /// `self + other`, or the bound it would pass.
    func saturatingAdding(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
