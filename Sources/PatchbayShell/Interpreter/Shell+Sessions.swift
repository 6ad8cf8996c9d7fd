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
                writer = try SessionWriter(path: path, created: options.now(), replacing: true)
            } catch {
                throw ShellError(.cannotWrite(path: path, detail: error.description), at: range)
            }
            let events = CommandEvents()
            let recorder = SessionRecorder(graph: graph) { event in events.events.append(event) }
            recorder.attach(to: histories)
            recording = (recorder, writer, events)
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
            let file = ScriptFile.resolve(path, from: origin)
            let steps = try openSteps(file, at: range)
            let verifier = replayOptions.verify ? ReplayVerifier() : nil
            var run = ReplayRun(path: path, file: file, steps: steps, verify: replayOptions.verify, until: replayOptions.until, verifier: verifier)
            guard let first = run.upcoming else {
                if let damage = run.damage { throw ShellError(.session(path: path, detail: damage.description), at: range) }
                throw ShellError(.session(path: path, detail: "no commands to replay (a Recorder's file); open it with 'inspect \(path)'"), at: range)
            }
            startOver()
            if let verifier {
                let recorder = SessionRecorder(graph: graph, receiver: verifier)
                recorder.attach(to: histories)
                run.recorder = recorder
            }
            if replayOptions.step || replayOptions.until == 0 {
                replayRun = run
                let count = run.totalSteps()
                return CommandResult(lines: ["replay of \(path) paused before step 1 of \(count): \(first.text)"],
                                     json: ["paused": .int(0), "steps": .int(count)])
            }
            return try advance(&run, output: &output, reportingDamage: true)
        case .inspect(let path, let range):
            let reader = try openSession(ScriptFile.resolve(path, from: origin), at: range)
            startOver()
            let (inspected, damage) = try inspect(reader, path: path, at: range)
            if let damage {
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
            let bytes = try ScriptFile.read(ScriptFile.resolve(path, from: origin), at: range)
            let file: DevToolsFile
            do throws(DevToolsError) { file = try DevToolsFile(parsing: bytes) } catch {
                throw ShellError(.session(path: path, detail: error.description), at: range)
            }
            return try importDevTools(file, into: store?.text ?? "app", path: path, range: store?.range ?? range)
        }
    }

    /// Closes the recording, if one is on.
    public func finish() {
        recording?.recorder.stop()
        recording?.writer.close()
        recording = nil
    }

    private func openSession(_ path: String, at range: Range<Int>) throws(ShellError) -> SessionFileReader {
        do {
            return try SessionFileReader(path: path)
        } catch {
            throw ShellError(.session(path: path, detail: error.description), at: range)
        }
    }

    /// Opens a session for a replay, which reads its steps (commands with their recorded
    /// effects) as it runs them.
    private func openSteps(_ path: String, at range: Range<Int>) throws(ShellError) -> SessionStepReader {
        do {
            return try SessionStepReader(path: path)
        } catch {
            throw ShellError(.session(path: path, detail: error.description), at: range)
        }
    }

    /// Runs a replay's steps until it ends, reaches `until`, or its break holds; at the end,
    /// when `reportingDamage`, reports the damage that ended the file early, if any.
    private func advance(_ run: inout ReplayRun, output: inout [OutputLine], reportingDamage: Bool) throws(ShellError) -> CommandResult {
        replayCapture = run.recorder.map { ($0, executeDepth) }
        defer { replayCapture = nil }
        while let step = run.upcoming {
            if let until = run.until, run.next >= until { break }
            run.take()
            // A setup line rebuilds a definition: it runs without comparing its effects.
            if !step.isSetup { run.verifier?.begin(step) }
            // A verification prints its outcome only, like a test run; a step is shown.
            let shown = !run.verify || run.until == run.next
            let outcome = perform(step.text, at: SourceOrigin(name: run.path, line: step.line), rendered: shown)
            output += outcome.lines
            if let (expected, actual) = run.verifier?.end() {
                let divergence = ReplayDivergence(step: run.next, line: step.line, command: step.text, expected: expected, actual: actual)
                output += divergence.diffLines.map { OutputLine($0) }
                throw ShellError(.session(path: run.path, detail: divergence.summary), at: 0..<0)
            }
            if breakpointHolds() {
                replayRun = run
                let (next, count) = (run.next, run.totalSteps())
                return CommandResult(lines: ["break: the condition holds after step \(next) of \(count) (\(Self.causeText(step.text)))"],
                                     json: ["paused": .int(next), "steps": .int(count)])
            }
        }
        if let next = run.upcoming {
            replayRun = run
            let (path, done, count) = (run.path, run.next, run.totalSteps())
            return CommandResult(lines: ["replay of \(path) paused after step \(done) of \(count); next: \(Self.causeText(next.text))"],
                                 json: ["paused": .int(done), "steps": .int(count)])
        }
        if reportingDamage, let damage = run.damage {
            throw ShellError(.session(path: run.path, detail: "\(damage.description); the steps before it ran"), at: 0..<0)
        }
        let summary = run.verify ? "verified \(run.next) steps of \(run.path): every effect matches the recording"
            : "replayed \(run.next) steps of \(run.path)"
        let (verified, count) = (run.verify, run.next)
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

    /// `inspect`: rebuilds every store's history from the recording's patches and checkpoints,
    /// event by event as `reader` reads them. Returns the result and the damage that ended the
    /// file early, if any.
    private func inspect(_ reader: SessionFileReader, path: String, at range: Range<Int>) throws(ShellError)
        -> (CommandResult, SessionError?)
    {
        var inspection = Inspection(graph: graph, histories: histories)
        var damage: SessionError?
        while true {
            let recorded: RecordedEvent
            do throws(SessionError) {
                guard let next = try reader.next() else { break }
                recorded = next
            } catch {
                damage = error
                break
            }
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
        return (CommandResult(lines: lines, json: ["file": .string(path), "stores": .array(inspection.order.map(Value.string))]), damage)
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

/// The events a recording's recorder heard during the command being run, which the shell
/// writes with one write when the command ends.
final class CommandEvents {
    var events: [SessionEvent] = []

    /// The events, leaving none.
    func take() -> [SessionEvent] {
        defer { events = [] }
        return events
    }
}
