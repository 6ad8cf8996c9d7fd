import Foundation
import PatchbayCore
import PatchbayRecorder

extension Shell {
    func run(_ command: SessionCommand, text: String, origin: SourceOrigin, output: inout [OutputLine]) throws(ShellError) -> CommandResult {
        switch command {
        case .record(let path, let range):
            if let recording { throw ShellError(.session(path: path, detail: "already recording into \(recording.writer.path); 'record stop' first"), at: range) }
            let writer: SessionWriter
            do {
                writer = try SessionWriter(path: path, created: options.now())
            } catch {
                throw ShellError(.cannotWrite(path: path, detail: error.description), at: range)
            }
            let recorder = SessionRecorder(graph: graph, writer: writer)
            recorder.attach(to: histories)
            recording = (recorder, writer)
            return CommandResult(lines: ["recording into \(path)"], json: ["recording": .string(path)])
        case .stopRecording:
            guard let recording else { return CommandResult(lines: ["not recording"], json: ["recording": .null]) }
            finish()
            return CommandResult(lines: ["stopped recording into \(recording.writer.path) (\(recording.writer.lastSeq) events)"],
                                 json: ["stopped": .string(recording.writer.path), "events": .int(recording.writer.lastSeq)])
        case .recordingStatus:
            guard let recording else { return CommandResult(lines: ["not recording (start with: record FILE)"], json: ["recording": .null]) }
            var line = "recording into \(recording.writer.path): \(recording.writer.lastSeq) events"
            if let failure = recording.recorder.failure { line += "; stopped by an error: \(failure)" }
            return CommandResult(lines: [line], json: ["recording": .string(recording.writer.path), "events": .int(recording.writer.lastSeq)])
        case .replay(let path, let range, let replayOptions):
            let (script, rest) = try readScript(ScriptFile.resolve(path, from: origin), at: range)
            let verifier = replayOptions.verify ? ReplayVerifier(script: script) : nil
            var run = ReplayRun(path: path, script: script, rest: rest, verify: replayOptions.verify, until: replayOptions.until, verifier: verifier)
            if run.script.commands.isEmpty { run.finishReading() }
            guard let first = run.script.commands.first else {
                throw ShellError(.session(path: path, detail: "no commands to replay (a Recorder's file); open it with 'inspect \(path)'"), at: range)
            }
            startOver()
            if let verifier {
                let recorder = SessionRecorder(graph: graph, receiver: verifier)
                recorder.attach(to: histories)
                run.recorder = recorder
            }
            if replayOptions.step || replayOptions.until == 0 {
                run.finishReading()
                replayRun = run
                return CommandResult(lines: ["replay of \(path) paused before step 1 of \(run.stepCount): \(first.text)"],
                                     json: ["paused": .int(0), "steps": .int(run.stepCount)])
            }
            return try advance(&run, output: &output, reportingDamage: true)
        case .inspect(let path, let range):
            let load = try readSession(ScriptFile.resolve(path, from: origin), at: range)
            startOver()
            let inspected = try inspect(load, path: path, at: range)
            if let damage = load.damage {
                output += renderer.success(inspected, command: text)
                throw ShellError(.session(path: path, detail: "\(damage.description); everything before that line is loaded"), at: range)
            }
            return inspected
        case .breakpoint(let store, let condition):
            breakpoint = (store?.text, condition, false)
            return CommandResult(lines: ["break when \(condition)" + (store.map { " in \($0.text)" } ?? "")],
                                 json: ["break": .string(condition.description)])
        case .step, .resume:
            guard var run = replayRun else {
                throw ShellError(.session(path: "replay", detail: "no replay is paused; start one with 'replay FILE --step'"), at: 0..<text.utf8.count)
            }
            replayRun = nil
            if case .step = command { run.until = run.next + 1 } else { run.until = nil }
            return try advance(&run, output: &output, reportingDamage: false)
        case .exportDevTools(let store, let path, let range):
            let (name, history) = try travel(store, store.range) { () throws(TimeTravelError) in try histories.history(of: store.text) }
            let entries = try travel(store, store.range) { () throws(TimeTravelError) in
                do throws(HistoryError) { return history.count == 0 ? [] : try history.entries(1...history.count) } catch { throw .history(store: name, error) }
            }
            let file = DevToolsFile(actions: entries.map { $0.action }, preloadedState: history.initial)
            do {
                try Data(file.text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw ShellError(.cannotWrite(path: path, detail: error.localizedDescription), at: range)
            }
            return CommandResult(lines: ["exported \(entries.count) actions of \(name) to \(path)"],
                                 json: ["store": .string(name), "file": .string(path), "actions": .int(entries.count)])
        case .importDevTools(let path, let range, let store):
            writeRecordingOut()
            let bytes = try ScriptFile.read(ScriptFile.resolve(path, from: origin), at: range)
            let file: DevToolsFile
            do throws(DevToolsError) { file = try DevToolsFile(parsing: bytes) } catch {
                throw ShellError(.session(path: path, detail: error.description), at: range)
            }
            return try importDevTools(file, into: store?.text ?? "app", path: path, range: store?.range ?? range)
        }
    }

    /// Writes the recording's kept lines before a file is read (it may be the one recorded); a
    /// failure stops the recording, and the command running reports it.
    func writeRecordingOut() {
        guard let recording else { return }
        do throws(SessionError) { try recording.writer.flush() } catch { recording.recorder.stop(failure: error) }
    }

    /// Closes the recording, if one is on.
    public func finish() {
        recording?.recorder.stop()
        recording?.writer.close()
        recording = nil
    }

    private func readSession(_ path: String, at range: Range<Int>) throws(ShellError) -> SessionLoad {
        writeRecordingOut()
        do {
            return try SessionReader.read(contentsOf: path)
        } catch {
            throw ShellError(.session(path: path, detail: error.description), at: range)
        }
    }

    /// Starts reading a session for a replay: its commands, with their effects as recorded
    /// lines; those of the file's start, and the rest to come.
    private func readScript(_ path: String, at range: Range<Int>) throws(ShellError) -> (script: SessionScript, rest: SessionScriptRest?) {
        do {
            return try SessionScript.start(contentsOf: path)
        } catch {
            throw ShellError(.session(path: path, detail: error.description), at: range)
        }
    }

    /// Runs a replay's steps until it ends, reaches `until`, or its break holds; at the end,
    /// when `reportingDamage`, reports the damage that ended the file early, if any.
    private func advance(_ run: inout ReplayRun, output: inout [OutputLine], reportingDamage: Bool) throws(ShellError) -> CommandResult {
        replayCapture = run.recorder.map { ($0, executeDepth) }
        defer { replayCapture = nil }
        while true {
            run.readAhead()
            guard !run.isFinished else { break }
            if let until = run.until, run.next >= until { break }
            let step = run.script.commands[run.next]
            run.verifier?.begin(step: run.next)
            // A verification prints its outcome only, like a test run; a step is shown.
            let shown = !run.verify || run.until == run.next + 1
            let outcome = perform(step.text, at: SourceOrigin(name: run.path, line: step.line), rendered: shown)
            output += outcome.lines
            run.next += 1
            if let (expected, actual) = run.verifier?.end() {
                let divergence = ReplayDivergence(step: run.next, line: step.line, command: step.text, expected: expected, actual: actual)
                output += divergence.diffLines.map { OutputLine($0) }
                throw ShellError(.session(path: run.path, detail: divergence.summary), at: 0..<0)
            }
            if breakpointHolds() {
                run.finishReading()
                replayRun = run
                let (next, count) = (run.next, run.stepCount)
                return CommandResult(lines: ["break: the condition holds after step \(next) of \(count) (\(Self.causeText(step.text)))"],
                                     json: ["paused": .int(next), "steps": .int(count)])
            }
        }
        run.finishReading()
        if !run.isFinished {
            replayRun = run
            let (path, done, count, next) = (run.path, run.next, run.stepCount, run.script.commands[run.next].text)
            return CommandResult(lines: ["replay of \(path) paused after step \(done) of \(count); next: \(Self.causeText(next))"],
                                 json: ["paused": .int(done), "steps": .int(count)])
        }
        if reportingDamage, let damage = run.script.damage {
            throw ShellError(.session(path: run.path, detail: "\(damage.description); the steps before it ran"), at: 0..<0)
        }
        let summary = run.verify ? "verified \(run.stepCount) steps of \(run.path): every effect matches the recording"
            : "replayed \(run.stepCount) steps of \(run.path)"
        let (verified, count) = (run.verify, run.stepCount)
        return CommandResult(lines: [summary], json: ["verified": .bool(verified), "steps": .int(count), "divergence": .null])
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

    /// `inspect`: rebuilds every store's history from the recording's patches and checkpoints.
    private func inspect(_ load: SessionLoad, path: String, at range: Range<Int>) throws(ShellError) -> CommandResult {
        var inspection = Inspection(graph: graph, histories: histories)
        for recorded in load.events {
            do throws(InspectionError) {
                try inspection.apply(recorded.event)
            } catch {
                throw ShellError(.session(path: path, detail: "line \(recorded.line): \(error.message)"), at: range)
            }
        }
        do throws(InspectionError) {
            try inspection.finish()
        } catch {
            throw ShellError(.session(path: path, detail: error.message), at: range)
        }
        let stores = inspection.order.map { name in
            let history = try? histories.history(of: name).history
            return "\(name) (\(history?.count ?? 0) actions)"
        }
        let lines = ["inspected \(path): " + (stores.isEmpty ? "no stores" : stores.joined(separator: ", "))]
            + inspection.warnings.map { "warning: \($0)" }
        return CommandResult(lines: lines, json: ["file": .string(path), "stores": .array(inspection.order.map(Value.string))])
    }

    private func importDevTools(_ file: DevToolsFile, into store: String, path: String, range: Range<Int>) throws(ShellError) -> CommandResult {
        let initial = file.preloadedState ?? .emptyObject
        if graph.storeNames.contains(store) {
            histories.replace(store, with: History(initial: initial))
            try call([], [], range) { () throws(GraphError) in try graph.travel(store, to: initial, index: 0) }
        } else {
            try call([], [], range) { () throws(GraphError) in try graph.createStore(store, state: initial) }
        }
        var failed = 0
        for action in file.actions {
            do throws(GraphError) { try graph.dispatch(store, action) } catch { failed += 1 }
        }
        _ = graph.takeEvents()
        let line = "imported \(file.actions.count) actions into \(store)" + (failed > 0 ? " (\(failed) failed)" : "")
        return CommandResult(lines: [line], json: ["store": .string(store), "actions": .int(file.actions.count), "failed": .int(failed)])
    }
}
