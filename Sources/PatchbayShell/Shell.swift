import Foundation
import PatchbayCore
import PatchbayRecorder

/// A Patchbay session: parses and runs commands and renders what they print.
///
/// A shell is used from one thread (the executable's main thread); it is not `Sendable`. It has
/// no terminal code: the executable feeds it text and prints the `OutputLine`s it returns, which
/// is also how the tests drive it.
public final class Shell {
    /// How output is rendered.
    public var options: ShellOptions
    /// Whether `quit` or `exit` ran.
    public private(set) var hasQuit = false
    /// Lists file names for completion after `load` and similar commands.
    public var fileNames: FileNameLister
    private var loadDepth = 0
    /// The nodes, wires and probes of the session.
    private(set) var graph: Graph
    /// The histories of the session's stores.
    private(set) var histories: StoreHistories
    /// The recording `record FILE` writes, if one is on: the recorder puts the events of the
    /// command being run in `events`, which `execute` writes when the command ends.
    var recording: (recorder: SessionRecorder, writer: SessionWriter, events: CommandEvents)?
    /// A replay paused by `--step`, `--until` or its break.
    var replayRun: ReplayRun?
    /// `break [STORE] when EXPR`, and whether the condition held after the last step.
    var breakpoint: (store: String?, condition: PatchbayCore.Expression, held: Bool)?
    /// How deep `execute` calls are nested (`load`, `replay` run commands of their own).
    private(set) var executeDepth = 0
    /// The recorder that hears the commands a verifying replay runs, at their depth.
    var replayCapture: (recorder: SessionRecorder, depth: Int)?

    public init(options: ShellOptions = ShellOptions(), fileNames: FileNameLister = FileNameLister()) {
        self.options = options
        self.fileNames = fileNames
        graph = Graph()
        histories = StoreHistories(graph: graph)
    }

    /// Starts a fresh session: no nodes, no stores, no histories. A recording goes on, on the
    /// new graph.
    func startOver() {
        graph = Graph()
        histories = StoreHistories(graph: graph)
        replayRun = nil
        recording?.recorder.attach(to: graph)
        recording?.recorder.attach(to: histories)
    }

    var renderer: Renderer { Renderer(options: options) }

    /// Runs one command (possibly spanning lines, as `InputAssembler` joins them).
    /// - Parameter origin: where the command came from, for error messages.
    public func execute(_ text: String, at origin: SourceOrigin = .interactive) -> CommandOutcome {
        // A command's recorded lines go to the file together, with one write, when it ends.
        guard executeDepth == 0, let recording else { return perform(text, at: origin, rendered: true) }
        let stoppedBefore = recording.recorder.failure != nil
        var outcome = perform(text, at: origin, rendered: true)
        let events = recording.events.take()
        if !events.isEmpty {
            do {
                try recording.writer.write(events)
            } catch {
                recording.recorder.stop(failure: error)
            }
        }
        if !stoppedBefore, let failure = recording.recorder.failure {
            // Said once, when it happens; `record` keeps saying it.
            outcome.lines += recordingStopped(by: failure, in: recording.writer, command: text, origin: origin)
        }
        return outcome
    }

    private func recordingStopped(by failure: SessionError, in writer: SessionWriter, command: String, origin: SourceOrigin) -> [OutputLine] {
        let error = ShellError(.session(path: writer.path, detail: "the recording stopped: \(failure.description)"), at: 0..<0)
        return renderer.failure(error, command: command, origin: origin)
    }

    /// Runs one command; unless `rendered`, it prints nothing (a verifying replay's commands).
    func perform(_ text: String, at origin: SourceOrigin, rendered: Bool) -> CommandOutcome {
        var lines: [OutputLine] = []
        var recorder: SessionRecorder?
        var parsed = false
        let savedCause = graph.cause
        graph.cause = Self.causeText(text)
        defer { graph.cause = savedCause }
        do {
            let context = ParserContext(storeNames: graph.storeNameSet)
            guard let command = try CommandParser.parse(text, context: context) else { return CommandOutcome(status: .empty, lines: []) }
            parsed = true
            if executeDepth == 0 {
                recorder = command.isRecordingControl ? nil : recording?.recorder
            } else if let capture = replayCapture, capture.depth == executeDepth {
                recorder = capture.recorder
            }
            recorder?.command(text)
            executeDepth += 1
            defer { executeDepth -= 1 }
            let result = try run(command, text: text, origin: origin, output: &lines)
            let events = graph.takeEvents()
            recorder?.deliveries(events)
            if let runaway = events.runaway {
                guard rendered else { return CommandOutcome(status: .failure, lines: []) }
                lines += renderer.events(events)
                lines += renderer.failure(ShellError(.graph(.engine(runaway)), at: 0..<0), command: text, origin: origin)
                return CommandOutcome(status: .failure, lines: lines)
            }
            guard rendered else { return CommandOutcome(status: .success, lines: []) }
            lines += renderer.events(events)
            lines += renderer.success(result, command: text)
            return CommandOutcome(status: .success, lines: lines)
        } catch {
            // A command that did not even parse is recorded too: a replay fails on it the same way.
            if recorder == nil, executeDepth == 0, !parsed, let top = recording?.recorder {
                recorder = top
                top.command(text)
            }
            let events = graph.takeEvents()
            recorder?.deliveries(events)
            recorder?.record(.error(command: text, message: error.message))
            guard rendered else { return CommandOutcome(status: .failure, lines: []) }
            lines += renderer.events(events)
            lines += renderer.failure(error, command: text, origin: origin)
            return CommandOutcome(status: .failure, lines: lines)
        }
    }

    /// Renders an error found outside a command (a line too long, invalid UTF-8).
    public func report(_ error: ShellError, command: String, at origin: SourceOrigin) -> [OutputLine] {
        renderer.failure(error, command: command, origin: origin)
    }

    /// The candidates for Tab at UTF-8 offset `cursor` of `line`.
    public func complete(_ line: String, cursor: Int) -> Completion {
        let context = CompletionContext(
            nodeNames: graph.nodeNames, ports: graph.portAddresses.map(\.description),
            patchTypes: graph.patchTypeNames, probeTargets: graph.probeTargets, storeNames: graph.storeNames,
            actionTypes: graph.actionTypes(),
            actionTypesByStore: Dictionary(uniqueKeysWithValues: graph.storeNames.map { ($0, graph.actionTypes(of: $0)) }),
            reducerIDs: ((try? graph.reducerSummaries()) ?? []).map(\.id),
            routePatterns: graph.routePatterns, viewNames: graph.viewNames,
            branchNames: graph.storeNames.flatMap { store in ((try? histories.history(of: store))?.history.branches ?? []).map(\.name) })
        return Completer(fileNames: fileNames, context: context).complete(line, cursor: cursor)
    }

    private func run(
        _ command: Command, text: String, origin: SourceOrigin, output: inout [OutputLine]
    ) throws(ShellError) -> CommandResult {
        switch command {
        case .evaluate(let expression):
            return .value(try evaluate(expression, in: text))
        case .help(let topic, let range):
            return try Help.result(for: topic, at: range)
        case .helpPatchType(let name):
            guard let type = graph.allPatchTypes.first(where: { $0.name == name.text }) else {
                throw ShellError(.graph(.unknownPatchType(name.text, suggestion: Spelling.closest(to: name.text, among: graph.patchTypeNames))),
                                 at: name.range)
            }
            return Help.result(for: type)
        case .load(let path, let range):
            return try load(ScriptFile.resolve(path, from: origin), range: range, output: &output)
        case .save(let path, let range):
            return try save(to: path, range: range)
        case .reset:
            startOver()
            return CommandResult(lines: ["reset: everything defined in this session is gone"])
        case .dataflow(let command):
            return try run(command, text: text)
        case .store(let command):
            return try run(command, text: text)
        case .route(let command):
            return try run(command, text: text)
        case .timeTravel(let command):
            return try run(command, text: text)
        case .session(let command):
            return try run(command, text: text, origin: origin, output: &output)
        case .quit:
            hasQuit = true
            return CommandResult()
        }
    }

    private func load(_ path: String, range: Range<Int>, output: inout [OutputLine]) throws(ShellError) -> CommandResult {
        guard loadDepth < InputLimits.maxLoadDepth else {
            throw ShellError(.loadTooDeep(limit: InputLimits.maxLoadDepth), at: range)
        }
        let contents = try ScriptFile.read(path, at: range)
        loadDepth += 1
        defer { loadDepth -= 1 }
        var nested: [OutputLine] = []
        var runner = ScriptRunner(shell: self, name: path, keepGoing: false) { nested.append($0) }
        runner.run(contents)
        output += nested
        guard runner.failures == 0 else {
            throw ShellError(.loadStopped(path: path), at: range)
        }
        return CommandResult(
            lines: [],
            json: ["file": .string(path), "commands": .int(runner.commandCount)])
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

extension Command {
    /// Whether the command starts, stops or reports a recording: those are not recorded.
    var isRecordingControl: Bool {
        switch self {
        case .session(.record), .session(.stopRecording), .session(.recordingStatus): true
        default: false
        }
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
}
