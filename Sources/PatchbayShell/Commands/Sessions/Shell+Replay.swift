import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory

extension Shell {
    /// Runs a replay's steps until it ends, reaches `until`, or its break holds; at the end,
    /// when `reportingDamage`, reports the damage that ended the file early, if any.
    func advance(_ run: inout ReplayRun, output: inout [OutputLine], reportingDamage: Bool) throws(ShellError) -> CommandResult {
        let saved = (replayCapture, replayAccess, staleHistoryNotes)
        staleHistoryNotes = staleHistoryNotes ?? ([], false)
        replayCapture = run.recorder.map { ($0, executeDepth) }
        replayAccess = ReplayAccess(allowFiles: run.allowFiles, directory: run.directory)
        // The recording is read as the replay runs: no command it runs writes it.
        let identity = FileIdentity(path: run.file)
        if let identity { filesBeingRead.append(identity) }
        nestingDepth += 1
        running.hasStartedInnerCommands = true
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
                run.startRecordedStates(step.effects)
                recordRestart(into: recorders, setup: step.text)
                continue
            }
            if run.recorder == nil { compareStates(of: step, in: &run) }
            if let recorder = run.recorder {
                var expected = step.effects.map(\.event), actual = Array(recorder.take().dropFirst())
                if step.recordedAction != nil {
                    expected = ReplayedEffects.withoutStates(expected)
                    actual = ReplayedEffects.withoutStates(actual)
                }
                if let (expected, actual) = ReplayedEffects.firstDifference(expected: expected, actual: actual, isComplete: !step.isCut) {
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
                    if case .action(let recorded, _)? = expected, case .action(let replayed, _)? = actual,
                       recorded.store == replayed.store, recorded.index == replayed.index {
                        divergence.states = statesAfter(recorded)
                    }
                    throw diverged(divergence, in: run, output: &output)
                }
                if step.recordedAction != nil, let divergence = try verifyStates(of: step, in: &run) {
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
    func compareStates(of step: RecordedCommand, in run: inout ReplayRun) {
        guard !step.isSetup else { return }
        for effect in step.effects {
            guard case .action(let recorded, let hash) = effect.event, let hash, recorded.failure == nil else { continue }
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
    func statesAfter(_ recorded: StoreStep<JSONPatch.Operation>) -> (expected: Value, actual: Value)? {
        guard let (name, history) = try? histories.history(of: recorded.store), let actual = try? graph.storeState(name),
              var expected = try? history.state(at: recorded.index - 1, current: actual), let patch = recorded.recordedChanges,
              (try? JSONPatch.apply(patch, to: &expected)) != nil
        else { return nil }
        return (expected, actual)
    }

    /// The error of a replay that diverged, after the diff for people; in JSON the diff is in the
    /// error's `divergence`, and nothing else reaches the output.
    func diverged(_ divergence: ReplayDivergence, in run: ReplayRun, output: inout [OutputLine]) -> ShellError {
        // A damaged file stops agreeing with the reducers where its damage first shows, often
        // before the damaged line (a step whose action line was deleted): the damage is what
        // `inspect` names, at its line, and the verification says so instead. (Ctrl-C while
        // the rest of a long file is read leaves the divergence as what is said.)
        if let reader = try? SessionFileReader(path: run.file, regularOnly: true),
           let damage = try? Inspection.damage(in: reader, checking: checkInterruption) {
            return ShellError(.session(path: run.path, detail: "\(damage); the replay stopped agreeing with it at line \(divergence.line)"), at: 0..<0)
        }
        if !options.json { output += renderer.success(CommandResult(ReplayDiverged(divergence: divergence)), command: divergence.command) }
        var summary = divergence.summary(diffWhere: options.json ? "in divergence.diff" : "above")
        // The file's last command, with none of what it did after it: a file cut between a
        // command's line and its effects' (which no reader can tell from a command that did
        // nothing) reads so.
        if run.upcoming == nil, run.damage == nil, divergence.expected == nil, let last = run.taken, last.line == divergence.line,
           last.effects.isEmpty {
            summary += "; it is the file's last line: if the file was cut there, what the command did is what is missing"
        }
        return ShellError(.session(path: run.path, detail: summary), at: 0..<0).adding(json: ["divergence": divergence.json])
    }

    /// Checks the states of a step of an app's recording with each store's
    /// `RecordingVerifier`, as the test API's `RecordedSession` does: the state after an
    /// action whose line holds its patch, and at a checkpoint. The first state that differs, if
    /// any; a recording that contradicts itself is damage, at its line.
    func verifyStates(of step: RecordedCommand, in run: inout ReplayRun) throws(ShellError) -> ReplayDivergence? {
        for effect in step.effects {
            let store: String, tellsState: Bool
            do throws(RecordingDamage) {
                switch effect.event {
                case .action(let action, _):
                    guard run.recordedStates[action.store] != nil else { continue }
                    store = action.store
                    try run.recordedStates[store]?.follow(action, line: effect.line)
                    tellsState = run.recordedStates[store]?.expected != nil
                case .checkpoint(let name, let index, let state):
                    guard run.recordedStates[name] != nil else { continue }
                    store = name
                    tellsState = try run.recordedStates[name]?.follow(checkpoint: state, index: index, line: effect.line) ?? false
                default:
                    continue
                }
            } catch {
                throw ShellError(.session(path: run.path, detail: "line \(error.line): \(error.message); the steps before it ran"), at: 0..<0)
            }
            guard tellsState, let verifier = run.recordedStates[store], let expected = verifier.expected,
                  let (name, history) = try? histories.history(of: store), let live = try? graph.storeState(name),
                  let actual = try? history.state(at: verifier.index, current: live), run.recordedStates[store]?.check(actual) == false
            else { continue }
            var divergence = ReplayDivergence(step: run.next, line: effect.line, command: step.text, expected: effect.event, actual: nil)
            if case .action = effect.event { divergence.actual = replayedAction(verifier.index, of: store) }
            divergence.states = (expected, actual)
            return divergence
        }
        return nil
    }

    /// The step `index` of `store` as the replay made it, in the form of a recorded line.
    private func replayedAction(_ index: Int, of store: String) -> SessionEvent? {
        guard let (_, history) = try? histories.history(of: store), let entry = try? history.entry(index) else { return nil }
        return .action(entry.patchForm, hash: nil)
    }

    /// The events before a recording's first command or action: the prelude, and the setup
    /// steps that open the file (read again from the file when there are more than the one read
    /// ahead). They say which stores the replay starts with, and in what states.
    func leadingEvents(of run: ReplayRun) -> [RecordedEvent] {
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
    func checkHosted(_ run: ReplayRun, at range: Range<Int>) throws(ShellError) {
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
    func stopRecordingStartedInReplay() {
        if let depth = recording?.replayDepth, depth > executeDepth { finish() }
    }

    /// Rebuilds store histories from recorded events, as `inspect` does (a recording's start,
    /// or the histories after a `setup` line).
    func restore(_ events: [RecordedEvent], path: String, at range: Range<Int>) throws(ShellError) {
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
    func breakpointHolds() -> Bool {
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
}
