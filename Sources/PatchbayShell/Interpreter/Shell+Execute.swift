import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory

/// How the shell runs one command, whatever its family: parse it, record it, run it with its
/// family's `Shell` extension, take back what a failure or Ctrl-C leaves, render what it did.
extension Shell {
    /// Runs one command (possibly spanning lines, as `InputAssembler` joins them).
    /// - Parameter origin: where the command came from, for error messages.
    public func execute(_ text: String, at origin: SourceOrigin = .interactive) -> CommandOutcome {
        var reply: CommandReply?
        return execute(text, at: origin, reply: &reply)
    }

    /// Runs one command as `execute(_:at:)` does, and returns what it did as values instead of
    /// lines: its report or its error, and the events it set off; `nil` when the text held no
    /// command. For the tests, which check values; what is shown is the renderer's to test.
    func reply(to text: String, at origin: SourceOrigin = .interactive) -> CommandReply? {
        var reply: CommandReply?
        _ = execute(text, at: origin, reply: &reply)
        return reply
    }

    /// `execute(_:at:)`, setting `reply` to what the command did.
    private func execute(_ text: String, at origin: SourceOrigin, reply: inout CommandReply?) -> CommandOutcome {
        if executeDepth == 0 { progressTimes = (ContinuousClock.now, nil) }
        defer {
            if executeDepth == 0 {
                if progressTimes?.shown != nil { progressHandler?(nil) }
                progressTimes = nil
            }
        }
        var outcome = perform(text, at: origin, rendered: true, reply: &reply)
        if executeDepth == 0, let gone = dropSelectionOfAGoneStore() {
            outcome.lines += renderer.selectionDropped(gone)
        }
        if executeDepth == 0 {
            if let failedWrite = writeRecording() {
                // The recording no longer matches the session: a script stops here, as at an error.
                outcome.lines += renderer.failure(failedWrite, command: text, origin: origin)
                outcome.status = .failure
                reply?.result = .failure(failedWrite)
            }
            if let height = options.height, !options.json {
                outcome.isLong = OutputLine.rows(of: outcome.lines, width: options.width, moreThan: Swift.max(1, height - 1))
            }
        }
        return outcome
    }

    /// Writes the events of the command that just ended to the recording's file, with one
    /// write; a failure stops the recording and is said once, here (`record` keeps saying it),
    /// with how much of the file is whole: the command fails with the error returned.
    private func writeRecording() -> ShellError? {
        guard let recording else { return nil }
        let events = recording.recorder.take()
        guard recording.failure == nil, !events.isEmpty else { return nil }
        do throws(SessionError) {
            try recording.writer.write(events)
            return nil
        } catch {
            recording.failure = error
            return ShellError(.session(path: recording.writer.path, detail: error.detail), at: 0..<0)
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
        var reply: CommandReply?
        return perform(text, at: origin, rendered: rendered, reply: &reply)
    }

    /// `perform(_:at:rendered:)`, setting `reply` to what the command did (left `nil` when the
    /// text held no command).
    private func perform(_ text: String, at origin: SourceOrigin, rendered: Bool, reply: inout CommandReply?) -> CommandOutcome {
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
                reply = CommandReply(result: .failure(error), events: events)
                guard rendered else { return CommandOutcome(status: .failure, lines: []) }
                return CommandOutcome(status: .failure, lines: lines + renderer.failure(error, command: text, origin: origin, restored: restored))
            }
            for recorder in recorders { recorder.deliveries(events) }
            reply = CommandReply(result: .success(result.report), events: events)
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
                    reply = CommandReply(result: .failure(error), events: [])
                    guard rendered else { return CommandOutcome(status: .failure, lines: []) }
                    return CommandOutcome(status: .failure, lines: lines + renderer.failure(error, command: text, origin: origin))
                }
                // Ctrl-C: what the command did goes, the nodes it made too (a `load`'s), and it is
                // not recorded at all (a replay would run it to its end).
                let reason: ShellError.Reason = takeBack(recorders, removingNewNodes: true).isComplete ? .interrupted : .interruptedAfterRewrite
                if let settings { (options, selectedStore, warnedActionTypes) = settings }
                let error = ShellError(reason, at: 0..<0)
                reply = CommandReply(result: .failure(error), events: [])
                guard rendered else { return CommandOutcome(status: .failure, lines: []) }
                return CommandOutcome(status: .failure, lines: renderer.failure(error, command: text, origin: origin))
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
            reply = CommandReply(result: .failure(error), events: events)
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
