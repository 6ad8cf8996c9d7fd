import Foundation
import PatchbayCore
import PatchbayGraph
import PatchbayRecorder
import PatchbayTimeTravel

/// A recording under way (`record FILE`): the recorder that makes the session's events and the
/// file they go to, one command at a time (see `Shell.execute`).
final class Recording {
    let recorder: SessionRecorder
    let writer: SessionWriter
    /// The file written, as `Shell.checkNotInUse` knows it.
    let identity: FileIdentity?
    /// The replay during which the recording started, if one did: it stops when that replay
    /// ends, so that a replayed `record` never outlives the replay.
    let replayDepth: Int?
    /// The write that failed and stopped the recording, if one did.
    var failure: SessionError?

    init(recorder: SessionRecorder, writer: SessionWriter, replayDepth: Int?) {
        self.recorder = recorder
        self.writer = writer
        identity = FileIdentity(path: writer.path)
        self.replayDepth = replayDepth
    }
}

extension Shell {
    func run(_ command: SessionCommand, text: String, origin: SourceOrigin, output: inout [OutputLine]) throws(ShellError) -> CommandResult {
        switch command {
        case .record(let file, let range, let recordOptions):
            return try startRecording(file, options: recordOptions, at: range)
        case .stopRecording:
            let stopped = recording
            finish()
            return CommandResult(RecordingStopped(path: stopped?.writer.path, events: stopped?.writer.lastSeq ?? 0))
        case .recordingStatus:
            return CommandResult(RecordingStatus(path: recording?.writer.path, events: recording?.writer.lastSeq ?? 0,
                                                 failure: recording?.failure))
        case .replay(let file, let range, let replayOptions):
            let path = try readablePath(file, from: origin, at: range)
            try checkReplaceable(by: "replay", force: replayOptions.force, at: range)
            guard nestingDepth < InputLimits.maxLoadDepth else {
                throw ShellError(.loadTooDeep(limit: InputLimits.maxLoadDepth), at: range)
            }
            let steps = try openSteps(path, at: range)
            guard !steps.header.recordedThroughReflection else {
                throw ShellError(.session(path: path, detail: "recorded through reflection: it can be inspected but not replayed; open it with 'inspect \(path)'"), at: range)
            }
            var run = ReplayRun(path: file, file: path, steps: steps, verify: replayOptions.verify,
                                until: replayOptions.until, allowFiles: replayOptions.allowFiles)
            guard run.upcoming != nil else {
                if let damage = run.damage { throw ShellError(.session(path: path, detail: damage.detail), at: range) }
                throw ShellError(.session(path: path, detail: "nothing to replay: no commands and no actions; open it with 'inspect \(path)'"), at: range)
            }
            try checkHosted(run, at: range)
            let recorders = restartingRecorders()
            let before = session
            let followingBefore = following
            startOver()
            hasStartedInnerCommands = true
            if replayOptions.verify { run.recorder = SessionRecorder(graph: graph, histories: histories) }
            do {
                try restore(run.prelude, path: path, at: range)
                recordRestart(into: recorders)
                if replayOptions.step { run.until = 0 }
                return try advance(&run, output: &output, reportingDamage: true)
            } catch where error.reason == .interrupted || Interruption.current?.isRequested == true {
                // Stopped by Ctrl-C (a verification too, whatever it found): the session is as it
                // was before the replay.
                putBack(before)
                following = followingBefore
                replayRun = nil
                for (recorder, mark) in recorders { recorder.discard(since: mark) }
                hasStartedInnerCommands = false
                throw ShellError(.interrupted, at: 0..<0)
            }
        case .inspect(let file, let range, let inspectOptions):
            // A replay runs to its end on what the recording holds: it waits for no file.
            if inspectOptions.follow, replayAccess != nil {
                throw ShellError(.session(path: file, detail: "a replayed 'inspect' does not follow its file; it reads it as it is without --follow"),
                                 at: range)
            }
            let path = try readablePath(file, from: origin, at: range)
            try checkReplaceable(by: "inspect", force: inspectOptions.force, at: range)
            let reader = try openSession(path, following: inspectOptions.follow, at: range)
            let recorders = restartingRecorders()
            let before = session
            let followingBefore = following
            startOver()
            hasStartedInnerCommands = true
            var inspected: Inspected, damage: SessionError?, inspection: Inspection
            do {
                (inspected, damage, inspection) = try inspect(reader, path: path, at: range)
            } catch where error.reason == .interrupted || Interruption.current?.isRequested == true {
                putBack(before)
                following = followingBefore
                for (recorder, mark) in recorders { recorder.discard(since: mark) }
                hasStartedInnerCommands = false
                throw ShellError(.interrupted, at: 0..<0)
            } catch {
                recordRestart(into: recorders)
                throw error
            }
            recordRestart(into: recorders)
            if let damage {
                // With --json, one command is one object: the error alone (it says what is loaded).
                if !options.json { output += renderer.success(CommandResult(inspected), command: text) }
                throw ShellError(.session(path: path, detail: "\(damage.detail); everything before that line is loaded"), at: range)
            }
            if inspectOptions.follow {
                following = Following(path: path, reader: reader, inspection: inspection, idleSeconds: inspectOptions.idleSeconds)
                inspected.follow = Inspected.Follow(idleSeconds: inspectOptions.idleSeconds)
            }
            return CommandResult(inspected)
        case .breakpoint(let store, let condition):
            breakpoint = (store?.text, condition, false)
            return CommandResult(BreakpointSet(condition: condition, store: store?.text))
        case .step, .resume:
            guard var run = replayRun else {
                throw ShellError(.session(path: "replay", detail: "no replay is paused; start one with 'replay FILE --step'"), at: 0..<text.utf8.count)
            }
            replayRun = nil
            if case .step = command { run.until = run.next + 1 } else { run.until = nil }
            return try advance(&run, output: &output, reportingDamage: false)
        case .exportDevTools(let store, let file, let range, let lifted, let force):
            let path = try writablePath(file, at: range)
            let (name, history) = try travel(store, store.range) { () throws(TimeTravelError) in try histories.history(of: store.text) }
            let entries = try travel(store, store.range) { () throws(TimeTravelError) in
                do throws(HistoryError) { return history.count == 0 ? [] : try history.entries(1...history.count) } catch { throw .history(store: name, error) }
            }
            // The lifted form holds the state after each step too.
            var computedStates: [(state: Value, error: String?)] = []
            if lifted {
                history.walk { (_, entry, state) in
                    computedStates.append((state, entry?.failure))
                    return true
                }
            }
            let devTools = DevToolsFile(actions: entries.map(\.action), preloadedState: history.initial,
                                        skipped: entries.filter(\.skipped).map(\.index), current: history.current)
            // The default form holds the actions alone: a history with skipped actions, or away
            // from its last step, goes out as the lifted state, which keeps them, so that an
            // import gives the same state.
            var kept: [String] = []
            if !lifted {
                if !devTools.skipped.isEmpty { kept.append("what is skipped") }
                if history.current != entries.count { kept.append("the current step #\(history.current)") }
            }
            let asLifted = lifted || !kept.isEmpty
            if asLifted, computedStates.isEmpty {
                history.walk { (_, entry, state) in
                    computedStates.append((state, entry?.failure))
                    return Interruption.current?.isRequested != true
                }
                try checkInterruption()
            }
            try writeWhole(asLifted ? devTools.liftedText(computedStates: computedStates) : devTools.text, to: path, replacing: force, at: range)
            return CommandResult(DevToolsExported(store: name, path: path, actions: entries.count, skipped: devTools.skipped.count, lifted: asLifted,
                                                  keeps: kept.isEmpty ? nil : kept.joined(separator: " and ")))
        case .importDevTools(let file, let range, let store, let force):
            let path = try readablePath(file, from: origin, at: range)
            let bytes = try ScriptFile.read(path, limit: InputLimits.maxDevToolsFileBytes, command: "import devtools", at: range)
            let devTools: DevToolsFile
            do throws(DevToolsError) { devTools = try DevToolsFile(parsing: bytes) } catch {
                throw ShellError(.session(path: path, detail: error.description), at: range)
            }
            // No store named: the only store there is, or a new `app` when there is none.
            let stores = graph.storeNames.sorted()
            guard store != nil || stores.count <= 1 else {
                throw ShellError(.session(path: "import devtools", detail: "there are several stores (\(Spelling.list(stores))): "
                                          + "name the one to import into (import devtools FILE STORE)"), at: range)
            }
            return try importDevTools(devTools, into: store?.text ?? stores.first ?? "app", force: force, path: path, range: store?.range ?? range,
                                      command: text, origin: origin)
        }
    }

    // MARK: Recording

    private func startRecording(_ file: String, options recordOptions: RecordOptions, at range: Range<Int>) throws(ShellError) -> CommandResult {
        if let recording { throw ShellError(.session(path: file, detail: "already recording into \(recording.writer.path); 'record stop' first"), at: range) }
        let path = try writablePath(file, at: range)
        if let obstacle = graph.whatARecordingCannotCarry {
            throw ShellError(.session(path: path, detail: "cannot start a recording that replays as this session runs: \(obstacle)"), at: range)
        }
        // A recording that starts in the middle of a session begins with what exists, and with
        // the selected store: the commands after it may leave out their STORE.
        var opening = SessionRecorder.opening(of: graph, histories: histories, lineLimit: InputLimits.maxLineBytes)
        if let selectedStore {
            if opening.isEmpty { opening.append(.setup("reset")) }
            opening.append(.setup("use \(selectedStore)"))
        }
        // Ctrl-C until here leaves FILE as it was; from the moment the writer replaces it, the
        // recording has started, and says so.
        try checkInterruption()
        let writer: SessionWriter
        do {
            writer = try SessionWriter(path: path, created: options.now(), replacing: recordOptions.force,
                                       syncEveryCommand: recordOptions.sync)
        } catch {
            throw ShellError(.cannotWrite(path: path, detail: error.detail), at: range)
        }
        noteWritten(path)
        do {
            try writer.write(opening)
        } catch {
            writer.close()
            throw ShellError(.cannotWrite(path: path, detail: error.detail), at: range)
        }
        recording = Recording(recorder: SessionRecorder(graph: graph, histories: histories), writer: writer,
                              replayDepth: replayAccess.map { _ in executeDepth })
        return CommandResult(RecordingStarted(path: path, stores: graph.storeNames.count, pendingTimers: graph.pendingTimers.count,
                                              startsWithOpening: !opening.isEmpty))
    }

    /// Closes the recording, if one is on: its lines are on the disk.
    public func finish() {
        recording?.writer.close()
        recording = nil
        following = nil
    }

    /// The recorders that take the commands run now: those a replay or `inspect` that starts
    /// the session over tells, with how many events each holds before it starts.
    private func restartingRecorders() -> [(recorder: SessionRecorder, mark: Int)] {
        recordersInCharge.map { ($0, $0.pendingCount) }
    }

    /// After a replay or `inspect` started the session over and rebuilt its stores: each
    /// recorder forgets what it heard of the rebuild and records instead a `setup` line
    /// (`setup`: `reset`, or a comment) that a replay runs without comparing, and the histories
    /// of the stores as they are now, which a replay rebuilds after it. So a recording never
    /// needs the file that was read.
    private func recordRestart(into recorders: [(recorder: SessionRecorder, mark: Int)], setup: String = "reset") {
        guard !recorders.isEmpty else { return }
        let snapshot = SessionRecorder.restart(of: graph, histories: histories)
        for (recorder, mark) in recorders {
            recorder.discard(since: mark)
            recorder.record(.setup(setup))
            recorder.record(contentsOf: snapshot)
        }
    }

    // MARK: Files

    /// The path a command that writes a file writes, never one in use (see `checkNotInUse`).
    /// During a replay, only one that `--allow-files` lets it, beside the recording.
    func writablePath(_ path: String, at range: Range<Int>) throws(ShellError) -> String {
        let resolved = try replayedPath(path, writing: true, at: range) ?? inDirectory(path)
        try checkNotInUse(resolved, at: range)
        return resolved
    }

    /// `path`, relative to `options.directory` when it is relative and one is set.
    private func inDirectory(_ path: String) -> String {
        guard let directory = options.directory, !path.hasPrefix("/") else { return path }
        return directory + "/" + path
    }

    /// The path a command that reads a file reads: beside the script that runs it, if there is
    /// one there (see `ScriptFile.resolve`). During a replay, only one that `--allow-files` lets
    /// it, beside the recording; never the file being recorded.
    func readablePath(_ path: String, from origin: SourceOrigin, at range: Range<Int>) throws(ShellError) -> String {
        let resolved = try replayedPath(path, writing: false, at: range) ?? inDirectory(ScriptFile.resolve(path, from: origin))
        if let recording, let identity = FileIdentity(path: resolved), FileIdentity(path: recording.writer.path) == identity {
            throw ShellError(.file(path: resolved, detail: "it is being recorded; 'record stop' first"), at: range)
        }
        return resolved
    }

    /// The path a replayed command may use, or `nil` outside a replay. A replay runs someone's
    /// commands: they touch no file unless the user passed `--allow-files`, and then only files
    /// under the recording's directory.
    private func replayedPath(_ path: String, writing: Bool, at range: Range<Int>) throws(ShellError) -> String? {
        guard let access = replayAccess else { return nil }
        let verb = writing ? "writes" : "reads"
        // A refused write says it could not write, a refused read that it could not read.
        func refusal(_ path: String, _ detail: String) -> ShellError.Reason {
            writing ? .cannotWrite(path: path, detail: detail) : .file(path: path, detail: detail)
        }
        guard access.allowFiles else {
            throw ShellError(refusal(path, "a replayed command \(verb) no file unless the replay has --allow-files"), at: range)
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard !path.hasPrefix("/"), !path.hasPrefix("~"), !parts.contains(".."), !parts.isEmpty else {
            throw ShellError(refusal(path, "a replayed command \(verb) only files beside the recording (a relative path without '..')"), at: range)
        }
        let joined = access.directory + "/" + path
        guard Self.staysInside(access.directory, joined) else {
            throw ShellError(refusal(path, "a replayed command \(verb) only files beside the recording, and a symbolic link "
                                   + "leads this path out of the recording's directory"), at: range)
        }
        return joined
    }

    /// Whether `path` names a file under `directory` once symbolic links are resolved: the
    /// longest part of it that exists, resolved (`realpath`), must be under the resolved
    /// directory, and what follows it must not exist yet (a link that leads nowhere counts as
    /// leading out).
    private static func staysInside(_ directory: String, _ path: String) -> Bool {
        guard let root = realPath(directory) else { return false }
        var existing = path
        var rest: [Substring] = []
        var resolved = realPath(existing)
        while resolved == nil {
            guard let slash = existing.lastIndex(of: "/") else { return false }
            rest.insert(existing[existing.index(after: slash)...], at: 0)
            existing = String(existing[..<slash])
            resolved = realPath(existing.isEmpty ? "/" : existing)
        }
        if let first = rest.first {
            var status = stat()
            if lstat(resolved! + "/" + first, &status) == 0 { return false }
        }
        let inside = resolved!
        return inside == root || inside.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// `realpath(3)` of `path`, or `nil` when some part of it does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Refuses to start the session over (`replay`, `inspect`) while it holds something, unless
    /// forced: nothing a user made disappears silently. The app's stores come back in a fresh
    /// session, at their initial states: only what they hold besides would be lost, and `save`
    /// leaves them out, so a recording is what keeps them.
    private func checkReplaceable(by command: String, force: Bool, at range: Range<Int>) throws(ShellError) {
        guard !force, replayAccess == nil else { return }
        let hosted = graph.hostedStoreNames
        let nodes = graph.nodeNames.count - hosted.count, routes = graph.routePatterns.count
        let hostedHeld = hosted.compactMap(heldByHostedStore)
        guard nodes + routes + hostedHeld.count > 0 else { return }
        var held: [String] = []
        if nodes > 0 { held.append(counted(nodes, "node")) }
        if routes > 0 { held.append(counted(routes, "route")) }
        held += hostedHeld
        let list = held.count == 1 ? held[0] : held.dropLast().joined(separator: ", ") + " and " + held[held.count - 1]
        guard hostedHeld.isEmpty else {
            throw ShellError(.session(path: command, detail: "it starts a fresh session, where the app's stores start again at their initial states, "
                                      + "and this one holds \(list); 'record FILE' then 'record stop' keeps it all ('replay FILE' brings it back), "
                                      + "or add --force"), at: range)
        }
        throw ShellError(.session(path: command, detail: "it starts a fresh session and this one holds \(list); "
                                  + "'save FILE' or 'reset' first, or add --force"), at: range)
    }

    /// What a fresh session would lose of hosted store `name`: its history (`the history of
    /// todos (3 steps)`), or a state other than the app's initial one; `nil` when it holds
    /// neither.
    private func heldByHostedStore(_ name: String) -> String? {
        guard let history = try? histories.history(of: name).history else { return nil }
        let others = history.branches.count - 1
        if history.count > 0 || others > 0 {
            let branches = others > 0 ? " and \(others) other branch\(others == 1 ? "" : "es")" : ""
            return "the history of \(name) (\(counted(history.count, "step"))\(branches))"
        }
        guard let hosted = hostedStores.first(where: { $0.name == name }), let initial = try? hosted.makeReducer().initialState(),
              let state = try? graph.storeState(name), state != initial
        else { return nil }
        return "a state of \(name) other than its initial state"
    }

    /// Opens a session for `inspect`: a regular file, as `load` reads, unless it is followed
    /// (`--follow` reads a pipe as it is written).
    private func openSession(_ path: String, following: Bool, at range: Range<Int>) throws(ShellError) -> SessionFileReader {
        do {
            return try SessionFileReader(path: path, following: following, regularOnly: !following)
        } catch {
            throw Self.sessionOpeningError(error, path: path, at: range)
        }
    }

    /// What opening a session file for reading failed with, in the words `load` uses for a
    /// file that is not a regular one.
    private static func sessionOpeningError(_ error: SessionError, path: String, at range: Range<Int>) -> ShellError {
        if case .notRegularFile = error.reason { return ShellError(.file(path: path, detail: error.detail), at: range) }
        return ShellError(.session(path: path, detail: error.detail), at: range)
    }

    /// Opens a session for a replay, which reads its steps (commands with their recorded
    /// effects) as it runs them.
    private func openSteps(_ path: String, at range: Range<Int>) throws(ShellError) -> SessionStepReader {
        do {
            return try SessionStepReader(path: path, regularOnly: true)
        } catch {
            throw Self.sessionOpeningError(error, path: path, at: range)
        }
    }

    // MARK: Replay

    /// Runs a replay's steps until it ends, reaches `until`, or its break holds; at the end,
    /// when `reportingDamage`, reports the damage that ended the file early, if any.
    private func advance(_ run: inout ReplayRun, output: inout [OutputLine], reportingDamage: Bool) throws(ShellError) -> CommandResult {
        let saved = (replayCapture, replayAccess, staleHistoryNotes)
        staleHistoryNotes = staleHistoryNotes ?? ([], false)
        replayCapture = run.recorder.map { ($0, executeDepth) }
        replayAccess = ReplayAccess(allowFiles: run.allowFiles, directory: run.directory)
        // The recording is read as the replay runs: no command it runs writes it.
        let identity = FileIdentity(path: run.file)
        if let identity { filesBeingRead.append(identity) }
        nestingDepth += 1
        hasStartedInnerCommands = true
        defer {
            (replayCapture, replayAccess, staleHistoryNotes) = saved
            if identity != nil { filesBeingRead.removeLast() }
            nestingDepth -= 1
            stopRecordingStartedInReplay()
        }
        while let step = run.upcoming {
            if !step.isSetup, let until = run.until, run.next >= until { break }
            do throws(ShellError) { try checkInterruption() } catch {
                // Paused where it stopped: `continue` goes on from there.
                replayRun = run
                throw error
            }
            run.take()
            _ = run.recorder?.take()
            let recorders = step.isSetup ? restartingRecorders() : []
            // A verification prints its outcome only, like a test run; a step is shown.
            let shown = !run.verify || run.until == run.next
            // A setup comment (`# import devtools ...`) notes what the recording did: nothing runs.
            let isNote = step.isSetup && step.text.hasPrefix("#")
            staleHistoryNotes?.inSetup = step.isSetup
            let outcome = isNote ? CommandOutcome(status: .empty, lines: [])
                : perform(step.text, at: SourceOrigin(name: run.path, line: step.line), rendered: shown)
            staleHistoryNotes?.inSetup = false
            output += outcome.lines
            // The step Ctrl-C stopped took itself back: the replay stops with the interruption,
            // before a verification could take what is missing for a difference.
            try checkInterruption()
            // A command that fails now where the recording has it succeed (no error among its
            // effects; a setup line always succeeded) did not do what the recording did.
            let failedAnew = outcome.status == .failure && !step.effects.contains { $0.event.kind == "error" }
            if outcome.status == .failure { run.failed += 1 }
            if failedAnew {
                run.failedAnew += 1
                run.firstFailedAnew = run.firstFailedAnew ?? step.line
            }
            if step.isSetup {
                // A setup line rebuilds what the recording started with: it runs without being
                // compared, and the histories after it are rebuilt as inspect does. Its failure
                // is a divergence all the same: what it should have made is missing.
                let heard = run.recorder?.take() ?? []
                if failedAnew, run.verify {
                    let error = heard.last { $0.kind == "error" }
                    let divergence = ReplayDivergence(step: run.next + 1, line: step.line, command: step.text, expected: nil, actual: error)
                    throw diverged(divergence, in: run, output: &output)
                }
                try checkHosted(step.effects, in: run, at: 0..<0)
                try restore(step.effects, path: run.path, at: 0..<0)
                recordRestart(into: recorders, setup: step.text)
                continue
            }
            if run.recorder == nil { compareStates(of: step, in: &run) }
            if let recorder = run.recorder {
                var expected = step.effects.map(\.event), actual = Array(recorder.take().dropFirst())
                if step.recordedAction != nil {
                    // An app checkpoints on its own schedule: its checkpoints are checked against the
                    // states, not matched line for line.
                    if let divergence = checkpointDivergence(of: step, in: run) { throw diverged(divergence, in: run, output: &output) }
                    expected.removeAll { $0.kind == "checkpoint" }
                    actual.removeAll { $0.kind == "checkpoint" }
                }
                if let (expected, actual) = ReplayVerifier.firstDifference(expected: expected, actual: actual, isComplete: !step.isCut) {
                    if case .checkpoint(let store, let index, _)? = expected, case .checkpoint(store, index, _)? = actual,
                       let effect = step.effects.first(where: { $0.event == expected }) {
                        // The actions before it matched, patches and digests: the replayed state is
                        // the one the recorded patches give, and the checkpoint is what differs.
                        throw ShellError(.session(path: run.path, detail: "line \(effect.line): \(SessionEvent.checkpointDamage(index, of: store)); "
                            + "the steps before it ran"), at: 0..<0)
                    }
                    // The line of the recorded event that differs (an action's own line, as the
                    // test API's `RecordedSession` names it), or the command's when none does.
                    let line = step.effects.first { $0.event == expected }?.line ?? step.line
                    var divergence = ReplayDivergence(step: run.next, line: line, command: step.text, expected: expected, actual: actual)
                    if case .action(let recorded)? = expected, case .action(let replayed)? = actual,
                       recorded.store == replayed.store, recorded.index == replayed.index {
                        divergence.states = statesAfter(recorded)
                    }
                    throw diverged(divergence, in: run, output: &output)
                }
            }
            if breakpointHolds() {
                replayRun = run
                return CommandResult(ReplayPaused(path: run.path, step: run.next, steps: run.totalSteps(), reason: .breakpoint(after: step.text)))
            }
        }
        if let next = run.upcoming {
            replayRun = run
            return CommandResult(ReplayPaused(path: run.path, step: run.next, steps: run.totalSteps(), reason: .stepped(next: next.text)))
        }
        if reportingDamage, let damage = run.damage {
            throw ShellError(.session(path: run.path, detail: "\(damage.detail); the steps before it ran"), at: 0..<0)
        }
        if let first = run.firstFailedAnew {
            // The replay ran on (as the recording's commands do), but it did not do what the
            // recording did: it fails, and says how often.
            throw ShellError(.session(path: run.path, detail: "replayed \(counted(run.next, "step")), but \(counted(run.failedAnew, "command")) "
                + "failed that succeeded in the recording (the first on line \(first)); 'replay \(run.path) --verify' stops at the first difference"),
                             at: 0..<0)
        }
        return CommandResult(ReplayFinished(path: run.path, steps: run.next, verified: run.verify, failed: run.failed,
                                            differing: run.differingStates))
    }

    /// In a replay that does not verify: counts the actions of `step` whose state after them
    /// differs from the recording's (by the recorded digest), remembering the first, so that
    /// the replay can say its states are not the recording's.
    private func compareStates(of step: RecordedCommand, in run: inout ReplayRun) {
        guard !step.isSetup else { return }
        for effect in step.effects {
            guard case .action(let recorded) = effect.event, let hash = recorded.hash, recorded.failure == nil else { continue }
            run.differingStates.compared += 1
            guard let (name, history) = try? histories.history(of: recorded.store), let live = try? graph.storeState(name),
                  let state = try? history.state(at: recorded.index, current: live), StateDigest(state) == hash
            else {
                run.differingStates.count += 1
                run.differingStates.first = run.differingStates.first
                    ?? "after action #\(recorded.index) of \(recorded.store) (line \(effect.line): \(Shell.causeText(step.text)))"
                continue
            }
        }
    }

    /// The state the recording says `recorded` left, and the store's state now (after the
    /// replayed action): what a divergence at that action shows.
    private func statesAfter(_ recorded: SessionAction) -> (expected: Value, actual: Value)? {
        guard let (name, history) = try? histories.history(of: recorded.store), let actual = try? graph.storeState(name),
              var expected = try? history.state(at: recorded.index - 1, current: actual), let patch = recorded.patch,
              (try? JSONPatch.apply(patch, to: &expected)) != nil
        else { return nil }
        return (expected, actual)
    }

    /// The error of a replay that diverged, after the diff for people; in JSON the diff is in the
    /// error's `divergence`, and nothing else reaches the output.
    private func diverged(_ divergence: ReplayDivergence, in run: ReplayRun, output: inout [OutputLine]) -> ShellError {
        if !options.json { output += renderer.success(CommandResult(ReplayDiverged(divergence: divergence)), command: divergence.command) }
        let summary = divergence.summary(diffWhere: options.json ? "in divergence.diff" : "above")
        return ShellError(.session(path: run.path, detail: summary), at: 0..<0).adding(json: ["divergence": divergence.json])
    }

    /// Compares each checkpoint among an app step's effects with the state the replay reached:
    /// the first that differs, if any.
    private func checkpointDivergence(of step: RecordedCommand, in run: ReplayRun) -> ReplayDivergence? {
        for effect in step.effects {
            guard case .checkpoint(let store, let index, let recorded) = effect.event,
                  let (name, history) = try? histories.history(of: store), let actual = try? graph.storeState(name),
                  let state = try? history.state(at: index, current: actual), state != recorded
            else { continue }
            var divergence = ReplayDivergence(step: run.next, line: effect.line, command: step.text, expected: effect.event, actual: nil)
            divergence.states = (recorded, state)
            return divergence
        }
        return nil
    }

    /// The events before a recording's first command or action: the prelude, and the setup
    /// steps that open the file (read again from the file when there are more than the one read
    /// ahead). They say which stores the replay starts with, and in what states.
    private func leadingEvents(of run: ReplayRun) -> [RecordedEvent] {
        var events = run.prelude
        guard let first = run.upcoming, first.isSetup else { return events }
        guard let reader = try? SessionStepReader(path: run.file, regularOnly: true) else { return events + first.effects }
        while let step = try? reader.next(), step.isSetup { events += step.effects }
        return events
    }

    /// Refuses, before anything runs, a recording of an app's stores that this shell does not
    /// host (an app's `Recorder` file, or a recording made in a shell that hosted them, whose
    /// store lines say `hosted`): their actions replay through the app's reducers only, and a
    /// store of the shell's own in their place would diverge at the first action. And one
    /// whose hosted stores start in a state that the app's types do not decode (one made with
    /// other types than the app's): the app's reducer would refuse every action. The store lines
    /// it reads are those before the first command (`leadingEvents(of:)`); an action that does
    /// not decode fails at its step.
    private func checkHosted(_ run: ReplayRun, at range: Range<Int>) throws(ShellError) {
        let events = leadingEvents(of: run)
        try checkHosted(events, in: run, at: range)
        var decoding = HostedDecodingCheck(graph: graph)
        guard decoding.isNeeded else { return }
        for recorded in events {
            decoding.check(recorded)
            if let finding = decoding.findings.first {
                throw ShellError(.session(path: run.path, detail: "line \(recorded.line): \(finding.text), so the app's reducer cannot replay it; "
                                          + "open it with 'inspect \(run.path)'"), at: range)
            }
        }
    }

    /// Throws the error of the first store line among `events` that is an app's store this
    /// shell does not host.
    func checkHosted(_ events: [RecordedEvent], in run: ReplayRun, at range: Range<Int>) throws(ShellError) {
        for recorded in events {
            guard case .store(let name, _, let hosted) = recorded.event, hosted || run.isAppRecording,
                  !hostedStores.contains(where: { $0.name == name })
            else { continue }
            let hostedNames = hostedStores.map(\.name)
            let hosts = hostedNames.isEmpty ? "" : " (it hosts \(Spelling.list(hostedNames)))"
            let naming = hostedNames.isEmpty ? ""
                : "if it is a recording of \(hostedNames.count == 1 ? hostedNames[0] : "one of them"), record it under that name "
                    + "(Recorder(..., storeName: \"\(hostedNames[0])\")); otherwise "
            throw ShellError(.session(path: run.path, detail: "line \(recorded.line): \(name) is an app's store that this shell does not host\(hosts): "
                + naming + "replay the recording in the app's own inspector (see README, 'Debug your own stores'), or open it with 'inspect'"), at: range)
        }
    }

    /// Ends a recording that a replayed `record` started, when its replay ends.
    private func stopRecordingStartedInReplay() {
        if let depth = recording?.replayDepth, depth > executeDepth { finish() }
    }

    /// Rebuilds store histories from recorded events, as `inspect` does (a recording's start,
    /// or the histories after a `setup` line).
    private func restore(_ events: [RecordedEvent], path: String, at range: Range<Int>) throws(ShellError) {
        guard !events.isEmpty else { return }
        var inspection = Inspection(graph: graph, histories: histories)
        for recorded in events {
            do throws(InspectionError) { try inspection.apply(recorded.event, line: recorded.line) } catch {
                throw ShellError(.session(path: path, detail: "line \(recorded.line): \(error.message)"), at: range)
            }
        }
        do throws(InspectionError) { try inspection.finish() } catch {
            throw ShellError(.session(path: path, detail: error.message), at: range)
        }
        // The timers the session had when the recording started, which replace those the
        // definitions set (a timer patch's first tick).
        let timers = events.compactMap { recorded -> PendingTimer? in
            if case .timer(let timer) = recorded.event { timer } else { nil }
        }
        guard let first = events.first(where: { $0.event.kind == "timer" }) else { return }
        do throws(GraphError) { try graph.setPendingTimers(timers) } catch {
            throw ShellError(.session(path: path, detail: "line \(first.line): \(error.description)"), at: range)
        }
    }

    /// Whether the break condition became true with the last step.
    private func breakpointHolds() -> Bool {
        guard let breakpoint else { return false }
        var bindings = Bindings()
        if let (name, history) = try? histories.history(of: breakpoint.store) {
            bindings.state = try? graph.storeState(name)
            bindings.action = history.current > 0 ? (try? history.entry(history.current))?.action : nil
        }
        let holds = (try? breakpoint.condition.evaluate(bindings, in: graph)) == .bool(true)
        let became = holds && !breakpoint.held
        self.breakpoint?.held = holds
        return became
    }

    // MARK: Inspect and import

    /// `inspect`: rebuilds every store's history from the recording's patches and checkpoints,
    /// event by event as `reader` reads them (up to the end of a followed file as it is now).
    /// Returns the result, the damage that ended the file early, if any, and the rebuild, which
    /// `inspect --follow` goes on with.
    private func inspect(_ reader: SessionFileReader, path: String, at range: Range<Int>) throws(ShellError)
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
    private func importDevTools(_ file: DevToolsFile, into store: String, force: Bool, path: String, range: Range<Int>,
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
        hasStartedInnerCommands = true
        for recorder in recordersInCharge { recorder.record(.setup("# " + Self.causeText(command))) }
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

    private func historyOf(_ store: String, _ range: Range<Int>) throws(ShellError) -> History {
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
private struct HostedDecodingCheck {
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
        case .action(let action):
            let name = action.store
            guard hosted.contains(name), !findings.contains(where: { $0.store == name }) else { return }
            let type = if case .string(let type)? = action.action["type"] { type } else { "?" }
            guard checkedTypes[name, default: []].insert(type).inserted, let failure = graph.hostedActionFailure(name, action.action) else { return }
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

/// What the commands a replay runs may do with files (see `Shell.writablePath`).
struct ReplayAccess {
    /// `--allow-files`: files under `directory` only.
    var allowFiles: Bool
    /// The recording's directory.
    var directory: String
}
