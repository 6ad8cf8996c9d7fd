#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory
@_spi(Shell) import PatchbayShell

/// Recording, inspecting and replaying sessions (PatchbayHost.docc/RecordingInTheShell.md), on the
/// workload of the History group: a store `app` whose state has 10,000 keys
/// `{k0: 0, ..., k9999: 0}` and 1,000,000 actions `{type: "Set", key: "kN", value: V}` (N from
/// SplitMix64 seeded 0x5EED, V the action's index), each replacing one key, reduced by
/// `reducer app on Set : state[action.key] = action.value`.
/// - R-REC: `dispatch app Set {key: "kN", value: V}` commands run by a `Shell` with `record FILE`
///   on, against the same commands with recording off (each side in a fresh shell); target: at
///   most 2x.
///   R-REC-G, reported without a target: the same through the library, `Graph.dispatch` with a
///   `SessionRecorder` writing through a `SessionWriter`, against `Graph.dispatch` alone. A bare
///   library dispatch keeps no history and parses no command, so encoding the action line alone
///   is most of its time again: the ratio says what a line costs, not what the shell pays.
/// - R-INS: `inspect FILE` of the file a `SessionRecorder` wrote for the 1,000,000 actions
///   (written once per row, untimed): reading, parsing and rebuilding the history, end to end;
///   target: under 3 s.
/// - R-INS-MEM: the peak resident size that `inspect FILE` adds to a process that runs only
///   it (this binary, started again with `--inspect-child FILE`; the peak after the inspect less
///   the resident size before it, from /proc/self/status), as a multiple of the file's size;
///   target: under 2x. `inspect` streams the file's events into
///   the rebuild, so the file is never held whole.
/// - R-FOL: `inspect FILE --follow` of an app appending 20,000 actions at 10,000 per second
///   (see `SessionBenchmarks+Follow.swift`); target: the follower sustains at least that rate.
/// - R-VER: `replay FILE --verify` of a `record` of the 1,000,000 `dispatch` commands, against
///   plain `replay FILE` and against running the same commands directly. Plain replay prints
///   every command's output, a verification only its outcome: each is measured as it is.
///   Target: at least 100,000 actions per second, and at most 1.5x a plain replay.
///
/// Every trial checks the final state (the sum of its values) and, where it applies, that the
/// recording kept going and the replay or inspection saw every action. The files go to /tmp and
/// are removed at the end of their row. There is no peer: no library replays a session with
/// verification (ReSwift-Recorder rewrites its whole JSON file on every dispatch).
/// Quick mode runs 3,000 actions on 1,000 keys (a checkpoint every 1,000 actions, as at the full
/// size every 10,000) and checks results only.
struct SessionBenchmarks: BenchmarkGroup {
    let name = "Sessions"

    func rows(for mode: Mode) -> [BenchmarkRow] {
        let fixture = mode == .quick
            ? SessionFixture(keys: 1_000, actions: 3_000) : SessionFixture(keys: 10_000, actions: 1_000_000)
        let n = fixture.workload.actions
        let keys = fixture.workload.keys
        return [
            BenchmarkRow(
                id: "R-REC", title: "shell: dispatch command with record on, \(keys) keys, \(n) actions",
                ours: Self.shellDispatch(fixture, recording: true),
                reference: Reference(kind: .baseline, name: "same, recording off", workload: Self.shellDispatch(fixture, recording: false)),
                target: .ratioAtMost(2),
                notes: { ours, off, _ in
                    ["shell: \(Self.micro(ours)) µs per dispatch with record on, \(Self.micro(off ?? .nan)) µs off; "
                        + "recording adds \(Self.micro(ours - (off ?? .nan))) µs per dispatch; file \(fixture.sizeText(.shellRecording))"]
                },
                cleanUp: { fixture.release() }
            ),
            BenchmarkRow(
                id: "R-REC-G", title: "library: Graph.dispatch + SessionRecorder/SessionWriter",
                ours: Self.graphDispatch(fixture, recording: true),
                reference: Reference(kind: .baseline, name: "Graph.dispatch, no recorder", workload: Self.graphDispatch(fixture, recording: false)),
                target: .reported,
                notes: { ours, off, _ in
                    ["library: \(Self.micro(ours)) µs per dispatch with a recorder, \(Self.micro(off ?? .nan)) µs without; "
                        + "recording adds \(Self.micro(ours - (off ?? .nan))) µs per dispatch; "
                        + "file \(fixture.sizeText(.libraryRecording))"]
                },
                cleanUp: { fixture.release() }
            ),
            BenchmarkRow(
                id: "R-INS", title: "inspect FILE of \(n) actions: read + parse + rebuild, per action",
                ours: Self.inspect(fixture),
                reference: nil,
                target: .secondsBelow(3, operations: n),
                notes: { ours, _, _ in
                    ["inspect: \(Self.seconds(ours, n)) s for \(n) actions (\(Self.micro(ours)) µs per action); "
                        + "file \(fixture.sizeText(.libraryRecording))"]
                },
                cleanUp: { fixture.release() }
            ),
            BenchmarkRow(
                id: "R-Q-BLAME", title: "after inspect of \(n) actions: blame app k7, per query",
                ours: Self.query("blame app k7", fixture), target: .secondsBelow(1, operations: 1)),
            BenchmarkRow(
                id: "R-Q-TYPE", title: "after inspect of \(n) actions: history app --type Set --last 5, per query",
                ours: Self.query("history app --type Set --last 5", fixture), target: .secondsBelow(1, operations: 1)),
            BenchmarkRow(
                id: "R-Q-FIND", title: "after inspect of \(n) actions: find app --last 5 state.k7 > 0, per query",
                ours: Self.query("find app --last 5 state.k7 > 0", fixture), target: .secondsBelow(1, operations: 1)),
            BenchmarkRow(
                id: "R-INS-MEM", title: "inspect FILE of \(n) actions in a process of its own: peak RSS it adds / file size",
                ours: Self.inspectMemory(fixture),
                reference: nil,
                // A file of a few hundred kilobytes is smaller than the memory any run allocates: the
                // bar is for the full size.
                target: mode == .quick ? .reported : .factorBelow(2),
                notes: { ours, _, _ in
                    ["inspect: peak resident size \(formatted(ours, digits: 2))x the file's size (file \(fixture.sizeText(.libraryRecording)))"]
                },
                cleanUp: { fixture.release() }
            ),
            Self.followRow(actions: mode == .quick ? 2_000 : 20_000),
            BenchmarkRow(
                id: "R-APP", title: "record 1,000 appends to an array of \(Self.largeArray(mode)) items, per action",
                ours: Self.recordAppends(to: Self.largeArray(mode)),
                reference: Reference(kind: .baseline, name: "the same to an array of 1,000 items", workload: Self.recordAppends(to: 1_000)),
                target: .ratioAtMost(1.5),
                notes: { ours, small, _ in
                    ["appends: \(Self.micro(ours)) µs per recorded append at \(Self.largeArray(mode)) items, \(Self.micro(small ?? .nan)) µs at 1,000"]
                },
                cleanUp: { fixture.release() }
            ),
            BenchmarkRow(
                id: "R-VER", title: "replay FILE --verify of \(n) dispatch commands, per action",
                ours: Self.replay(fixture, verify: true),
                reference: Reference(kind: .baseline, name: "replay FILE (no --verify)", workload: Self.replay(fixture, verify: false)),
                target: .all([.perSecondAtLeast(100_000), .ratioAtMost(1.5)]),
                secondReference: Reference(kind: .baseline, name: "the commands run directly", workload: Self.shellDispatch(fixture, recording: false)),
                notes: { ours, plain, direct in
                    ["replay --verify: \(Self.rate(ours)) actions/s (\(Self.seconds(ours, n)) s); replay: \(Self.rate(plain ?? .nan)) actions/s "
                        + "(\(Self.seconds(plain ?? .nan, n)) s); commands run directly: \(Self.rate(direct ?? .nan)) actions/s "
                        + "(\(Self.seconds(direct ?? .nan, n)) s); file \(fixture.sizeText(.shellRecording))"]
                },
                cleanUp: { fixture.release() }
            ),
        ]
    }

    static func micro(_ nanoseconds: Double) -> String { formatted(nanoseconds / 1_000, digits: 2) }
    static func seconds(_ nanosecondsPerAction: Double, _ actions: Int) -> String {
        formatted(nanosecondsPerAction * Double(actions) / 1e9, digits: 2)
    }
    static func rate(_ nanosecondsPerAction: Double) -> String { formatted(1e9 / nanosecondsPerAction, digits: 0) }

    // MARK: R-REC

    /// A fresh shell with the store and its reducer (and, `recording`, `record FILE` before
    /// them) runs the dispatch commands; the trial checks that every one succeeded, the final
    /// state, and that the recording went on to the end.
    static func shellDispatch(_ fixture: SessionFixture, recording: Bool) -> Workload {
        Workload(operations: fixture.workload.actions) {
            let commands = fixture.dispatchCommands
            let shell = Shell()
            if recording { try SessionFixture.run("record \(fixture.path(.shellRecording)) --force", in: shell) }
            try SessionFixture.run(fixture.storeCommand, in: shell)
            try SessionFixture.run(SessionFixture.reducerCommand, in: shell)
            return Trial(expectedChecksum: fixture.finalSum) {
                var failures = 0
                for command in commands where shell.execute(command).status != .success { failures += 1 }
                if recording {
                    // The commands, the store line and the actions at least; no error stopped it.
                    let status = try SessionFixture.output("record", in: shell)
                    shell.finish()
                    guard let events = SessionFixture.eventCount(status), events >= 2 * commands.count + 3,
                          !status.contains("error")
                    else { throw CorrectnessFailure(description: "recording status: \(status)") }
                }
                guard failures == 0 else { throw CorrectnessFailure(description: "\(failures) dispatch commands failed") }
                return try SessionFixture.stateSum(shell)
            }
        }
    }

    /// The library: `Graph.dispatch` of the prepared actions, with a `SessionRecorder` writing
    /// through a `SessionWriter` when `recording`.
    static func graphDispatch(_ fixture: SessionFixture, recording: Bool) -> Workload {
        Workload(operations: fixture.workload.actions) {
            let actions = fixture.actions
            let graph = Graph()
            var file: (recorder: SessionRecorder, writer: SessionWriter)?
            if recording {
                let writer = try SessionWriter(path: fixture.path(.libraryRecording), replacing: true)
                file = (SessionRecorder(graph: graph), writer)
            }
            try graph.createStore("app", state: fixture.workload.initial)
            try graph.addReducer(to: "app", on: "Set", body: StatementBlock(SessionFixture.reducerBody))
            return Trial(expectedChecksum: fixture.finalSum) {
                var steps = 0
                for (index, action) in actions.enumerated() {
                    if try graph.dispatch("app", action) != nil { steps += 1 }
                    if index & 1023 == 1023 {
                        _ = graph.takeEvents()
                        if let file { try file.writer.write(file.recorder.take()) }
                    }
                }
                _ = graph.takeEvents()
                if let file {
                    try file.writer.write(file.recorder.take())
                    file.writer.close()
                    guard file.writer.lastSeq >= actions.count + 1 else {
                        throw CorrectnessFailure(description: "recorder: \(file.writer.lastSeq) events")
                    }
                }
                guard steps == actions.count else { throw CorrectnessFailure(description: "\(steps) steps for \(actions.count) actions") }
                return SessionFixture.sum(try graph.storeState("app"))
            }
        }
    }

    // MARK: R-INS

    /// `inspect FILE` in a fresh shell, end to end; the trial checks the action count it
    /// reports and the final state.
    static func inspect(_ fixture: SessionFixture) -> Workload {
        Workload(operations: fixture.workload.actions) {
            let path = try fixture.libraryRecording()
            let shell = Shell()
            return Trial(expectedChecksum: fixture.finalSum) {
                let outcome = shell.execute("inspect \(path)")
                let text = outcome.lines.map(\.text).joined(separator: "\n")
                guard outcome.status == .success, text.contains("app (\(fixture.workload.actions) actions)"), !text.contains("warning") else {
                    throw CorrectnessFailure(description: "inspect: \(text.prefix(300))")
                }
                return try SessionFixture.stateSum(shell)
            }
        }
    }

    // MARK: R-Q

    /// One query over a history `inspect` rebuilt (untimed) from the library recording.
    static func query(_ command: String, _ fixture: SessionFixture) -> Workload {
        Workload(operations: 1) {
            let path = try fixture.libraryRecording()
            let shell = Shell()
            guard shell.execute("inspect \(path)").status == .success else { throw CorrectnessFailure(description: "inspect \(path) failed") }
            return Trial(expectedChecksum: 1) {
                let outcome = shell.execute(command)
                guard outcome.status == .success else {
                    throw CorrectnessFailure(description: "\(command): \(outcome.lines.map(\.text).joined(separator: " ").prefix(300))")
                }
                return 1
            }
        }
    }

    // MARK: R-APP

    /// The array R-APP appends to: 100,000 items (10,000 in quick mode).
    static func largeArray(_ mode: Mode) -> Int { mode == .quick ? 10_000 : 100_000 }

    /// 1,000 appends recorded (library recorder and writer) to a store whose array already holds
    /// `items` items, appended untimed before the trial.
    static func recordAppends(to items: Int) -> Workload {
        Workload(operations: 1_000) {
            let graph = Graph()
            try graph.createStore("app", state: ["items": []])
            try graph.addReducer(to: "app", on: "Add", body: StatementBlock("state.items = append(state.items, action.v)"))
            for item in 0..<items { _ = try graph.dispatch("app", ["type": "Add", "v": .int(item)]) }
            _ = graph.takeEvents()
            let path = "/tmp/patchbay-benchmarks-\(getpid())-appends.jsonl"
            let writer = try SessionWriter(path: path, replacing: true)
            let recorder = SessionRecorder(graph: graph)
            return Trial(expectedChecksum: items + 1_000, run: {
                for item in 0..<1_000 {
                    _ = try graph.dispatch("app", ["type": "Add", "v": .int(item)])
                    try writer.write(recorder.take())
                }
                _ = graph.takeEvents()
                writer.close()
                unlink(path)
                guard case .array(let elements)? = try graph.storeState("app")["items"] else { return -1 }
                return elements.count
            })
        }
    }

    // MARK: R-INS-MEM

    /// The argument that makes this binary run `inspectInChild`.
    static let inspectChildFlag = "--inspect-child"

    /// `inspect FILE` in a child process (this binary with `--inspect-child FILE`); the trial
    /// checks that it succeeded and measures its peak resident size over the file's size.
    static func inspectMemory(_ fixture: SessionFixture) -> Workload {
        Workload(operations: 1) {
            let path = try fixture.libraryRecording()
            var status = stat()
            guard stat(path, &status) == 0 else { throw CorrectnessFailure(description: "no file \(path)") }
            let fileBytes = Double(status.st_size)
            let factor = Box(Double.nan)
            return Trial(expectedChecksum: fixture.workload.actions, run: {
                let (actions, peakBytes) = try runInspectChild(path)
                factor.value = Double(peakBytes) / fileBytes
                return actions
            }, measurement: { factor.value })
        }
    }

    /// Runs this binary on `path` with `--inspect-child` and reads what it prints: the
    /// actions inspected and the peak resident size in bytes.
    private static func runInspectChild(_ path: String) throws -> (actions: Int, peakBytes: Int) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw CorrectnessFailure(description: "pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        let arguments = [CommandLine.arguments[0], inspectChildFlag, path]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, arguments[0], &actions, nil, &argv, environ)
        close(ends[1])
        defer { close(ends[0]) }
        guard spawned == 0 else { throw CorrectnessFailure(description: "posix_spawn failed: \(spawned)") }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(ends[0], &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            output += chunk[0..<count]
        }
        var exitStatus: Int32 = 0
        while waitpid(child, &exitStatus, 0) < 0, errno == EINTR {}
        let words = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard exitStatus == 0, words.count == 2 else {
            throw CorrectnessFailure(description: "inspect child: status \(exitStatus), printed \(String(decoding: output.prefix(300), as: UTF8.self))")
        }
        return (words[0], words[1])
    }

    /// The child run: `inspect path` in a fresh shell; prints the actions the store has and
    /// the process's peak resident size in bytes. Returns the exit status.
    static func inspectInChild(_ path: String) -> Int32 {
        let shell = Shell()
        // What the process holds before the inspect (the program, the runtime) is not the
        // inspect's: the row measures the peak the inspect adds.
        let before = residentBytes(field: "VmRSS")
        let outcome = shell.execute("inspect \(path)")
        let text = outcome.lines.map(\.text).joined(separator: "\n")
        guard outcome.status == .success, let open = text.range(of: "app ("),
              let count = Int(text[open.upperBound...].prefix { $0.isNumber })
        else {
            print("inspect failed: \(text.prefix(300))")
            return 1
        }
        print("\(count) \(residentBytes(field: "VmHWM") - before)")
        return 0
    }

    /// A resident size of this process from /proc/self/status, in bytes: `VmRSS` (now) or
    /// `VmHWM` (the peak). Not `getrusage`'s `ru_maxrss`, which Linux keeps across `exec`: the
    /// child would report its parent's peak. Elsewhere, `ru_maxrss` for both.
    private static func residentBytes(field: String) -> Int {
        #if os(Linux)
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kilobytes * 1024
        #else
        var usage = rusage()
        getrusage(RUSAGE_SELF, &usage)
        return usage.ru_maxrss
        #endif
    }

    // MARK: R-VER

    /// `replay FILE [--verify]` of the `record` of the dispatch commands, in a fresh shell; the
    /// trial checks the summary line (every step ran, and verified) and the final state.
    static func replay(_ fixture: SessionFixture, verify: Bool) -> Workload {
        Workload(operations: fixture.workload.actions) {
            let path = try fixture.shellRecording()
            let shell = Shell()
            // The store, the reducer and the dispatch commands.
            let steps = fixture.workload.actions + 2
            return Trial(expectedChecksum: fixture.finalSum) {
                let outcome = shell.execute("replay \(path)" + (verify ? " --verify" : ""))
                let last = outcome.lines.last?.text ?? ""
                let summary = verify ? "verified \(steps) steps" : "replayed \(steps) steps"
                // A plain replay prints each command's output; a verification, its summary only.
                let printed = verify ? outcome.lines.count == 1 : outcome.lines.count > steps
                guard outcome.status == .success, last.hasPrefix(summary), printed else {
                    throw CorrectnessFailure(description: "replay: \(outcome.status), \(outcome.lines.count) lines, last: \(last.prefix(300))")
                }
                return try SessionFixture.stateSum(shell)
            }
        }
    }
}

/// The inputs of the Sessions rows, built on first use and shared by a row's trials: the
/// command texts, the action values, the recordings (in /tmp). `release()` removes the files
/// and drops the rest at the end of a row.
final class SessionFixture {
    enum File: String {
        /// What a `SessionRecorder` on a `Graph` writes: no command lines (R-INS, R-REC-G).
        case libraryRecording = "library"
        /// What `record FILE` in a shell writes (R-VER, R-REC).
        case shellRecording = "shell"
    }

    static let reducerBody = "state[action.key] = action.value"
    static let reducerCommand = "reducer app on Set : \(reducerBody)"

    let workload: HistoryBenchmarks.SetWorkload
    private var commands: [String]?
    private var actionValues: [Value]?
    private var written: Set<File> = []
    /// The size of each file when last written, kept after it is removed, for the notes.
    private var sizes: [File: Int] = [:]

    init(keys: Int, actions: Int) {
        workload = HistoryBenchmarks.SetWorkload(keys: keys, actions: actions)
    }

    /// `store app = {k0: 0, k1: 0, ...}`
    var storeCommand: String {
        "store app = {" + (0..<workload.keys).map { "k\($0): 0" }.joined(separator: ", ") + "}"
    }

    /// `dispatch app Set {key: "kN", value: I}` for action I = 1, 2, ...
    var dispatchCommands: [String] {
        if let commands { return commands }
        let made = (1...workload.actions).map { "dispatch app Set {key: \"\(workload.key(ofAction: $0))\", value: \($0)}" }
        commands = made
        return made
    }

    /// `{type: "Set", key: "kN", value: I}` for action I = 1, 2, ...
    var actions: [Value] {
        if let actionValues { return actionValues }
        let made: [Value] = (1...workload.actions).map {
            ["type": "Set", "key": .string(workload.key(ofAction: $0)), "value": .int($0)]
        }
        actionValues = made
        return made
    }

    /// The sum of the final state's values: for each key, the index of the last action that set it.
    var finalSum: Int {
        var last = [Int](repeating: 0, count: workload.keys)
        for index in 1...workload.actions { last[Int(workload.keyOfAction[index - 1])] = index }
        return last.reduce(0, +)
    }

    func path(_ file: File) -> String {
        "/tmp/patchbay-benchmarks-\(getpid())-\(file.rawValue).jsonl"
    }

    /// The file a `SessionRecorder` writes for the actions, written on first use.
    func libraryRecording() throws -> String {
        let path = path(.libraryRecording)
        guard !written.contains(.libraryRecording) else { return path }
        try SessionBenchmarks.graphDispatch(self, recording: true).prepare().run().expect(finalSum, "writing \(path)")
        noteWritten(.libraryRecording)
        return path
    }

    /// The file `record FILE` writes for the dispatch commands, written on first use.
    func shellRecording() throws -> String {
        let path = path(.shellRecording)
        guard !written.contains(.shellRecording) else { return path }
        try SessionBenchmarks.shellDispatch(self, recording: true).prepare().run().expect(finalSum, "writing \(path)")
        noteWritten(.shellRecording)
        return path
    }

    private func noteWritten(_ file: File) {
        written.insert(file)
        var status = stat()
        if stat(path(file), &status) == 0 { sizes[file] = Int(status.st_size) }
    }

    /// A file's size, as "151.2 MB", or "-" when it was not written.
    func sizeText(_ file: File) -> String {
        var status = stat()
        if stat(path(file), &status) == 0 { sizes[file] = Int(status.st_size) }
        guard let size = sizes[file] else { return "-" }
        return "\(formatted(Double(size) / 1e6, digits: 1)) MB"
    }

    /// Removes the files (those the trials wrote too) and drops the commands and actions.
    func release() {
        for file in [File.libraryRecording, .shellRecording] {
            _ = sizeText(file)
            unlink(path(file))
        }
        written = []
        commands = nil
        actionValues = nil
    }

    // MARK: Shell helpers

    /// Runs a command that must succeed.
    static func run(_ command: String, in shell: Shell) throws {
        _ = try output(command, in: shell)
    }

    /// Runs a command that must succeed and returns what it printed.
    static func output(_ command: String, in shell: Shell) throws -> String {
        let outcome = shell.execute(command)
        let text = outcome.lines.map(\.text).joined(separator: "\n")
        guard outcome.status == .success else {
            throw CorrectnessFailure(description: "'\(command.prefix(60))' failed: \(text.prefix(300))")
        }
        return text
    }

    /// The sum of the values of the shell's store `app`, as the shell computes it.
    static func stateSum(_ shell: Shell) throws -> Int {
        let text = try output("= sum(values(app))", in: shell)
        guard let sum = Int(text) else { throw CorrectnessFailure(description: "'= sum(values(app))' printed \(text.prefix(100))") }
        return sum
    }

    /// The sum of the integer members of an object.
    static func sum(_ state: Value) -> Int {
        guard case .object(let members) = state else { return -1 }
        var sum = 0
        for case .int(let value) in members.values { sum &+= value }
        return sum
    }

    /// N in "recording into FILE: N events".
    static func eventCount(_ status: String) -> Int? {
        guard let colon = status.lastIndex(of: ":") else { return nil }
        return status[status.index(after: colon)...].split(separator: " ").first.flatMap { Int($0) }
    }
}

extension Int {
    /// Throws unless the checksum is `expected`.
    func expect(_ expected: Int, _ what: String) throws {
        guard self == expected else { throw CorrectnessFailure(description: "\(what): checksum \(self), expected \(expected)") }
    }
}
