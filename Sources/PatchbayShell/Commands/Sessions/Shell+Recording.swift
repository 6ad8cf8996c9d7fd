import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory

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
    func startRecording(_ file: String, options recordOptions: RecordOptions, at range: Range<Int>) throws(ShellError) -> CommandResult {
        if let recording { throw ShellError(.session(path: file, detail: "already recording into \(recording.writer.path); 'record stop' first"), at: range) }
        let path = try writablePath(file, at: range)
        if let obstacle = graph.whatARecordingCannotCarry {
            throw ShellError(.session(path: path, detail: "cannot start a recording that replays as this session runs: \(obstacle)"), at: range)
        }
        // A recording that starts in the middle of a session begins with what exists, and with
        // the selected store: the commands after it may leave out their STORE.
        var opening = try SessionRecorder.opening(of: graph, histories: histories, lineLimit: InputLimits.maxLineBytes,
                                                  checking: checkInterruption)
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
    func restartingRecorders() -> [(recorder: SessionRecorder, mark: Int)] {
        running.recordersInCharge.map { ($0, $0.pendingCount) }
    }

    /// After a replay or `inspect` started the session over and rebuilt its stores: each
    /// recorder forgets what it heard of the rebuild and records instead a `setup` line
    /// (`setup`: `reset`, or a comment) that a replay runs without comparing, and the histories
    /// of the stores as they are now, which a replay rebuilds after it. So a recording never
    /// needs the file that was read.
    func recordRestart(into recorders: [(recorder: SessionRecorder, mark: Int)], setup: String = "reset") {
        guard !recorders.isEmpty else { return }
        let snapshot = SessionRecorder.restart(of: graph, histories: histories)
        for (recorder, mark) in recorders {
            recorder.discard(since: mark)
            recorder.record(.setup(setup))
            recorder.record(contentsOf: snapshot)
        }
    }
}
