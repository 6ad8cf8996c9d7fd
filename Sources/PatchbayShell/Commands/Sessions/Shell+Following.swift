@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory

/// A recording that `inspect FILE --follow` goes on reading while an app appends to it: the
/// reader where it stopped (a last line without its line break waits in it) and the rebuild,
/// which goes on with the same `Inspection` that read the file first.
final class Following {
    let path: String
    let reader: SessionFileReader
    var inspection: Inspection
    /// `--idle SECONDS`: following stops once the file has not grown for that long.
    let idleSeconds: Double?
    /// When the file last grew (or following started).
    var lastGrowth = ContinuousClock.now
    /// How many actions arrived since following started.
    var actions = 0
    /// How many of the rebuild's warnings were printed.
    var warningsShown: Int

    init(path: String, reader: SessionFileReader, inspection: Inspection, idleSeconds: Double?) {
        self.path = path
        self.reader = reader
        self.inspection = inspection
        self.idleSeconds = idleSeconds
        warningsShown = inspection.warnings.count
    }
}

extension Shell {
    /// Whether `inspect FILE --follow` is reading a recording as it grows.
    public var isFollowing: Bool { following != nil }

    /// Reads what was appended to the followed recording since the last call and rebuilds it
    /// with the `inspect` that opened it, so that every time-travel command sees it. Returns a
    /// line for each new action, printed as `dispatch` prints a step, and warnings; following
    /// stops, with a line that says why, when the file is damaged, truncated or replaced, or has
    /// not grown for `--idle` seconds. Everything read before stays.
    ///
    /// The executable calls it before each prompt and while the user is idle at one; a script
    /// run calls it in a loop after `inspect --follow` (see `ScriptRunner`). One call reads at
    /// most `followedEventsPerRead` events, so that a long backlog does not keep the prompt
    /// away: the next call goes on.
    public func readFollowed() -> [OutputLine] {
        guard let following else { return [] }
        let sizeBefore = following.reader.bytesRead
        var lines: [OutputLine] = []
        var stopped: ShellError?
        var applied = false
        for _ in 0..<Self.followedEventsPerRead {
            let recorded: RecordedEvent
            do throws(SessionError) {
                guard let next = try following.reader.next() else { break }
                recorded = next
            } catch {
                stopped = ShellError(.session(path: following.path, detail: "\(error.detail); following stopped, and everything read before is kept"),
                                     at: 0..<0)
                break
            }
            do throws(InspectionError) {
                if !applied { try following.inspection.resume() }
                applied = true
                try following.inspection.apply(recorded.event, line: recorded.line)
            } catch {
                stopped = ShellError(.session(path: following.path, detail: "line \(recorded.line): \(error.message); following stopped, "
                                              + "and everything before that line is kept"), at: 0..<0)
                break
            }
            if case .action(let action, _) = recorded.event {
                following.actions += 1
                lines += renderer.events([.dispatched(followedStep(action))])
            }
        }
        if applied {
            // Actions whose states come with a later checkpoint wait for it while following.
            do throws(InspectionError) { try following.inspection.finish(keepingUnrecorded: true) } catch {
                stopped = stopped ?? ShellError(.session(path: following.path, detail: "\(error.message); following stopped"), at: 0..<0)
            }
        }
        let warnings = following.inspection.warnings
        if warnings.count > following.warningsShown {
            lines += warnings[following.warningsShown...].map { OutputLine("warning: \($0)", to: .error) }
            following.warningsShown = warnings.count
        }
        if let stopped {
            try? following.inspection.finish()
            self.following = nil
            return lines + renderer.failure(stopped, command: "", origin: .interactive)
        }
        let now = ContinuousClock.now
        if following.reader.bytesRead != sizeBefore {
            following.lastGrowth = now
        } else if let idle = following.idleSeconds, now - following.lastGrowth >= .seconds(idle) {
            lines += stopFollowing(idleSeconds: idle)
        }
        return lines
    }

    /// Stops following the recording (Ctrl-C), keeping what was read; returns the line that says
    /// so (none when nothing is followed).
    public func stopFollowing() -> [OutputLine] {
        stopFollowing(idleSeconds: nil)
    }

    /// Stops following; `idleSeconds` when the file did not grow for them, `nil` when asked.
    private func stopFollowing(idleSeconds: Double?) -> [OutputLine] {
        guard let following else { return [] }
        self.following = nil
        // The actions still waiting for a checkpoint join the history, as not recorded.
        try? following.inspection.finish()
        return renderer.success(CommandResult(StoppedFollowing(path: following.path, idleSeconds: idleSeconds, actions: following.actions)),
                                command: "")
    }

    /// The step an action line that arrived added, as the store's history holds it (its changes
    /// with their old values), for printing as `dispatch` prints it.
    private func followedStep(_ action: StoreStep<JSONPatch.Operation>) -> StoreStep<ValueChange> {
        let entry = try? histories.history(of: action.store).history.entry(action.index)
        return action.withChanges(entry?.changes ?? [])
    }

    /// The most events one `readFollowed()` reads.
    static let followedEventsPerRead = 4096
}
