import PatchbayCore
import PatchbayRecorder

/// A replay under way (`replay FILE`): the recorded commands, each with the effects the
/// recording saw, and how far it has run. A replay paused by `--step`, `--until` or a break
/// goes on with `step` and `continue`.
struct ReplayRun {
    /// One recorded command and what it did.
    struct Step {
        var text: String
        /// The file's line that holds the command.
        var line: Int
        /// The effects recorded after the command, before the next one.
        var expected: [SessionEvent]
    }

    let path: String
    let steps: [Step]
    let verify: Bool
    /// The index in `steps` of the next command to run.
    var next = 0
    /// Pause after this step number (1-based), if set.
    var until: Int?
    /// What the replayed commands do, when verifying.
    let capture: CapturedEvents?

    /// The steps of a loaded recording: its commands with their effects (the effects before
    /// the first command belong to no step and are not replayed).
    static func steps(of load: SessionLoad) -> [Step] {
        var steps: [Step] = []
        for recorded in load.events {
            if case .command(let text) = recorded.event {
                steps.append(Step(text: text, line: recorded.line, expected: []))
            } else if !steps.isEmpty {
                steps[steps.count - 1].expected.append(recorded.event)
            }
        }
        return steps
    }

    var isFinished: Bool { next >= steps.count }
}

/// Events a recorder gathers in memory, to compare with a recording.
final class CapturedEvents {
    var events: [SessionEvent] = []
    var recorder: SessionRecorder?

    /// Takes the events gathered so far.
    func take() -> [SessionEvent] {
        var taken: [SessionEvent] = []
        swap(&taken, &events)
        taken.removeAll { if case .command = $0 { true } else { false } }
        return taken
    }
}

/// Where a replay first did something else than the recording.
struct ReplayDivergence {
    var step: Int
    var line: Int
    var command: String
    var expected: SessionEvent?
    var actual: SessionEvent?

    /// The first difference between what a step was recorded doing and what it did now.
    static func first(expected: [SessionEvent], actual: [SessionEvent], step: Int, of run: ReplayRun.Step) -> ReplayDivergence? {
        for position in 0..<max(expected.count, actual.count) {
            let want = position < expected.count ? expected[position] : nil
            let got = position < actual.count ? actual[position] : nil
            if want != got { return ReplayDivergence(step: step, line: run.line, command: run.text, expected: want, actual: got) }
        }
        return nil
    }

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
