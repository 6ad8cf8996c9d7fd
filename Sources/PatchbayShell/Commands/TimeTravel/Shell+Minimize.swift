import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory

extension Shell {
    /// How many sequences of actions `history minimize` runs through the reducers at most,
    /// without `--budget`.
    static let minimizeBudget = 2_000

    /// `history minimize`: shrinks the store's history (its actions that are not skipped) to a
    /// smallest sequence that still fails, by delta debugging (`DeltaDebugging`), each test
    /// running the reducers again from the initial state as `history recompute` does
    /// (`StoreHistories.rerun`). Nothing of the session changes; with `--to FILE`, the kept
    /// actions are written as a recording that `replay` runs.
    func minimize(_ store: Name?, _ request: MinimizeRequest, text: String) throws(ShellError) -> CommandResult {
        let whole = 0..<text.utf8.count
        let (name, history) = try travel(store, whole) { () throws(TimeTravelError) in try histories.history(of: store?.text) }
        guard (try? graph.hasReducers(name)) == true else { throw ShellError(.timeTravel(.noReducers(store: name)), at: store?.range ?? whole) }
        let path = try request.file.map { file throws(ShellError) in try minimizedRecordingPath(file.path, force: request.force, at: file.range) }
        let steps = try unskippedSteps(of: history, store: name, at: whole)
        if case .until(let condition) = request.failure, try holds(condition, state: history.initial, action: Value.null, at: 0, text: text) {
            throw ShellError(.session(path: "history minimize", detail: "\(Printable.escaped(Self.text(of: condition), limit: 60)) already holds in "
                                      + "\(name)'s initial state (#0): nothing to minimize"), at: condition.range)
        }
        let budget = request.budget ?? Self.minimizeBudget
        var runs = 0
        // One run for each test, and one more for the report: the search gets the rest.
        let search = DeltaDebugging(budget: Swift.max(1, budget - 1))
        let outcome = try search.minimize(Array(steps.indices)) { (candidate) throws(ShellError) -> [Int]? in
            try checkInterruption()
            showProgress("history minimize", runs, of: budget, "runs")
            runs += 1
            return try failingPrefix(of: candidate, steps: steps, store: name, initial: history.initial, failure: request.failure, text: text)
        }
        guard !outcome.kept.isEmpty else {
            // A condition that evaluates nowhere is a mistake, said as `find` says it.
            if case .until(let condition) = request.failure,
               let error = try conditionError(condition, over: steps, store: name, initial: history.initial) {
                throw ShellError(error, in: text)
            }
            let what = steps.isEmpty ? "\(name) has no actions to run" : "its \(counted(steps.count, "action")) run again \(Self.passing(request.failure))"
            throw ShellError(.session(path: "history minimize", detail: "the history does not fail: nothing to minimize (\(what))"), at: whole)
        }
        let kept = outcome.kept.map { steps[$0] }
        var shown = try showing(kept, store: name, initial: history.initial, failure: request.failure, text: text)
        shown.runs = runs + 1
        shown.budget = budget
        shown.isMinimal = outcome.isMinimal
        shown.actions = steps.count
        if let path, let file = request.file {
            try writeMinimized(shown, store: name, initial: history.initial, to: path, force: request.force, at: file.range)
            shown.file = path
        }
        return CommandResult(shown)
    }

    /// The path `--to FILE` writes, refused at once when it exists without `--force` (as the
    /// write would refuse it after the search).
    private func minimizedRecordingPath(_ file: String, force: Bool, at range: Range<Int>) throws(ShellError) -> String {
        let path = try writablePath(file, at: range)
        var existing = stat()
        if !force, lstat(path, &existing) == 0 {
            throw ShellError(.cannotWrite(path: path, detail: "the file exists; add --force to replace it, or choose another name"), at: range)
        }
        if let obstacle = graph.whatARecordingCannotCarry {
            throw ShellError(.session(path: path, detail: "cannot write a recording that replays as this session runs: \(obstacle)"), at: range)
        }
        return path
    }

    /// The actions of the history's current timeline that are not skipped (a skipped action does
    /// not run), read in chunks so that Ctrl-C stops a long history between two.
    private func unskippedSteps(of history: History, store: String, at range: Range<Int>) throws(ShellError) -> [StoreStep<ValueChange>] {
        var steps: [StoreStep<ValueChange>] = []
        steps.reserveCapacity(history.count)
        for start in stride(from: 1, through: history.count, by: 4_096) {
            try checkInterruption()
            let end = Swift.min(history.count, start + 4_095)
            let chunk = try travel(nil, range) { () throws(TimeTravelError) in
                do throws(HistoryError) { return try history.entries(start...end) } catch { throw .history(store: store, error) }
            }
            steps += chunk.lazy.filter { !$0.skipped }
        }
        return steps
    }

    /// Runs the steps at `candidate` from `initial`: `nil` when none fails, or the positions up
    /// to the step that fails (what follows it does not matter).
    private func failingPrefix(of candidate: [Int], steps: [StoreStep<ValueChange>], store: String, initial: Value,
                               failure: MinimizeRequest.Failure, text: String) throws(ShellError) -> [Int]? {
        var position = 0
        var failed = false
        // `--diverges` compares a step with its recording when the state before it is the one
        // it met: checked on the state after the step before, so that no state is kept.
        var meetsNext = Self.meets(steps[candidate[0]], initial)
        try histories.rerun(store, candidate.lazy.map { steps[$0] }, from: initial) { (step, reduction, state) throws(ShellError) -> Bool in
            if position % 1_024 == 1_023 { try checkInterruption() }
            position += 1
            let meets = meetsNext
            if case .diverges = failure, position < candidate.count { meetsNext = Self.meets(steps[candidate[position]], state) }
            failed = try fails(step, reduction, state: state, meets: meets, failure: failure, text: text)
            return !failed
        }
        return failed ? Array(candidate[..<position]) : nil
    }

    /// Whether `step` failed as `failure` says, having done `reduction`, giving `state`.
    private func fails(_ step: StoreStep<ValueChange>, _ reduction: Reduction, state: Value, meets: Bool,
                       failure: MinimizeRequest.Failure, text: String) throws(ShellError) -> Bool {
        switch failure {
        case .fails: reduction.failure != nil
        case .diverges: meets && Self.diverges(step, reduction)
        case .until(let condition): try holds(condition, state: state, action: step.action, at: step.index, text: text)
        }
    }

    /// Whether `condition` holds on `state` after `action` (the step `index`): a condition that
    /// fails to evaluate does not hold (as for `find`); one that gives something else than a
    /// bool is an error.
    private func holds(_ condition: PatchbayGraph.Expression, state: Value, action: Value, at index: Int, text: String) throws(ShellError) -> Bool {
        let result: Value
        do throws(ExpressionError) { result = try condition.evaluate(Bindings(state: state, action: action), in: graph) } catch { return false }
        guard case .bool(let holds) = result else {
            throw ShellError(ExpressionError(.notABool(context: "history minimize's condition (at #\(index))", type: result.typeName),
                                             at: condition.range), in: text)
        }
        return holds
    }

    /// The error `condition` gives when it evaluates on no state of the history (the initial one
    /// and after each step): the first one; `nil` when it evaluates somewhere.
    private func conditionError(_ condition: PatchbayGraph.Expression, over steps: [StoreStep<ValueChange>], store: String,
                                initial: Value) throws(ShellError) -> ExpressionError? {
        var first: ExpressionError?
        func evaluates(_ state: Value, _ action: Value) -> Bool {
            do throws(ExpressionError) {
                _ = try condition.evaluate(Bindings(state: state, action: action), in: graph)
                return true
            } catch {
                first = first ?? error
                return false
            }
        }
        if evaluates(initial, .null) { return nil }
        var found = false
        var position = 0
        try histories.rerun(store, steps, from: initial) { (step, _, state) throws(ShellError) -> Bool in
            position += 1
            if position % 1_024 == 0 { try checkInterruption() }
            found = evaluates(state, step.action)
            return !found
        }
        return found ? nil : first
    }

    /// Whether `state` holds what `step` met when it was recorded: the old value of each change
    /// it recorded (and, for an insertion, the container). A step recorded without its changes
    /// meets no state.
    static func meets(_ step: StoreStep<ValueChange>, _ state: Value) -> Bool {
        guard let recorded = step.recordedChanges else { return false }
        return recorded.allSatisfy { change in
            switch change.operation {
            case .replace, .remove: return state.value(at: change.path) == change.old
            case .add:
                guard state.value(at: Array(change.path.dropLast())) != nil else { return false }
                if case .key? = change.path.last { return state.value(at: change.path) == nil }
                return true
            }
        }
    }

    /// Whether the reducers now do something else for `step` than it recorded: other changes,
    /// or a failure where it succeeded (or the other way round).
    static func diverges(_ step: StoreStep<ValueChange>, _ reduction: Reduction) -> Bool {
        (reduction.failure != nil) != (step.failure != nil) || reduction.changes != step.changes
    }

    /// What a sequence that passes does, for the error that there is nothing to minimize.
    private static func passing(_ failure: MinimizeRequest.Failure) -> String {
        switch failure {
        case .fails: "with no reducer failing"
        case .diverges: "without diverging from what they recorded"
        case .until(let condition): "without \(Printable.escaped(Self.text(of: condition), limit: 60)) holding"
        }
    }

    /// The report of the kept steps: each run once more, with what it changes and, for the last,
    /// why it fails; with the digest of the state after each, and that state where a recording
    /// checkpoints it (as `SessionRecorder` does: `Checkpoint.interval` actions apart).
    private func showing(_ kept: [StoreStep<ValueChange>], store: String, initial: Value, failure: MinimizeRequest.Failure,
                         text: String) throws(ShellError) -> MinimizedHistory {
        var shown: [MinimizedHistory.Step] = []
        var meetsNext = Self.meets(kept[0], initial)
        var reason = ""
        var digest = StateDigest(initial)
        var sinceCheckpoint = 0
        var interval = Checkpoint.interval(after: initial)
        try histories.rerun(store, kept, from: initial) { (step, reduction, state) throws(ShellError) -> Bool in
            let meets = meetsNext
            if shown.count + 1 < kept.count { meetsNext = Self.meets(kept[shown.count + 1], state) }
            if reduction.failure == nil { digest.apply(reduction.changes, after: state) }
            var line = MinimizedHistory.Step(index: step.index, action: step.action, changes: reduction.changes, failure: reduction.failure,
                                             delayedReducer: step.delayedReducer, digest: digest)
            sinceCheckpoint += 1
            if sinceCheckpoint >= interval {
                line.checkpoint = state
                sinceCheckpoint = 0
                interval = Checkpoint.interval(after: state)
            }
            if try fails(step, reduction, state: state, meets: meets, failure: failure, text: text) {
                switch failure {
                case .fails: reason = reduction.failure ?? ""
                case .diverges:
                    line.recorded = step.changes
                    line.recordedFailure = step.failure
                    reason = "it recorded other changes than the reducers make now"
                case .until(let condition): reason = "\(Self.text(of: condition)) holds"
                }
                line.fails = true
            }
            shown.append(line)
            return true
        }
        let criterion: MinimizedHistory.Criterion
        switch failure {
        case .fails: criterion = .fails
        case .diverges: criterion = .diverges
        case .until(let condition): criterion = .until(Self.text(of: condition))
        }
        return MinimizedHistory(store: store, criterion: criterion, steps: shown, reason: reason)
    }

    /// The error a `dispatch` of `step` fails with, as the recording holds it, when the
    /// reducers fail with `failure` (`r4: division by zero...`, as `Graph.reduce` says it).
    private func dispatchError(_ failure: String, of step: StoreStep<ValueChange>) -> String {
        guard !graph.hostedStoreNames.contains(step.store), let colon = failure.range(of: ": ") else { return failure }
        let error = GraphError.reducerFailed(store: step.store, index: step.index, type: step.type,
                                             reducer: String(failure[..<colon.lowerBound]), message: String(failure[colon.upperBound...]))
        return ShellError(.graph(error), at: 0..<0).message
    }

    /// The condition as it was typed, without the rest of the command.
    static func text(of condition: PatchbayGraph.Expression) -> String {
        let bytes = Array(condition.source.utf8)
        guard condition.range.lowerBound >= 0, condition.range.upperBound <= bytes.count else { return condition.source }
        return String(decoding: bytes[condition.range], as: UTF8.self)
    }

    /// An action as `dispatch` takes it: its type, then the rest of it as a literal.
    static func dispatchable(_ action: Value) -> String {
        guard case .object(var members) = action, case .string(let type)? = members["type"] else { return action.description }
        members["type"] = nil
        return members.isEmpty ? type : "\(type) \(Value.object(members).description)"
    }

    /// Writes the kept actions as a recording that `replay` runs: the session as a recording
    /// started now would open with it (`SessionRecorder.opening`), but with the store back at its
    /// initial state and without its history, then a `dispatch` of each kept action with the
    /// action line (and the checkpoints) a recorder writes for it.
    private func writeMinimized(_ minimized: MinimizedHistory, store: String, initial: Value, to path: String, force: Bool,
                                at range: Range<Int>) throws(ShellError) {
        if let delayed = minimized.steps.first(where: { $0.delayedReducer != nil }) {
            throw ShellError(.session(path: path, detail: "action #\(delayed.index) is the step of an 'after' reducer, which a dispatch "
                                      + "does not run alone: the kept actions are shown, not written"), at: range)
        }
        let opening = try SessionRecorder.opening(of: graph, histories: histories, lineLimit: InputLimits.maxLineBytes, checking: checkInterruption)
        var events: [SessionEvent] = opening.compactMap { event in
            switch event {
            case .store(store, _, let hosted): .store(name: store, state: initial, hosted: hosted)
            case .action(let step, _) where step.store == store: nil
            case .checkpoint(store, _, _), .jump(store, _), .skip(store, _, _, _), .checkout(store, _), .sweep(store), .reset(store, _),
                 .recompute(store, _): nil
            default: event
            }
        }
        if events.isEmpty { events = [.setup("reset"), .store(name: store, state: initial, hosted: graph.hostedStoreNames.contains(store))] }
        for (offset, step) in minimized.steps.enumerated() {
            let index = offset + 1
            let command = "dispatch \(store) " + Self.dispatchable(step.action)
            events.append(.command(command))
            let recorded = StoreStep(store: store, index: index, action: step.action, changes: step.changes, failure: step.failure)
            events.append(.action(recorded.patchForm, hash: step.digest))
            if let failure = step.failure { events.append(.error(command: command, message: dispatchError(failure, of: recorded))) }
            if let state = step.checkpoint { events.append(.checkpoint(store: store, index: index, state: state)) }
        }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        let header = SessionHeader(created: formatter.string(from: options.now()))
        let lines = [header.line] + events.enumerated().map { $1.line(seq: $0 + 1) }
        try writeWhole(lines.joined(separator: "\n") + "\n", to: path, replacing: force, at: range)
    }
}
