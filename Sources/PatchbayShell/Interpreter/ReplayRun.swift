import PatchbayCore
import PatchbayRecorder

/// A replay under way (`replay FILE`): the recorded commands, each with the effects the
/// recording saw, and how far it has run. A replay paused by `--step`, `--until` or a break
/// goes on with `step` and `continue`.
struct ReplayRun {
    let path: String
    /// The recorded commands with their effects (the effects before the first command belong
    /// to no step and are not replayed); only those of the file's start while `rest` is read.
    private(set) var script: SessionScript
    /// The rest of the file, read on a thread of its own while the first steps run.
    private var rest: SessionScriptRest?
    let verify: Bool
    /// Whether the replayed commands may read and write files beside the recording.
    let allowFiles: Bool
    /// The index in the script's commands of the next command to run.
    var next = 0
    /// Pause after this step number (1-based), if set.
    var until: Int?
    /// The recorder that hears the replayed commands, when verifying: each step's events are
    /// compared with the recording's.
    var recorder: SessionRecorder?

    init(path: String, script: SessionScript, rest: SessionScriptRest?, verify: Bool, until: Int?, allowFiles: Bool) {
        self.path = path
        self.script = script
        self.rest = rest
        self.verify = verify
        self.until = until
        self.allowFiles = allowFiles
    }

    /// The directory of the recording, where `--allow-files` lets replayed commands work.
    var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The effects the recording holds for step `index` (0-based).
    func recordedEffects(ofStep index: Int) -> [SessionEvent] {
        recordedEffects(script.effects(ofCommand: index))
    }

    /// The recorded effects at `range` of the script's effects.
    func recordedEffects(_ range: Range<Int>) -> [SessionEvent] {
        range.compactMap { script.event(ofEffect: $0) }
    }

    /// How many steps the replay has: one per recorded command (once the file is read; see
    /// `finishReading()`).
    var stepCount: Int { script.commands.count }

    var isFinished: Bool { next >= stepCount }

    /// Makes sure the next step is known with all its effects: unless the rest of the file is
    /// read, the last command read so far may have more of them there, and be the last only
    /// so far.
    mutating func readAhead() {
        if rest != nil, next + 1 >= script.commands.count { finishReading() }
    }

    /// Waits for the rest of the file and adds it to the script: every step is known, and the
    /// damage, if any.
    mutating func finishReading() {
        guard let rest else { return }
        self.rest = nil
        rest.add(to: &script)
    }
}

/// Where a replay first did something else than the recording.
struct ReplayDivergence {
    var step: Int
    var line: Int
    var command: String
    var expected: SessionEvent?
    var actual: SessionEvent?

    /// One line naming the step and the command.
    var summary: String {
        let place = "replay diverged at step \(step) (line \(line): \(Shell.causeText(command)))"
        if let expected, let actual, expected.kind == actual.kind {
            return "\(place): \(Self.describe(expected)) differs from the recording (recorded → now, above)"
        }
        return "\(place): expected \(Self.describe(expected)), got \(Self.describe(actual))"
    }

    /// Expected against actual, path by path.
    var diffLines: [String] {
        guard let expected, let actual, expected.kind == actual.kind else {
            return ["  expected: \(expected.map { $0.line(seq: 0) } ?? "nothing")",
                    "  actual:   \(actual.map { $0.line(seq: 0) } ?? "nothing")"]
        }
        let want = (try? JSONReader.parse(expected.line(seq: 0))) ?? .null
        let got = (try? JSONReader.parse(actual.line(seq: 0))) ?? .null
        return want.changes(to: got).map { "  " + Shell.describeChange($0) }
    }

    static func describe(_ event: SessionEvent?) -> String {
        guard let event else { return "nothing more" }
        switch event {
        case .action(let action): return "action #\(action.index) of \(action.store)"
        case .store(let name, _): return "store \(name)"
        case .checkpoint(let store, let index, _): return "checkpoint #\(index) of \(store)"
        case .publish(let port, _): return "a delivery on \(port)"
        case .route(let route): return "route \(route.url)"
        case .error(_, let message): return "the error '\(Printable.escaped(message, limit: 60))'"
        default: return "a \(event.kind) line"
        }
    }
}
