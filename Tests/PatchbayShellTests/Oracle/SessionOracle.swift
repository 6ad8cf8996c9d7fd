import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayShell
import PatchbayTestSupport

/// The model-based oracle of recording: a session's three views of its stores must agree.
///
/// 1. the LIVE session: every store's state, history (index, action, changes, skipped and failed
///    flags, the current marker), branches, and its diff from the initial state;
/// 2. what `inspect FILE` rebuilds in a fresh shell from the recording so far;
/// 3. what `replay FILE --verify` reproduces in a fresh shell: it must report `verified`, and
///    then also show the live views (and the live virtual clock).
///
/// The commands run twice: in a shell that records, and in a twin that never records, whose
/// views are the live ones. So the checks do not add query commands to the recording, and a
/// command that prints anything else while recorded is a finding too.
struct SessionOracle {
    /// What a check found wrong, after which command.
    struct Failure: Error, CustomStringConvertible {
        /// The number of commands run (the check came after command `step`, 1-based).
        var step: Int
        /// What kind of disagreement this is, without the numbers: failures of one kind are
        /// one defect, most likely.
        var kind: String
        var detail: String

        var description: String { "after command \(step): \(kind)\n\(detail)" }
    }

    /// Whether to check after every command, or only before each `record stop` and at the end.
    var checkEveryCommand: Bool
    /// Changes the recording before each check: the oracle's own test damages files with it.
    var tamper: ((String) -> Void)?

    /// Runs `commands` (with `$DIR` standing for a fresh directory) and returns the first
    /// disagreement, if any.
    func run(_ commands: [String]) -> Failure? {
        let directory = TemporaryDirectory()
        // Relative paths (the DevTools file) name files in the directory, as a replay with
        // --allow-files finds them beside the recording.
        let recorded = Shell(options: ShellOptions(json: true, directory: directory.path))
        let live = Shell(options: ShellOptions(json: true, directory: directory.path))
        defer { recorded.finish() }
        var file: String?
        var commandsInFile = 0
        for (index, template) in commands.enumerated() {
            let command = template.replacingOccurrences(of: StoreSessionGenerator.directory, with: directory.path)
            let step = index + 1
            if command == "record stop", let recording = file {
                if let failure = check(recording, commandsInFile: commandsInFile, recorded: recorded, live: live, step: step - 1, directory: directory.path) {
                    return failure
                }
                file = nil
            }
            let outcome = recorded.execute(command)
            if command.hasPrefix("record ") {
                if command != "record stop", outcome.status == .success { file = String(command.dropFirst("record ".count)); commandsInFile = 0 }
                continue
            }
            let twin = live.execute(command)
            if outcome != twin {
                return Failure(step: step, kind: "a recorded command printed something else than unrecorded",
                               detail: "recorded:   \(Self.text(outcome))\nunrecorded: \(Self.text(twin))")
            }
            // A DevTools export is recorded as a note, not a step of a replay; an import as the
            // commands it ran (or as a note, when it failed before it ran any): a dispatch per
            // action, a skip per skipped action (marked or not) and a jump when the file is not
            // at its last step (a lifted export, which keeps them).
            if file != nil, !command.hasPrefix("export devtools") {
                if command.hasPrefix("import devtools") {
                    if let result = Self.result(outcome), case .int(let actions)? = result["actions"] {
                        commandsInFile += actions
                        if case .array(let skipped)? = result["skipped"] { commandsInFile += skipped.count }
                        if case .array(let unmarked)? = result["unmarked"] { commandsInFile += unmarked.count }
                        if case .int(let current)? = result["current"], current != actions { commandsInFile += 1 }
                    }
                } else {
                    commandsInFile += 1
                }
            }
            if let recording = file, checkEveryCommand || step == commands.count,
               let failure = check(recording, commandsInFile: commandsInFile, recorded: recorded, live: live, step: step, directory: directory.path) {
                return failure
            }
        }
        return nil
    }

    private func check(_ file: String, commandsInFile: Int, recorded: Shell, live: Shell, step: Int, directory: String) -> Failure? {
        func failure(_ kind: String, _ detail: String) -> Failure {
            Failure(step: step, kind: kind, detail: detail.replacingOccurrences(of: directory, with: StoreSessionGenerator.directory))
        }
        tamper?(file)
        let liveView = View(of: live)

        let inspector = Shell.scratch(ShellOptions(json: true))
        let inspected = inspector.execute("inspect \(file)")
        if inspected.status != .success {
            return failure("inspect failed: " + Self.kind(of: Self.errorMessage(inspected)), Self.text(inspected))
        }
        if let difference = View(of: inspector).difference(from: liveView, comparingClock: false) {
            return failure("inspect differs from live: \(difference.query)", difference.detail(actualName: "inspect"))
        }

        // A recording with no command yet has nothing to replay.
        guard commandsInFile > 0 else { return nil }
        let replayer = Shell.scratch(ShellOptions(json: true))
        let replayed = replayer.execute("replay \(file) --verify --allow-files")
        guard replayed.status == .success, Self.result(replayed)?["verified"] == .bool(true) else {
            return failure("replay --verify failed: " + Self.kind(of: Self.errorMessage(replayed)), Self.text(replayed))
        }
        if Self.result(replayed)?["steps"] != .int(commandsInFile) {
            return failure("replay --verify ran another number of steps than were recorded",
                           "recorded \(commandsInFile) commands\n" + Self.text(replayed))
        }
        if let difference = View(of: replayer).difference(from: liveView, comparingClock: true) {
            return failure("replay differs from live: \(difference.query)", difference.detail(actualName: "replay"))
        }
        return nil
    }

    /// Every line a command printed.
    static func text(_ outcome: CommandOutcome) -> String {
        outcome.lines.map(\.text).joined(separator: "\n")
    }

    /// The `result` of a command's JSON line.
    static func result(_ outcome: CommandOutcome) -> Value? {
        for line in outcome.lines {
            if case .object(let members)? = try? JSONReader.parse(line.text), let result = members["result"] { return result }
        }
        return nil
    }

    /// The message of a command's JSON error line.
    static func errorMessage(_ outcome: CommandOutcome) -> String {
        for line in outcome.lines {
            if case .object(let members)? = try? JSONReader.parse(line.text), case .object(let error)? = members["error"],
               case .string(let message)? = error["message"] {
                return message
            }
        }
        return text(outcome)
    }

    /// A message without what changes from one session to the next (numbers, paths, the
    /// quoted values), so that one defect gives one kind.
    static func kind(of message: String) -> String {
        var text = message
        if let path = text.range(of: #"/[^ :']*\.jsonl"#, options: .regularExpression) { text.replaceSubrange(path, with: "FILE") }
        text = text.replacingOccurrences(of: #"\(line [0-9]+: [^)]*\)"#, with: "(line N: COMMAND)", options: .regularExpression)
        // Quoted errors and names, lists in parentheses.
        text = text.replacingOccurrences(of: #"the error '.*', got"#, with: "the error 'X', got", options: .regularExpression)
        text = text.replacingOccurrences(of: #"'[^' ]*'"#, with: "'X'", options: .regularExpression)
        text = text.replacingOccurrences(of: #" \([a-z][^)]*\)"#, with: "", options: .regularExpression)
        text = text.replacingOccurrences(of: "[0-9]+", with: "N", options: .regularExpression)
        return String(text.prefix(140))
    }
}

extension SessionOracle {
    /// A session's stores as the query commands print them, with the virtual clock.
    struct View {
        /// Each query and its JSON line, in order: `nodes`'s store names, then per store `state`,
        /// `history`, `branch`, and the `diff` from the initial state to the current one; then
        /// the router's history.
        var answers: [(query: String, answer: String)] = []
        var clock: String

        init(of shell: Shell) {
            func ask(_ query: String) -> String { SessionOracle.text(shell.execute(query)) }
            var stores: [String] = []
            if case .array(let nodes)? = SessionOracle.result(shell.execute("nodes")) {
                for case .object(let node) in nodes where node["kind"] == .string("store") {
                    if case .string(let name)? = node["name"] { stores.append(name) }
                }
            }
            stores.sort()
            answers.append(("stores", stores.joined(separator: ", ")))
            for store in stores {
                answers.append(("state \(store)", ask("state \(store)")))
                let history = shell.execute("history \(store)")
                answers.append(("history \(store)", SessionOracle.text(history)))
                answers.append(("branch \(store)", ask("branch \(store)")))
                var current = 0
                if case .array(let entries)? = SessionOracle.result(history) {
                    for case .object(let entry) in entries where entry["current"] == .bool(true) {
                        if case .int(let index)? = entry["index"] { current = index }
                    }
                }
                answers.append(("diff \(store) 0 \(current)", ask("diff \(store) 0 \(current)")))
            }
            answers.append(("history router", ask("history router")))
            clock = ask("clock")
        }

        struct Difference {
            var query: String
            var expected: String
            var actual: String

            func detail(actualName: String) -> String {
                "query: \(query)\nlive:    \(expected)\n\(actualName): \(String(repeating: " ", count: max(0, 7 - actualName.count)))\(actual)"
            }
        }

        /// The first query whose answer differs from `live`'s.
        func difference(from live: View, comparingClock: Bool) -> Difference? {
            for (index, expected) in live.answers.enumerated() {
                let actual: (query: String, answer: String) = index < answers.count ? answers[index] : ("", "(nothing)")
                if actual.query != expected.query || actual.answer != expected.answer {
                    let query = expected.query.split(separator: " ").first.map(String.init) ?? expected.query
                    return Difference(query: query, expected: "\(expected.query): \(expected.answer)",
                                      actual: "\(actual.query): \(actual.answer)")
                }
            }
            if answers.count > live.answers.count {
                return Difference(query: "stores", expected: "(nothing)", actual: "\(answers[live.answers.count])")
            }
            if comparingClock, clock != live.clock {
                return Difference(query: "clock", expected: live.clock, actual: clock)
            }
            return nil
        }
    }
}

extension SessionOracle {
    /// The shortest sequence found that still fails with the same kind of failure: delta
    /// debugging (drop ever smaller chunks of commands while it still fails), then single
    /// commands until none can go. Checks run after every command while shrinking.
    func shrink(_ commands: [String], failing failure: Failure) -> (commands: [String], failure: Failure) {
        var oracle = self
        oracle.checkEveryCommand = true
        var best = (commands: Array(commands.prefix(failure.step)), failure: failure)
        func stillFails(_ candidate: [String]) -> Bool {
            guard let found = oracle.run(candidate), found.kind == failure.kind else { return false }
            best = (Array(candidate.prefix(found.step)), found)
            return true
        }
        guard stillFails(best.commands) else { return (commands, failure) }
        var chunks = 2
        while best.commands.count >= 2 {
            let current = best.commands
            let size = max(1, current.count / chunks)
            var reduced = false
            for start in stride(from: 0, to: current.count, by: size) {
                var candidate = current
                candidate.removeSubrange(start..<min(current.count, start + size))
                if stillFails(candidate) {
                    chunks = max(chunks - 1, 2)
                    reduced = true
                    break
                }
            }
            if !reduced {
                if size == 1 { break }
                chunks = min(current.count, chunks * 2)
            }
        }
        return best
    }

    /// A failure as a script to paste into `patchbay`, with how to see the disagreement.
    static func script(_ commands: [String], failure: Failure, seed: UInt64, sequence: Int) -> String {
        let directory = "/tmp/patchbay-oracle"
        var lines = [
            "# SessionOracle: \(failure.kind)",
            "# seed \(seed) (PATCHBAY_SEED=\(seed)), sequence \(sequence); check after command \(failure.step)",
            "# mkdir -p \(directory), paste into patchbay, then compare with 'inspect FILE' / 'replay FILE --verify' in a new patchbay",
        ]
        lines += commands.map { $0.replacingOccurrences(of: StoreSessionGenerator.directory, with: directory) }
        lines += failure.detail.replacingOccurrences(of: StoreSessionGenerator.directory, with: directory)
            .split(separator: "\n", omittingEmptySubsequences: false).map { "# " + $0 }
        return lines.joined(separator: "\n")
    }
}
