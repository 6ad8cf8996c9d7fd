import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory

/// The session commands (`record`, `replay`, `inspect`, `export` and `import devtools`): what each
/// does, found here by its name; the work is in `Shell+Recording`, `Shell+Replay`, `Shell+Inspect`
/// and `Shell+SessionFiles`.
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
            running.hasStartedInnerCommands = true
            if replayOptions.verify { run.recorder = SessionRecorder(graph: graph, histories: histories) }
            do {
                try restore(run.prelude, path: path, at: range)
                recordRestart(into: recorders)
                if replayOptions.step { run.until = 0 }
                let result = try advance(&run, output: &output, reportingDamage: true)
                // Ctrl-C after the last check still puts the session back: nothing of it stays.
                try checkInterruption()
                return result
            } catch where error.reason == .interrupted || Interruption.current?.isRequested == true {
                // Stopped by Ctrl-C (a verification too, whatever it found): the session is as it
                // was before the replay.
                putBack(before)
                following = followingBefore
                replayRun = nil
                for (recorder, mark) in recorders { recorder.discard(since: mark) }
                running.hasStartedInnerCommands = false
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
            running.hasStartedInnerCommands = true
            var inspected: Inspected, damage: SessionError?, inspection: Inspection
            do {
                (inspected, damage, inspection) = try inspect(reader, path: path, at: range)
                // Ctrl-C after the last check still puts the session back: nothing of it stays.
                try checkInterruption()
            } catch where error.reason == .interrupted || Interruption.current?.isRequested == true {
                putBack(before)
                following = followingBefore
                for (recorder, mark) in recorders { recorder.discard(since: mark) }
                running.hasStartedInnerCommands = false
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
        case .listen(let address, let range, let listenOptions):
            return try startListening(address, options: listenOptions, at: range)
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
            // Read in chunks, so that Ctrl-C stops a long history between two; only the actions
            // and which are skipped are kept.
            var actions: [Value] = []
            var skipped: [Int] = []
            actions.reserveCapacity(history.count)
            for start in stride(from: 1, through: history.count, by: 4_096) {
                try checkInterruption()
                let end = Swift.min(history.count, start + 4_095)
                let chunk = try travel(store, store.range) { () throws(TimeTravelError) in
                    do throws(HistoryError) { return try history.entries(start...end) } catch { throw .history(store: name, error) }
                }
                for entry in chunk {
                    actions.append(entry.action)
                    if entry.skipped { skipped.append(entry.index) }
                }
            }
            let devTools = DevToolsFile(actions: actions, preloadedState: history.initial, skipped: skipped, current: history.current)
            // The default form holds the actions alone: a history with skipped actions, or away
            // from its last step, goes out as the lifted state, which keeps them, so that an
            // import gives the same state.
            var kept: [String] = []
            if !lifted {
                if !devTools.skipped.isEmpty { kept.append("what is skipped") }
                if history.current != actions.count { kept.append("the current step #\(history.current)") }
            }
            let asLifted = lifted || !kept.isEmpty
            // The lifted form holds the state after each step too, written as the walk makes it.
            let text = asLifted
                ? try devTools.liftedText(states: { (visit) throws(ShellError) in
                    try history.walk { (_, entry, state) throws(ShellError) in
                        try visit(state, entry?.failure)
                        return true
                    }
                }, checking: checkInterruption)
                : devTools.text
            try writeWhole(text, to: path, replacing: force, at: range)
            return CommandResult(DevToolsExported(store: name, path: path, actions: actions.count, skipped: devTools.skipped.count, lifted: asLifted,
                                                  keeps: kept.isEmpty ? nil : kept.joined(separator: " and ")))
        case .exportSwiftTest(let export):
            return try exportSwiftTest(export, command: text)
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
}
