@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory

/// A replay under way (`replay FILE`): the recorded steps (commands with the effects the
/// recording saw), read from the file as the replay goes, and how far it has run. A replay
/// paused by `--step`, `--until` or a break goes on with `step` and `continue`.
struct ReplayRun {
    /// The file, as the user named it.
    let path: String
    /// The file read (`path` resolved).
    let file: String
    /// The steps not yet read.
    private let steps: SessionStepReader
    /// The next step to run, read ahead; `nil` once the file has no more (or is damaged).
    private(set) var upcoming: RecordedCommand?
    /// The damage that ended the file early, once reading met it.
    private(set) var damage: SessionError?
    /// The step `take()` took last: the one running.
    private(set) var taken: RecordedCommand?
    let verify: Bool
    /// Whether the replayed commands may read and write files beside the recording.
    let allowFiles: Bool
    /// How many steps have run. Setup lines are not steps: they run as part of the step
    /// that follows them.
    var next = 0
    /// Pause after this step number (1-based), if set.
    var until: Int?
    /// The recorder that hears the replayed commands, when verifying: each step's events are
    /// compared with the recording's.
    var recorder: SessionRecorder?
    /// How many of the commands run so far failed (setup lines included).
    var failed = 0
    /// How many of them failed where the recording has them succeed, and the line of the
    /// first: a replay that ends with some did not do what the recording did.
    var failedAnew = 0
    var firstFailedAnew: Int?
    /// Without `--verify`: how many recorded states were compared with the replay's, how many
    /// differ, and where the first that does is.
    var differingStates = DifferingStates()
    /// The number of steps in the file, once counted.
    private var stepCount: Int?
    /// In an app's recording: each store's recorded states, which a verifying replay checks
    /// the stores' states against.
    var recordedStates: [String: RecordingVerifier] = [:]

    init(path: String, file: String, steps: SessionStepReader, verify: Bool, until: Int?, allowFiles: Bool) {
        self.path = path
        self.file = file
        self.steps = steps
        self.verify = verify
        self.until = until
        self.allowFiles = allowFiles
        readAhead()
        startRecordedStates(steps.prelude)
    }

    /// Follows the store lines among `events` (an app's recording's prelude or setup step):
    /// each starts its store's recorded states.
    mutating func startRecordedStates(_ events: [RecordedEvent]) {
        guard isAppRecording else { return }
        for recorded in events {
            if case .store(let name, let state, _) = recorded.event { recordedStates[name] = RecordingVerifier(store: name, state: state) }
        }
    }

    /// The events before the file's first command: the stores and histories a recording that
    /// started in the middle of a session begins with.
    var prelude: [RecordedEvent] { steps.prelude }

    /// Whether the file is an app's recording, whose steps are its actions.
    var isAppRecording: Bool { steps.isAppRecording }

    /// The directory of the recording, where `--allow-files` lets replayed commands work.
    var directory: String {
        guard let slash = file.lastIndex(of: "/") else { return "." }
        return slash == file.startIndex ? "/" : String(file[..<slash])
    }

    /// Takes the upcoming step (which the caller runs) and reads the one after it.
    mutating func take() {
        if upcoming?.isSetup == false { next += 1 }
        taken = upcoming
        readAhead()
    }

    private mutating func readAhead() {
        do {
            upcoming = try steps.next()
        } catch {
            upcoming = nil
            damage = error
        }
    }

    /// How many steps the file has (up to any damage; setup lines are not steps): counted,
    /// the first time it is asked, by reading the file through once more.
    mutating func totalSteps() -> Int {
        if let stepCount { return stepCount }
        var count = 0
        if let counter = try? SessionStepReader(path: file, regularOnly: true) {
            while let step = try? counter.next() {
                if !step.isSetup { count += 1 }
            }
        }
        stepCount = count
        return count
    }
}

/// The recorded states a replay without `--verify` reached otherwise.
struct DifferingStates {
    /// The states compared: one per recorded action that succeeded.
    var compared = 0
    /// Those that differ.
    var count = 0
    /// Where the first that differs is: `after action #2 of app (line 8: dispatch Add {by: 2})`.
    var first: String?
}

/// Where a replay first did something else than the recording.
struct ReplayDivergence {
    var step: Int
    var line: Int
    var command: String
    var expected: SessionEvent?
    var actual: SessionEvent?
    /// The state the recording has after the step and the one the replay reached, when the
    /// divergence is in a store's state: the diff shown is theirs.
    var states: (expected: Value, actual: Value)?

    /// One line naming the step and the command; `diffWhere` says where the diff is.
    func summary(diffWhere: String = "above") -> String {
        let place = "replay diverged at step \(step) (line \(line): \(Shell.causeText(command)))"
        if states != nil, let expected {
            return "\(place): the state after \(Self.describe(expected)) differs from the recording (recorded → now, \(diffWhere))"
        }
        if expected == nil, case .error(_, let message)? = actual {
            return "\(place): it failed where the recording has it succeed: \(Printable.escaped(message, limit: 120))"
        }
        if let expected, let actual, expected.kind == actual.kind {
            return "\(place): \(Self.describe(expected)) differs from the recording (recorded → now, \(diffWhere))"
        }
        return "\(place): expected \(Self.describe(expected)), got \(Self.describe(actual))"
    }

    /// The divergence for `--json`: `{step, line, command, expected, actual, diff}`, the events
    /// as their session lines hold them (without `seq`; `null` for none), and the diff as
    /// `[{path, op, old, new}]` (of the states, when they differ).
    var json: Value {
        func object(_ event: SessionEvent?) -> Value {
            guard let event, case .object(var members)? = try? JSONReader.parse(event.line(seq: 0), maxDepth: SessionEvent.maxLineDepth) else { return .null }
            members["seq"] = nil
            return .object(members)
        }
        let (expectedJSON, actualJSON) = (object(expected), object(actual))
        let changes: [ValueChange] = if let states { states.expected.changes(to: states.actual) }
            else if let expected, let actual, expected.kind == actual.kind { expectedJSON.changes(to: actualJSON) }
            else { [] }
        return ["step": .int(step), "line": .int(line), "command": .string(command), "expected": expectedJSON, "actual": actualJSON,
                "diff": changes.json]
    }

    static func describe(_ event: SessionEvent?) -> String {
        guard let event else { return "nothing more" }
        switch event {
        case .action(let action, _): return "action #\(action.index) of \(action.store)"
        case .store(let name, _, _): return "store \(name)"
        case .checkpoint(let store, let index, _): return "checkpoint #\(index) of \(store)"
        case .publish(let port, _): return "a delivery on \(port)"
        case .route(let route): return "route \(route.url)"
        case .error(_, let message): return "the error '\(Printable.escaped(message, limit: 60))'"
        default: return "a \(event.kind) line"
        }
    }
}
