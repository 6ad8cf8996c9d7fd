import Foundation
public import PatchbayCore
import PatchbayGraph
import PatchbayRecorder
import PatchbayHistory

/// A Patchbay session: parses and runs commands and renders what they print.
///
/// A shell is used from one thread (the executable's main thread); it is not `Sendable`. It has
/// no terminal code: the executable feeds it text and prints the `OutputLine`s it returns, which
/// is also how the tests drive it.
public final class Shell {
    /// How output is rendered.
    public var options: ShellOptions
    /// Whether `quit` or `exit` ran.
    public internal(set) var hasQuit = false
    /// Lists file names for completion after `load` and similar commands.
    public var fileNames: FileNameLister
    /// How deep `load` and `replay` nest: one limit for both, so that a file that loads or
    /// replays itself stops with an error.
    var nestingDepth = 0
    /// The nodes, wires and probes of the session.
    private(set) var graph: Graph
    /// The histories of the session's stores.
    private(set) var histories: StoreHistories
    /// The recording `record FILE` writes, if one is on.
    var recording: Recording?
    /// A replay paused by `--step`, `--until` or its break.
    var replayRun: ReplayRun?
    /// The recording `inspect FILE --follow` goes on reading, if one is followed.
    var following: Following?
    /// `break [STORE] when EXPR`, and whether the condition held after the last step.
    var breakpoint: (store: String?, condition: PatchbayGraph.Expression, held: Bool)?
    /// How deep `execute` calls are nested (`load`, `replay` run commands of their own).
    private(set) var executeDepth = 0
    /// The recorder that hears the commands a verifying replay runs, at their depth.
    var replayCapture: (recorder: SessionRecorder, depth: Int)?
    /// What the commands of the replay running may do with files; `nil` outside a replay.
    var replayAccess: ReplayAccess?
    /// The stores a replay running has noted as having states made by old reducers (the note
    /// comes once per store in a replay), and whether the step running is a setup line (which
    /// rebuilds the recording's start: no note); `nil` outside a replay.
    var staleHistoryNotes: (noted: Set<String>, inSetup: Bool)?
    /// The command being run: who records it, where the session stood when it started, and
    /// what it did that cannot be taken back.
    var running = CommandTransaction()
    /// The app's stores the shell hosts (see `host(_:)`), which every fresh session has.
    private(set) var hostedStores: [HostedStore] = []
    /// The files this session is reading (its scripts, loads and replays): never written
    /// (see `checkNotInUse`).
    var filesBeingRead: [FileIdentity] = []
    /// The user's editor, which `edit REDUCER` opens; `nil` (no terminal, or neither `VISUAL`
    /// nor `EDITOR` set) makes `edit` an error.
    public var editor: ExternalEditor?
    /// Where a command that reads a long history (`blame`, `find`, a filtered `history`) says
    /// how far it has come, once it has run for `progressDelay`, a few times a second: a line
    /// such as `blame: 120000 of 200000 steps (Ctrl-C stops)`, then `nil` when the command
    /// ends, to clear it. The interactive session shows it on the terminal; `nil` shows nothing.
    public var progressHandler: ((String?) -> Void)?
    /// How long a command runs before its progress shows.
    var progressDelay: Duration = .seconds(1)
    /// When the running command started, and when its progress last showed, if it did.
    var progressTimes: (start: ContinuousClock.Instant, shown: ContinuousClock.Instant?)?
    /// The store `use STORE` selected: commands that leave out their STORE use it. A fresh
    /// session has none, and a store that goes takes its selection with it.
    public internal(set) var selectedStore: String?
    /// The action types a warning said no reducer of a store handles, by store: each is said
    /// once, while the store lasts.
    var warnedActionTypes: [String: Set<String>] = [:]

    public init(options: ShellOptions = ShellOptions(), fileNames: FileNameLister = FileNameLister()) {
        self.options = options
        self.fileNames = fileNames
        graph = Graph()
        histories = StoreHistories(graph: graph)
    }

    /// Hosts the app's `stores` (see `HostedStore`): they exist from now on, and again in every
    /// fresh session (`reset`, `replay`, `inspect`).
    /// - Throws: a one-line error naming the store that cannot be hosted (a name that commands
    ///   could not type, or that another store has, a state that does not encode); the stores
    ///   before it are hosted.
    public func host(_ stores: [HostedStore]) throws(ShellError) {
        for store in stores {
            // Said for the app's code, which names the store: the user cannot rename it here.
            guard Value.isBareKey(store.name) else {
                throw ShellError(.graph(.hostedState("cannot host \(Value.string(store.name).jsonText): a store's name is a letter or _ "
                    + "followed by letters, digits or _, as commands type it; rename it in its HostedStore(...)")), at: 0..<0)
            }
            if hostedStores.contains(where: { $0.name == store.name }) {
                throw ShellError(.graph(.hostedState("cannot host \(store.name) twice: two of the HostedStores passed to the host "
                    + "are named '\(store.name)'; give each its own name")), at: 0..<0)
            }
            do throws(GraphError) { try graph.host(store) } catch {
                throw ShellError(.graph(.hostedState("cannot host \(store.name): \(error)")), at: 0..<0)
            }
            hostedStores.append(store)
        }
    }

    /// Starts a fresh session: no nodes, no stores, no histories. A recording goes on, on the
    /// new graph.
    func startOver() {
        graph = Graph()
        histories = StoreHistories(graph: graph)
        // The app's stores are part of the host, not of the session: they start over too.
        for store in hostedStores { try? graph.host(store) }
        replayRun = nil
        following = nil
        selectedStore = nil
        warnedActionTypes = [:]
        recording?.recorder.attach(to: graph, histories: histories)
        replayCapture?.recorder.attach(to: graph, histories: histories)
    }

    /// The session's graph and histories, to be put back by `putBack(_:)` if the command that
    /// starts the session over is interrupted.
    var session: (graph: Graph, histories: StoreHistories) { (graph, histories) }

    /// Makes `session` the session again (an interrupted replay or inspect leaves the session
    /// as it was), with the recordings hearing it.
    func putBack(_ session: (graph: Graph, histories: StoreHistories)) {
        (graph, histories) = session
        recording?.recorder.attach(to: graph, histories: histories)
    }

    /// Says how far a long command has come (see `progressHandler`): `done` of `total` `units`.
    func showProgress(_ command: String, _ done: Int, of total: Int, _ units: String) {
        guard let progressHandler, let times = progressTimes else { return }
        let now = ContinuousClock.now
        guard now - times.start >= progressDelay, times.shown.map({ now - $0 >= .milliseconds(250) }) ?? true else { return }
        progressTimes?.shown = now
        progressHandler("\(command): \(done) of \(total) \(units) (Ctrl-C stops)")
    }

    /// Throws when Ctrl-C asked the running command to stop (see `Interruption`).
    func checkInterruption() throws(ShellError) {
        do throws(InterruptionError) { try Interruption.check() } catch { throw ShellError(.interrupted, at: 0..<0) }
    }

    /// Writes the file a command makes whole (see `ScriptFileWriter`): Ctrl-C before the new
    /// file takes FILE's place stops the command with FILE as it was; after, the new file stays,
    /// and the command says so instead of "nothing changed".
    func writeWhole(_ text: String, to path: String, replacing: Bool, at range: Range<Int>) throws(ShellError) {
        try ScriptFileWriter.write(text, to: path, replacing: replacing, at: range, beforeReplacing: checkInterruption)
        running.lastingChanges.wrote(path)
    }

    /// Notes that the command replaced or made `path` by other means than `writeWhole` (a
    /// recording's file).
    func noteWritten(_ path: String) {
        running.lastingChanges.wrote(path)
    }

    var renderer: Renderer { Renderer(options: options, presenter: changePresenter) }

    /// How human output shows values, with the settings of the moment.
    var style: OutputStyle {
        var style = OutputStyle(options: options)
        style.presenter = changePresenter
        return style
    }

    /// How steps' changes are matched by identity (`set identity`), with the state each step of
    /// a store started from, as its history has it; `nil` for JSON, which keeps the patch.
    var changePresenter: ChangePresenter? {
        guard let key = options.settings.identity, !options.json else { return nil }
        return ChangePresenter(key: key) { [histories, graph] store, index in
            guard let history = try? histories.history(of: store).history, index >= 1, index <= history.count,
                  let live = try? graph.storeState(store) else { return nil }
            return try? history.state(at: index - 1, current: live)
        }
    }

    /// Runs one command (possibly spanning lines, as `InputAssembler` joins them).
    /// - Parameter origin: where the command came from, for error messages.
    public func execute(_ text: String, at origin: SourceOrigin = .interactive) -> CommandOutcome {
        if executeDepth == 0 { progressTimes = (ContinuousClock.now, nil) }
        defer {
            if executeDepth == 0 {
                if progressTimes?.shown != nil { progressHandler?(nil) }
                progressTimes = nil
            }
        }
        var outcome = perform(text, at: origin, rendered: true)
        if executeDepth == 0, let gone = dropSelectionOfAGoneStore() {
            outcome.lines += renderer.selectionDropped(gone)
        }
        if executeDepth == 0 {
            let failedWrite = writeRecording(command: text, origin: origin)
            if !failedWrite.isEmpty {
                // The recording no longer matches the session: a script stops here, as at an error.
                outcome.lines += failedWrite
                outcome.status = .failure
            }
            if let height = options.height, !options.json {
                outcome.isLong = OutputLine.rows(of: outcome.lines, width: options.width, moreThan: Swift.max(1, height - 1))
            }
        }
        return outcome
    }

    /// Writes the events of the command that just ended to the recording's file, with one
    /// write; a failure stops the recording and is said once, here (`record` keeps saying it),
    /// with how much of the file is whole: the command fails.
    private func writeRecording(command: String, origin: SourceOrigin) -> [OutputLine] {
        guard let recording else { return [] }
        let events = recording.recorder.take()
        guard recording.failure == nil, !events.isEmpty else { return [] }
        do throws(SessionError) {
            try recording.writer.write(events)
            return []
        } catch {
            recording.failure = error
            let stopped = ShellError(.session(path: recording.writer.path, detail: error.detail), at: 0..<0)
            return renderer.failure(stopped, command: command, origin: origin)
        }
    }

    /// Clears the selection (`use STORE`) when its store is gone (`rm`, say); returns its name
    /// then. The warnings said about a store that is gone go too: a new store of that name has
    /// its own.
    @discardableResult
    private func dropSelectionOfAGoneStore() -> String? {
        if !warnedActionTypes.isEmpty {
            for store in warnedActionTypes.keys where !graph.storeNameSet.contains(store) { warnedActionTypes[store] = nil }
        }
        guard let selected = selectedStore, !graph.storeNameSet.contains(selected) else { return nil }
        selectedStore = nil
        return selected
    }

    /// Runs one command; unless `rendered`, it prints nothing (a verifying replay's commands).
    func perform(_ text: String, at origin: SourceOrigin, rendered: Bool) -> CommandOutcome {
        var lines: [OutputLine] = []
        var recorders: [SessionRecorder] = []
        var parsed = false
        var form = RecordedForm.itself
        let savedCause = graph.cause
        graph.cause = Self.causeText(text)
        let saved = running
        // What a `load` that Ctrl-C stops puts back besides the graph and the histories.
        var settings: (ShellOptions, String?, [String: Set<String>])?
        var graphMark: Graph.Mark?
        var parsedCommand: Command?
        defer {
            if let graphMark { graph.release(graphMark) }
            graph.cause = savedCause
            // What this command's commands did stays with the command that ran it; a command
            // typed or run by a script has no command around it to tell.
            let lasting = executeDepth > 0 ? saved.lastingChanges.merging(running.lastingChanges) : LastingChanges()
            running = saved
            running.lastingChanges = lasting
        }
        running.hasStartedInnerCommands = false
        running.lastingChanges = LastingChanges()
        dropSelectionOfAGoneStore()
        do {
            let context = ParserContext(storeNames: graph.storeNameSet)
            guard var command = try CommandParser.parse(text, context: context) else { return CommandOutcome(status: .empty, lines: []) }
            if let selectedStore { command = command.selecting(selectedStore, at: 0..<0) }
            parsed = true
            parsedCommand = command
            if case .general(.load) = command { settings = (options, selectedStore, warnedActionTypes) }
            recorders = self.recorders(for: command)
            form = command.recordedForm
            running.recordersInCharge = recorders
            running.inheritedRecorders = form == .whatItRuns ? recorders : []
            graphMark = graph.mark()
            running.marks = (histories.mark(), graphMark!, recorders.map(\.pendingCount))
            switch form {
            case .itself: for recorder in recorders { recorder.record(.command(text)) }
            case .whatItRuns: break
            case .note: for recorder in recorders { recorder.record(.setup("# " + Self.causeText(text))) }
            }
            executeDepth += 1
            defer { executeDepth -= 1 }
            var result = try run(command, text: text, origin: origin, output: &lines)
            if running.lastingChanges.writtenFiles.isEmpty {
                try checkInterruption()
            } else if Interruption.current?.isRequested == true {
                result = CommandResult(InterruptedAfterWriting(result: result.report, files: running.lastingChanges.writtenFiles))
            }
            running.lastingChanges.note(command, text: text)
            let events = graph.takeEvents()
            if let runaway = events.runaway {
                // The command failed as a whole: the actions it made go, and so does what the
                // recorders heard of them (a replay fails the same way and takes them back too).
                let eventCounts = recorders.map(\.pendingCount)
                let restored = takeBack(recorders).restored
                unmake(command)
                let error = ShellError(.graph(.engine(runaway)), at: 0..<0)
                for (recorder, count) in zip(recorders, eventCounts) {
                    // The command's line is there still when what it did could not be taken back.
                    if recorder.pendingCount != count { recorder.record(.command(text)) }
                    recorder.record(.error(command: text, message: error.message))
                }
                guard rendered else { return CommandOutcome(status: .failure, lines: []) }
                return CommandOutcome(status: .failure, lines: lines + renderer.failure(error, command: text, origin: origin, restored: restored))
            }
            for recorder in recorders { recorder.deliveries(events) }
            guard rendered else { return CommandOutcome(status: .success, lines: []) }
            if command.printsBeforeItsEvents && !options.json {
                // The action comes before what it set off: follow-ups, and what they printed.
                lines += renderer.success(result, command: text, origin: origin)
                lines += renderer.events(events)
            } else {
                lines += renderer.events(events)
                lines += renderer.success(result, command: text, origin: origin)
            }
            return CommandOutcome(status: .success, lines: lines)
        } catch {
            if Interruption.current?.isRequested == true {
                if case .general(.load(let path, _))? = parsedCommand, let graphMark, let kept = running.lastingChanges.kept(in: graph, since: graphMark) {
                    // A load ran a command that cannot be taken back: what its commands did before
                    // the one interrupted (which took itself back) stays, and is recorded, as
                    // after a load that stops at an error.
                    let error = ShellError(.loadInterrupted(path: path, kept: kept), at: 0..<0)
                    guard rendered else { return CommandOutcome(status: .failure, lines: []) }
                    return CommandOutcome(status: .failure, lines: lines + renderer.failure(error, command: text, origin: origin))
                }
                // Ctrl-C: what the command did goes, the nodes it made too (a `load`'s), and it is
                // not recorded at all (a replay would run it to its end).
                let reason: ShellError.Reason = takeBack(recorders, removingNewNodes: true).isComplete ? .interrupted : .interruptedAfterRewrite
                if let settings { (options, selectedStore, warnedActionTypes) = settings }
                guard rendered else { return CommandOutcome(status: .failure, lines: []) }
                return CommandOutcome(status: .failure, lines: renderer.failure(ShellError(reason, at: 0..<0), command: text, origin: origin))
            }
            // A lookup of `router` makes it; a command that failed after one leaves no router.
            if let graphMark { graph.dropRouterMade(since: graphMark) }
            // A command that did not even parse is recorded too: a replay fails on it the same way.
            if !parsed {
                recorders = self.recorders(for: nil)
                for recorder in recorders { recorder.record(.command(text)) }
            }
            let events = graph.takeEvents()
            for recorder in recorders { recorder.deliveries(events) }
            // A command recorded as what it ran records the errors of what it ran; one that
            // failed before it ran anything is recorded as a note with its error.
            switch form {
            case .itself:
                for recorder in recorders { recorder.record(.error(command: text, message: error.message)) }
            case .whatItRuns where !running.hasStartedInnerCommands:
                // As a comment: run again, it would read its file as the file is then.
                for recorder in recorders {
                    recorder.record(.setup("# " + Self.causeText(text)))
                    recorder.record(.error(command: text, message: error.message))
                }
            case .note:
                // A verifying replay compares the error with the recording: a file command
                // refused now (no --allow-files, a file in use) that the recording ran without
                // one is a divergence, not a match.
                if let capture = replayCapture, recorders.contains(where: { $0 === capture.recorder }) {
                    capture.recorder.record(.error(command: text, message: error.message))
                }
            case .whatItRuns:
                break
            }
            guard rendered else { return CommandOutcome(status: .failure, lines: []) }
            lines += renderer.events(events)
            lines += renderer.failure(error, command: text, origin: origin)
            return CommandOutcome(status: .failure, lines: lines)
        }
    }

    /// Takes back what the command being run did to the histories (a command that failed as
    /// a whole, or that Ctrl-C stopped: a reducer it ran failed on it, say), what its ticks did
    /// to the clock and the nodes, and what the recorders heard of it, its own line included.
    /// Returns the stores moved back, and whether everything was taken back.
    /// When a history was rewritten by the command (a skip) it cannot be taken back: then the
    /// recorders keep what they heard, so that the recording still matches the session.
    /// With `removingNewNodes`, the nodes the command made go too, with their histories.
    @discardableResult
    private func takeBack(_ recorders: [SessionRecorder], removingNewNodes: Bool = false) -> (restored: [String], isComplete: Bool) {
        guard let (historyMarks, graphMark, eventMarks) = running.marks else { return ([], true) }
        let (restored, kept) = histories.rollBack(to: historyMarks)
        var isComplete = kept.isEmpty
        // After the stores moved back: every node is then as it was before the command, but a
        // store whose history could not go back, which shows that history as it is.
        histories.keepingStates(of: kept) { graph.rollBack(to: graphMark) }
        if removingNewNodes, !graph.removeNodes(madeSince: graphMark) { isComplete = false }
        _ = graph.takeEvents()
        if isComplete {
            for (recorder, mark) in zip(recorders, eventMarks) { recorder.discard(since: mark) }
        }
        return (restored, isComplete)
    }

    /// Removes the binding a command made, when the command failed as a whole (its first
    /// delivery set off a loop that never settled): it leaves state as it was before it. (The
    /// graph's roll back takes back the wires a command made or replaced.)
    private func unmake(_ command: Command) {
        guard case .dataflow(.bind(let first, let second)) = command else { return }
        _ = try? graph.unbind(first.text, second.text)
        _ = graph.takeEvents()
    }

    /// The recorders that take a command run at the current depth (`nil`: one that did not
    /// parse): the recording's for a command typed or run by a script, unless it controls the
    /// recording; those of the command that runs it, when that one is recorded as what it runs
    /// (see `Command.recordedForm`); a verifying replay's for the commands it runs.
    private func recorders(for command: Command?) -> [SessionRecorder] {
        // Settings change how output reads, not what the session does: a replay never sees them.
        if case .general(.setting)? = command { return [] }
        if executeDepth == 0 {
            guard let recording, command?.isRecordingControl != true else { return [] }
            return [recording.recorder]
        }
        var recorders = running.inheritedRecorders
        if let capture = replayCapture, capture.depth == executeDepth { recorders.append(capture.recorder) }
        return recorders
    }

    /// Runs `body` while the files at `paths` are being read (scripts, a replayed recording):
    /// no recording goes into them.
    public func reading<T>(_ paths: [String], _ body: () throws -> T) rethrows -> T {
        let identities = paths.compactMap(FileIdentity.init(path:))
        filesBeingRead += identities
        defer { filesBeingRead.removeLast(identities.count) }
        return try body()
    }

    /// Renders an error found outside a command (a line too long, invalid UTF-8).
    public func report(_ error: ShellError, command: String, at origin: SourceOrigin) -> [OutputLine] {
        renderer.failure(error, command: command, origin: origin)
    }

    /// The candidates for Tab at UTF-8 offset `cursor` of `line`.
    public func complete(_ line: String, cursor: Int) -> Completion {
        let context = CompletionContext(
            nodeNames: graph.nodeNames, ports: graph.portAddresses.map(\.description),
            patchTypes: graph.patchTypeNames, probeTargets: graph.probeTargets, storeNames: graph.storeNames, selectedStore: selectedStore,
            storeStates: Dictionary(uniqueKeysWithValues: graph.storeNames.compactMap { name in (try? graph.storeState(name)).map { (name, $0) } }),
            actionTypes: graph.actionTypes(),
            actionTypesByStore: Dictionary(uniqueKeysWithValues: graph.storeNames.map { ($0, graph.actionTypes(of: $0)) }),
            reducerIDs: ((try? graph.reducerSummaries()) ?? []).map(\.id),
            middlewareIDs: ((try? graph.middlewareSummaries()) ?? []).map(\.id),
            routePatterns: graph.routePatterns, viewNames: graph.viewNames, presenterIDs: graph.presenterIDs,
            featureNames: graph.featureNames,
            branchNames: graph.storeNames.flatMap { store in ((try? histories.history(of: store))?.history.branches ?? []).map(\.name) },
            connectorNames: graph.connectorSummaries.map(\.name))
        return Completer(fileNames: fileNames, context: context).complete(line, cursor: cursor)
    }

    /// Runs `command`: its family's `Shell` extension does.
    private func run(
        _ command: Command, text: String, origin: SourceOrigin, output: inout [OutputLine]
    ) throws(ShellError) -> CommandResult {
        switch command {
        case .general(let command): try run(command, text: text, origin: origin, output: &output)
        case .dataflow(let command): try run(command, text: text)
        case .store(let command): try run(command, text: text, origin: origin, output: &output)
        case .route(let command): try run(command, text: text)
        case .timeTravel(let command): try run(command, text: text)
        case .session(let command): try run(command, text: text, origin: origin, output: &output)
        }
    }
}

extension Shell {
    /// The command as the root of cause chains: its first line, trimmed.
    static func causeText(_ text: String) -> String {
        // Read as bytes: this runs for every command, and Foundation's trimming goes through
        // UTF-16 (a few microseconds a command).
        let utf8 = text.utf8
        let bounds = utf8.withContiguousStorageIfAvailable(firstLineBounds) ?? Array(utf8).withUnsafeBufferPointer(firstLineBounds)
        let trimmed: String
        if bounds == 0..<utf8.count {
            // The usual command: one line with nothing to trim. Share its storage, do not copy it.
            trimmed = text
        } else {
            let start = utf8.index(utf8.startIndex, offsetBy: bounds.lowerBound)
            trimmed = String(decoding: utf8[start..<utf8.index(start, offsetBy: bounds.count)], as: UTF8.self)
        }
        guard bounds.count > 60, trimmed.count > 60 else { return trimmed }
        return String(trimmed.prefix(57)) + "..."
    }

    /// The offsets of the first line of `bytes`, without the spaces and tabs around it.
    private static func firstLineBounds(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var end = bytes.firstIndex { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") } ?? bytes.count
        var start = 0
        while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
        while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
        return start..<end
    }
}

extension [GraphEvent] {
    /// The error of a loop of writes that did not settle, if one was reported.
    var runaway: EngineError? {
        for case .error(let error) in self {
            if case .runaway = error { return error }
        }
        return nil
    }
}

/// The outcome of one command: whether it ran, and what to print.
public struct CommandOutcome: Sendable, Equatable {
    public enum Status: Sendable, Equatable {
        case success
        case failure
        /// The text held no command (blank, or a comment).
        case empty
    }

    public var status: Status
    public var lines: [OutputLine]
    /// Whether the output is taller than the terminal (`ShellOptions.height`, less a row for
    /// the prompt): the terminal side pages it. Never for JSON or where there is no terminal.
    public var isLong = false

    /// An outcome with `status` that prints `lines`.
    public init(status: Status, lines: [OutputLine], isLong: Bool = false) {
        self.status = status
        self.lines = lines
        self.isLong = isLong
    }
}
