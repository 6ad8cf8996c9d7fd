@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory

/// A recording that `inspect FILE --follow` goes on reading while an app appends to it: the
/// reader where it stopped (a last line without its line break waits in it) and the rebuild,
/// which goes on with the same `Inspection` that read the file first.
///
/// `inspect --listen` follows an app's connection the same way, with the same reader over
/// the bytes that arrive and the same rebuild: until an app connects there is no reader, and
/// `listening` accepts one; when the app closes the connection, listening stops.
final class Following {
    /// The file, or for `--listen` the address listened on (`127.0.0.1:4321`).
    let path: String
    /// The reader, once there is one (with `--listen`, once an app connected).
    var reader: SessionFileReader?
    var inspection: Inspection
    /// With `--listen`: the socket listened on and the connections starting.
    let listening: Listening?
    /// `--idle SECONDS`: following stops once the file has not grown for that long.
    let idleSeconds: Double?
    /// When the file last grew (or following started).
    var lastGrowth = ContinuousClock.now
    /// How many actions arrived since following started.
    var actions = 0
    /// How many of the rebuild's warnings were printed.
    var warningsShown: Int

    init(path: String, reader: SessionFileReader?, inspection: Inspection, idleSeconds: Double?, listening: Listening? = nil) {
        self.path = path
        self.reader = reader
        self.inspection = inspection
        self.idleSeconds = idleSeconds
        self.listening = listening
        warningsShown = inspection.warnings.count
    }

    /// What the user sees it doing: `following` a file, `listening` for an app.
    var activity: String { listening == nil ? "following" : "listening" }

    /// How far the reader reached, in bytes (0 before an app connected).
    var bytesRead: Int { reader?.bytesRead ?? 0 }
}

extension Shell {
    /// Whether `inspect FILE --follow` is reading a recording as it grows, or `inspect --listen`
    /// is listening for an app or reading what it sends.
    public var isFollowing: Bool { following != nil }

    /// Reads what was appended to the followed recording since the last call and rebuilds it
    /// with the `inspect` that opened it, so that every time-travel command sees it. Returns a
    /// line for each new action, printed as `dispatch` prints a step, and warnings; following
    /// stops, with a line that says why, when the file is damaged, truncated or replaced, or has
    /// not grown for `--idle` seconds. Everything read before stays.
    ///
    /// With `inspect --listen`, it first accepts or refuses what connected (see `Listening`), and
    /// listening stops, keeping everything, when the app closes its connection.
    ///
    /// The executable calls it before each prompt and while the user is idle at one; a script
    /// run calls it in a loop after `inspect --follow` (see `ScriptRunner`). One call reads at
    /// most `followedEventsPerRead` events, so that a long backlog does not keep the prompt
    /// away: the next call goes on.
    public func readFollowed() -> [OutputLine] {
        guard let following else { return [] }
        let sizeBefore = following.bytesRead
        var lines: [OutputLine] = []
        var grew = false
        if let listening = following.listening {
            let (reader, notices) = listening.poll()
            lines += notices.flatMap(listenerLines)
            if let reader {
                following.reader = reader
                grew = true
            }
        }
        let activity = following.activity
        var stopped: ShellError?
        var applied = false
        // (With --listen, nothing is read until an app connected.)
        if let reader = following.reader {
            for _ in 0..<Self.followedEventsPerRead {
                let recorded: RecordedEvent
                do throws(SessionError) {
                    guard let next = try reader.next() else { break }
                    recorded = next
                } catch {
                    stopped = ShellError(.session(path: following.path, detail: "\(error.detail); \(activity) stopped, and everything read before is kept"),
                                         at: 0..<0)
                    break
                }
                do throws(InspectionError) {
                    if !applied { try following.inspection.resume() }
                    applied = true
                    try following.inspection.apply(recorded.event, line: recorded.line)
                } catch {
                    stopped = ShellError(.session(path: following.path, detail: "line \(recorded.line): \(error.message); \(activity) stopped, "
                                                  + "and everything before that line is kept"), at: 0..<0)
                    break
                }
                if case .action(let action, _) = recorded.event {
                    following.actions += 1
                    lines += renderer.events([.dispatched(followedStep(action))])
                }
            }
        }
        if applied {
            // Actions whose states come with a later checkpoint wait for it while following.
            do throws(InspectionError) { try following.inspection.finish(keepingUnrecorded: true) } catch {
                stopped = stopped ?? ShellError(.session(path: following.path, detail: "\(error.message); \(activity) stopped"), at: 0..<0)
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
        // The app closed its connection, and every whole line it sent was read.
        if following.reader?.hasEnded == true {
            return lines + stopFollowing(because: .closed)
        }
        let now = ContinuousClock.now
        if grew || following.bytesRead != sizeBefore {
            following.lastGrowth = now
        } else if let idle = following.idleSeconds, now - following.lastGrowth >= .seconds(idle) {
            lines += stopFollowing(because: .idle(seconds: idle))
        }
        return lines
    }

    /// The line a listener's notice prints: a connection as a report, a refusal as a warning.
    private func listenerLines(_ notice: Listening.Notice) -> [OutputLine] {
        switch notice {
        case .connected(let peer):
            renderer.success(CommandResult(AppConnected(peer: peer)), command: "")
        case .refused(let peer, let reason):
            [OutputLine("warning: refused a connection from \(peer): \(reason); still listening", to: .error)]
        }
    }

    /// Stops following the recording (Ctrl-C), keeping what was read; returns the line that says
    /// so (none when nothing is followed).
    public func stopFollowing() -> [OutputLine] {
        stopFollowing(because: .asked)
    }

    /// Stops following (and listening, which closes the socket and the app's connection).
    private func stopFollowing(because reason: StoppedFollowing.Reason) -> [OutputLine] {
        guard let following else { return [] }
        self.following = nil
        // The actions still waiting for a checkpoint join the history, as not recorded.
        try? following.inspection.finish()
        return renderer.success(CommandResult(StoppedFollowing(path: following.path, listening: following.listening != nil, reason: reason,
                                                               actions: following.actions)),
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
