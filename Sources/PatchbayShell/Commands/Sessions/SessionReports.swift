@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder

// MARK: Recording

/// `record FILE`: the recording started, and what it starts with when the session already
/// holds something.
struct RecordingStarted: CommandReport {
    var path: String
    /// How many stores the session holds.
    var stores: Int
    /// How many timers are pending, which the recording holds.
    var pendingTimers: Int
    /// Whether the recording starts with what exists (the session is not empty).
    var startsWithOpening: Bool

    func lines(in style: OutputStyle) -> [String] {
        guard startsWithOpening else { return ["recording into \(path)"] }
        let held = pendingTimers == 0 ? "" : ", \(counted(pendingTimers, "pending timer"))"
        return ["recording into \(path) (it starts with what exists: \(counted(stores, "store"))\(held) and the definitions)"]
    }

    var json: Value { ["recording": .string(path), "pendingTimers": .int(pendingTimers)] }
}

/// `record stop`: the recording stopped, with how many events its file holds, or that none
/// was on (`path` nil).
struct RecordingStopped: CommandReport {
    var path: String?
    var events: Int

    func lines(in style: OutputStyle) -> [String] {
        guard let path else { return ["not recording"] }
        return ["stopped recording into \(path) (\(counted(events, "event")))"]
    }

    var json: Value {
        guard let path else { return ["recording": .null] }
        return ["stopped": .string(path), "events": .int(events)]
    }
}

/// `record status`: the recording under way, with how many events it wrote and the write
/// error that stopped it, if one did; or that none is on (`path` nil).
struct RecordingStatus: CommandReport {
    var path: String?
    var events: Int
    var failure: SessionError?

    func lines(in style: OutputStyle) -> [String] {
        guard let path else { return ["not recording (start with: record FILE)"] }
        return ["recording into \(path): \(counted(events, "event"))" + (failure.map { "; stopped by an error: \($0)" } ?? "")]
    }

    var json: Value {
        guard let path else { return ["recording": .null] }
        return ["recording": .string(path), "events": .int(events)]
    }
}

// MARK: Replay

/// `replay FILE --step`, `step`, `continue` and a break: a replay paused, where, and why.
struct ReplayPaused: CommandReport {
    /// Why the replay paused.
    enum Reason: Equatable {
        /// The break condition holds after the step, whose command is given.
        case breakpoint(after: String)
        /// It ran as far as asked (`--step`, `--until`, `step`); the command of the next step.
        case stepped(next: String)
    }

    var path: String
    /// How many steps ran.
    var step: Int
    /// How many steps the recording has.
    var steps: Int
    var reason: Reason

    func lines(in style: OutputStyle) -> [String] {
        switch reason {
        case .breakpoint(let command):
            ["break: the condition holds after step \(step) of \(steps) (\(Shell.causeText(command)))"]
        case .stepped(let next) where step == 0:
            ["replay of \(path) paused before step 1 of \(steps): \(next)"]
        case .stepped(let next):
            ["replay of \(path) paused after step \(step) of \(steps); next: \(Shell.causeText(next))"]
        }
    }

    var json: Value { ["paused": .int(step), "steps": .int(steps)] }
}

/// `replay FILE [--verify]`, `step`, `continue`: the replay ran to its end (and every effect
/// matched the recording, when verified).
struct ReplayFinished: CommandReport {
    var path: String
    var steps: Int
    var verified: Bool
    /// How many commands failed, each as it failed in the recording.
    var failed = 0
    /// Without `--verify`: the recorded states the replay reached otherwise.
    var differing = DifferingStates()

    func lines(in style: OutputStyle) -> [String] {
        if verified { return ["verified \(counted(steps, "step")) of \(path): every effect matches the recording"] }
        var lines: [String] = []
        if differing.count > 0, let first = differing.first {
            lines.append("warning: \(differing.count) of \(counted(differing.compared, "recorded state")) \(differing.count == 1 ? "differs" : "differ") "
                         + "from the replay's, the first \(first); 'replay \(path) --verify' stops at the first difference and shows it")
        }
        return lines + ["replayed \(counted(steps, "step")) of \(path)" + (failed == 0 ? "" : "; \(counted(failed, "command")) failed, as in the recording")]
    }

    var json: Value {
        let json: Value = ["verified": .bool(verified), "steps": .int(steps), "failed": .int(failed), "divergence": .null]
        return verified ? json : json.adding("statesDiffering", .int(differing.count))
    }
}

/// Where a replay diverged, shown before its error: expected against actual, path by path, as
/// the style prints changes; the divergence as the error's `divergence` gives it in JSON.
struct ReplayDiverged: CommandReport {
    var divergence: ReplayDivergence

    func lines(in style: OutputStyle) -> [String] {
        if let states = divergence.states { return states.expected.changes(to: states.actual).map { "  " + style.change($0) } }
        guard let expected = divergence.expected, let actual = divergence.actual, expected.kind == actual.kind else {
            return ["  expected: \(divergence.expected.map { $0.line(seq: 0) } ?? "nothing")",
                    "  actual:   \(divergence.actual.map { $0.line(seq: 0) } ?? "nothing")"]
        }
        let want = (try? JSONReader.parse(expected.line(seq: 0), maxDepth: SessionEvent.maxLineDepth)) ?? .null
        let got = (try? JSONReader.parse(actual.line(seq: 0), maxDepth: SessionEvent.maxLineDepth)) ?? .null
        return want.changes(to: got).map { "  " + style.change($0) }
    }

    var json: Value { divergence.json }
}

/// `break [STORE] when EXPR`: the break condition set.
struct BreakpointSet: CommandReport {
    var condition: Expression
    var store: String?

    func lines(in style: OutputStyle) -> [String] { ["break when \(condition)" + (store.map { " in \($0)" } ?? "")] }
    var json: Value { ["break": .string(condition.description)] }
}

// MARK: Inspect and follow

/// `inspect FILE [--follow]`: the stores rebuilt from the recording, with how many actions
/// each holds, and the rebuild's warnings; with `--follow`, how following goes on.
struct Inspected: CommandReport {
    /// `--follow`: new actions appear as they arrive, until Ctrl-C or, with `--idle`, until
    /// the file has not grown for `idleSeconds`.
    struct Follow {
        var idleSeconds: Double?
    }

    var path: String
    var stores: [(name: String, actions: Int)]
    var warnings: [String]
    var follow: Follow?

    func lines(in style: OutputStyle) -> [String] {
        var lines = ["inspected \(path): " + (stores.isEmpty ? "no stores" : stores.map { "\($0.name) (\(counted($0.actions, "action")))" }.joined(separator: ", "))]
        lines += warnings.map { "warning: \($0)" }
        if let follow {
            let until = follow.idleSeconds.map { "until it does not grow for \(secondsText($0)) s or Ctrl-C" } ?? "until Ctrl-C"
            lines.append("following \(path): new actions appear as they arrive, \(until)")
        }
        return lines
    }

    var json: Value {
        var json: Value = ["file": .string(path), "stores": .array(stores.map { .string($0.name) })]
        if !warnings.isEmpty, case .object(var members) = json {
            members["warnings"] = .array(warnings.map(Value.string))
            json = .object(members)
        }
        if follow != nil, case .object(var members) = json {
            members["following"] = true
            json = .object(members)
        }
        return json
    }
}

/// Following a recording stopped (Ctrl-C, it did not grow for `--idle` seconds, or the app
/// closed its connection): how many actions arrived while it was followed.
struct StoppedFollowing: CommandReport {
    /// Why following stopped.
    enum Reason: Equatable {
        /// Ctrl-C.
        case asked
        /// Nothing arrived for `--idle` seconds.
        case idle(seconds: Double)
        /// The app closed its connection (`--listen`).
        case closed
    }

    /// The file, or the address listened on.
    var path: String
    /// Whether it was `inspect --listen`.
    var listening = false
    var reason: Reason
    var actions: Int

    func lines(in style: OutputStyle) -> [String] {
        let why = switch reason {
        case .asked: ""
        case .idle(let seconds): listening ? ": nothing arrived for \(secondsText(seconds)) s" : ": it did not grow for \(secondsText(seconds)) s"
        case .closed: ": the app closed the connection"
        }
        return [(listening ? "stopped listening on \(path)" : "stopped following \(path)") + why + " (\(counted(actions, "new action")) read)"]
    }

    var json: Value {
        guard listening else { return ["stoppedFollowing": .string(path), "actions": .int(actions)] }
        return ["stoppedListening": .string(path), "actions": .int(actions), "closed": .bool(reason == .closed)]
    }
}

/// `inspect --listen [HOST:]PORT`: where the shell listens, what an app passes to connect (the
/// token among it, when one is needed), and how following goes on.
struct ListeningStarted: CommandReport {
    var host: String
    /// The port bound (the system's choice for port 0).
    var port: Int
    /// The token the app must send first, when one is needed.
    var token: String?
    /// Whether only this machine can connect.
    var isLoopback: Bool
    var idleSeconds: Double?

    var name: String { SessionSocket.endpointName(host: host, port: port) }

    func lines(in style: OutputStyle) -> [String] {
        let connectTo = isLoopback ? host : "THIS-MACHINE"
        var call = "Recorder(store: store, connectingTo: \"\(connectTo)\", port: \(port)"
        if let token { call += ", token: \"\(token)\"" }
        call += ")"
        var lines = ["listening on \(name) for one app: connect it with \(call)"]
        if let token {
            lines.append("the app must send the token \(token) first" + (isLoopback ? "" : " (the address is not loopback)")
                         + "; nothing is encrypted: across a network you do not trust, listen on loopback and use an SSH tunnel")
        }
        let until = idleSeconds.map { "until nothing arrives for \(secondsText($0)) s, the app disconnects, or Ctrl-C" }
            ?? "until the app disconnects or Ctrl-C"
        lines.append("listening on \(name): new actions appear as they arrive, \(until)")
        return lines
    }

    var json: Value {
        ["listening": .string(name), "host": .string(host), "port": .int(port), "loopback": .bool(isLoopback),
         "token": token.map(Value.string) ?? .null]
    }
}

/// `inspect --listen`: an app connected, and its session started.
struct AppConnected: CommandReport {
    var peer: String

    func lines(in style: OutputStyle) -> [String] { ["an app connected from \(peer)"] }
    var json: Value { ["connected": .string(peer)] }
}

/// `2`, or `0.5`: seconds as `--idle` takes them.
private func secondsText(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
}

// MARK: DevTools

/// `export devtools STORE FILE [--lifted]`: how many actions went to the file.
struct DevToolsExported: CommandReport {
    var store: String
    var path: String
    var actions: Int
    /// How many of them are skipped.
    var skipped: Int
    var lifted: Bool
    /// What the lifted state keeps that the default form, asked for, would have lost (`what
    /// is skipped`, `the current step #3`): the reason it was written instead.
    var keeps: String?

    func lines(in style: OutputStyle) -> [String] {
        ["exported \(counted(actions, "action")) of \(store)" + (skipped == 0 ? "" : " (\(skipped) skipped)") + " to \(path)"
            + (lifted ? " as a lifted state" : "") + (keeps.map { ", which keeps \($0) (the default form cannot)" } ?? "")]
    }

    var json: Value { ["store": .string(store), "file": .string(path), "actions": .int(actions), "lifted": .bool(lifted)] }
}

/// `export swift-test FILE ...`: the test written, and what it holds.
struct SwiftTestExported: CommandReport {
    var store: String
    var path: String
    /// The state the test starts from, and the last step it covers.
    var from: Int
    var to: Int
    /// How many actions it sends, and how many of the steps it covers were left out (skipped
    /// or failed, which changed nothing).
    var actions: Int
    var leftOut: Int
    /// How many `#expect` and `#require` it makes.
    var checks: Int

    func lines(in style: OutputStyle) -> [String] {
        ["exported steps #\(from + 1) to #\(to) of \(store) to \(path) as a Swift test: \(counted(actions, "action")), \(counted(checks, "check"))"
            + (leftOut == 0 ? "" : " (\(counted(leftOut, "skipped or failed step")) left out)")]
    }

    var json: Value {
        ["store": .string(store), "file": .string(path), "from": .int(from), "to": .int(to), "actions": .int(actions),
         "leftOut": .int(leftOut), "checks": .int(checks)]
    }
}

/// `import devtools FILE [STORE]`: the actions dispatched into the store, those that failed,
/// the skipped ones marked (and those that could not be), the current step, and what the
/// store's history held before.
struct DevToolsImported: CommandReport {
    var store: String
    var actions: Int
    var failed: Int
    /// The file's skipped actions, marked skipped.
    var skipped: [Int]
    /// The file's skipped actions that could not be marked (the store has no reducers).
    var unmarked: [Int]
    /// The file's current step, when it names one.
    var current: Int?
    /// The actions and other branches the store's history had, which the import replaced.
    var replaced: (actions: Int, branches: Int)
    /// Whether the store has reducers: without, no imported action changed its state.
    var hasReducers = true

    /// The warning for a store without reducers.
    private var noReducers: String? {
        guard !hasReducers, actions > 0 else { return nil }
        return "\(store) has no reducers, so no action changed its state; add reducers, then 'history recompute \(store)'"
    }

    func lines(in style: OutputStyle) -> [String] {
        var line = "imported \(counted(actions, "action")) into \(store)" + (failed > 0 ? " (\(failed) failed)" : "")
        if !skipped.isEmpty { line += ", \(skipped.count) skipped" }
        if let current, current != actions { line += ", at #\(current)" }
        if replaced.actions > 0 || replaced.branches > 0 {
            line += "; the \(Shell.replacedText(replaced)) it had before \(replaced.actions + replaced.branches == 1 ? "was" : "were") replaced"
        }
        let lines = [line] + (noReducers.map { ["warning: " + $0] } ?? [])
        guard !unmarked.isEmpty else { return lines }
        return lines + ["warning: \(store) has no reducers, so the file's skipped action\(unmarked.count == 1 ? "" : "s") "
                    + unmarked.map { "#\($0)" }.joined(separator: ", ") + " \(unmarked.count == 1 ? "is" : "are") not marked skipped; "
                    + "add its reducers, then 'skip \(store) N'"]
    }

    var json: Value {
        let json: Value = ["store": .string(store), "actions": .int(actions), "failed": .int(failed), "skipped": .array(skipped.map(Value.int)),
                           "current": .int(current ?? actions), "replaced": .int(replaced.actions), "replacedBranches": .int(replaced.branches)]
        let withUnmarked = unmarked.isEmpty ? json : json.adding("unmarked", .array(unmarked.map(Value.int)))
        return noReducers.map { withUnmarked.adding("warning", .string($0)) } ?? withUnmarked
    }
}
