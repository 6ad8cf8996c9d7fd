@_spi(Shell) import PatchbayHistory
import Foundation
@_spi(Shell) @testable import PatchbayShell
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import Testing

/// Runs commands through a fresh shell and splits what they print by stream.
struct ShellRun {
    var output: [String] = []
    var errors: [String] = []
    var failures = 0

    /// `written` sees each line as the script prints it (what a test does at a point of the run).
    init(_ script: String, json: Bool = false, keepGoing: Bool = false, name: String = "test.pb",
         written: @escaping (OutputLine) -> Void = { _ in }) {
        let shell = Shell.scratch(ShellOptions(json: json))
        var collected: [OutputLine] = []
        var runner = ScriptRunner(shell: shell, name: name, keepGoing: keepGoing) { line in
            collected.append(line)
            written(line)
        }
        runner.run(Array(script.utf8))
        failures = runner.failures
        for line in collected {
            if line.stream == .output { output.append(line.text) } else { errors.append(line.text) }
        }
    }
}

extension Shell {
    /// A shell for a test, in a new temporary directory of its own unless `options` names one:
    /// the files its commands name by relative paths (`record x.jsonl`, `save s.pb`) are made
    /// there, never in the package the tests run in. The directories go when the tests end.
    static func scratch(_ options: ShellOptions = ShellOptions(), fileNames: FileNameLister = FileNameLister()) -> Shell {
        var options = options
        if options.directory == nil { options.directory = ScratchDirectories.make() }
        return Shell(options: options, fileNames: fileNames)
    }
}

extension Shell {
    /// Runs one command as `execute` does and returns its report, which must be a `Report`
    /// (`try shell.report("history", as: HistoryListing.self)`): what the command found or did,
    /// as values. The test stops with an issue when the command fails, holds no command, or
    /// reports another kind.
    func report<Report: CommandReport>(
        _ command: String, as type: Report.Type = Report.self, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Report {
        let reply = try #require(self.reply(to: command), "'\(command)' holds no command", sourceLocation: sourceLocation)
        let report = try #require(reply.report, "'\(command)' failed: \(reply.error?.message ?? "")", sourceLocation: sourceLocation)
        return try #require(report as? Report, "'\(command)' reported a \(Swift.type(of: report)), not a \(type)",
                            sourceLocation: sourceLocation)
    }

    /// Runs one command, which must fail, as `execute` does and returns its error (its reason,
    /// and the range of the command it points at).
    func shellError(_ command: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ShellError {
        let reply = try #require(self.reply(to: command), "'\(command)' holds no command", sourceLocation: sourceLocation)
        return try #require(reply.error, "'\(command)' did not fail: it reported \(reply.report.map { "\($0)" } ?? "")",
                            sourceLocation: sourceLocation)
    }

    /// Runs one command, which must succeed, as `execute` does and returns the events it set off
    /// (what probes saw, the actions wires dispatched), in order.
    func events(_ command: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [GraphEvent] {
        let reply = try #require(self.reply(to: command), "'\(command)' holds no command", sourceLocation: sourceLocation)
        #expect(reply.error == nil, "'\(command)' failed: \(reply.error?.message ?? "")", sourceLocation: sourceLocation)
        return reply.events
    }
}

/// A test's session: a shell driven command by command (`DataflowSession`, `RouteSession`).
protocol ShellSession {
    var shell: Shell { get }
}

extension DataflowSession: ShellSession {}
extension RouteSession: ShellSession {}

extension ShellSession {
    /// The shell's `report(_:as:)`: runs one command and returns its report, a `Report`.
    func report<Report: CommandReport>(
        _ command: String, as type: Report.Type = Report.self, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Report {
        try shell.report(command, as: type, sourceLocation: sourceLocation)
    }

    /// Runs one command that shows a value (`= EXPR`, `state`) and returns the value.
    func value(_ command: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Value {
        try shell.report(command, as: ValueReport.self, sourceLocation: sourceLocation).value
    }

    /// Runs a `dispatch` whose action must make a step on the store's branch (no warning, no
    /// new branch), and returns the step.
    func step(_ command: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> StoreStep<ValueChange> {
        let dispatch = try report(command, as: DispatchReport.self, sourceLocation: sourceLocation)
        #expect(dispatch.warning == nil, "\(dispatch.warning.map(\.text) ?? "")", sourceLocation: sourceLocation)
        guard case .step(let step, .none) = dispatch.outcome else {
            Issue.record("'\(command)' did not make a step on the branch: \(dispatch.outcome)", sourceLocation: sourceLocation)
            throw ReplyMismatch()
        }
        return step
    }

    /// Runs one command, which must succeed, and returns the steps its events show (actions
    /// that wires and `after` reducers dispatched), in order.
    func dispatched(_ command: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [StoreStep<ValueChange>] {
        try events(command, sourceLocation: sourceLocation).compactMap { event in
            if case .dispatched(let step) = event { step } else { nil }
        }
    }

    /// Runs one command that must fail, printing nothing but its error, and returns the error.
    func onlyError(_ command: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ShellError {
        let reply = try #require(shell.reply(to: command), sourceLocation: sourceLocation)
        #expect(reply.events.isEmpty, "set off \(reply.events)", sourceLocation: sourceLocation)
        return try #require(reply.error, "'\(command)' did not fail", sourceLocation: sourceLocation)
    }

    /// Runs one command that must fail, printing nothing but its error, and checks the error:
    /// its message, and the range of the command it points at (where the caret goes).
    func expectError(_ command: String, _ message: String, at range: Range<Int>,
                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        let error = try onlyError(command, sourceLocation: sourceLocation)
        #expect(error.message == message, sourceLocation: sourceLocation)
        #expect(error.range == range, sourceLocation: sourceLocation)
    }

    /// Runs commands that report nothing of their own (`set`, `send`, `touch`), a line each, and
    /// checks what they set off: the probe and log output, in order, values as written.
    func expectOutput(_ script: String, _ expected: [Seen], sourceLocation: SourceLocation = #_sourceLocation) throws {
        var events: [GraphEvent] = []
        for command in script.split(separator: "\n").map(String.init) {
            let reply = try #require(shell.reply(to: command), sourceLocation: sourceLocation)
            #expect(reply.report is NoReport, "'\(command)': \(reply.result)", sourceLocation: sourceLocation)
            events += reply.events
        }
        #expect(Seen.match(events, expected), "\(events)", sourceLocation: sourceLocation)
    }

    /// Runs `tap VIEW X Y` and checks where it tapped (the view and point the command names), the
    /// tap patches it fired (none: it missed), and the probe and log output it set off.
    func expectTap(_ command: String, fired: [String], seeing expected: [Seen], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reply = try #require(shell.reply(to: command), sourceLocation: sourceLocation)
        let tap = try #require(reply.report as? TapFired, "\(reply.result)", sourceLocation: sourceLocation)
        #expect("tap \(tap.view) \(tap.x) \(tap.y)" == command && tap.fired == fired, "\(tap)", sourceLocation: sourceLocation)
        #expect(Seen.match(reply.events, expected), "\(reply.events)", sourceLocation: sourceLocation)
    }

    /// Runs `clock` (or `tick`, with `pending` left out: it shows only the time) and checks the
    /// virtual time, how many timers are pending and when the next is due.
    func expectClock(_ command: String = "clock", now: Int, pending: Int? = nil, next: Int? = nil,
                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        let clock = try report(command, as: ClockReading.self, sourceLocation: sourceLocation)
        #expect(clock.now == now && clock.timers?.count == pending && clock.timers?.nextDue == next, sourceLocation: sourceLocation)
    }

    /// Runs a `skip` or `unskip` of step `index`, which must say whether the step is skipped now and
    /// how many states `changing` it changed.
    func expectSkip(_ command: String, _ index: Int, skipped: Bool, changing: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let skip = try report(command, as: SkipToggled.self, sourceLocation: sourceLocation)
        #expect(skip.index == index && skip.skipped == skipped && skip.changedStates == changing, sourceLocation: sourceLocation)
    }

    /// Runs `history [STORE]`, which must list no action: the initial state alone, current.
    func expectNoActions(_ command: String = "history", sourceLocation: SourceLocation = #_sourceLocation) throws {
        let history = try report(command, as: HistoryListing.self, sourceLocation: sourceLocation)
        #expect(history.entries.isEmpty && history.showsInitialState && history.current == 0 && !history.filtering, sourceLocation: sourceLocation)
    }

    /// Runs a `jump`, which must make step `index` of the `count` steps of `store` current, with `state` (as written).
    func expectJump(_ command: String, _ store: String, _ index: Int, of count: Int, _ state: Value,
                    sourceLocation: SourceLocation = #_sourceLocation) throws {
        let jump = try report(command, as: StoreAtStep.self, sourceLocation: sourceLocation)
        #expect(jump.store == store && jump.index == index && jump.move == .jump(count: count), sourceLocation: sourceLocation)
        #expect(jump.state.isIdentical(to: state), "\(jump.state)", sourceLocation: sourceLocation)
    }

    /// Runs a `find`, which must show every match: the steps and the actions that led to them (as written).
    func expectFound(_ command: String, _ indices: [Int], _ actions: [Value], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let found = try report(command, as: FoundStates.self, sourceLocation: sourceLocation)
        #expect(found.matches.map(\.index) == indices && found.hiddenBefore == 0 && found.hiddenAfter == 0, sourceLocation: sourceLocation)
        #expect(Value.array(found.matches.map { $0.action ?? .null }).isIdentical(to: .array(actions)), sourceLocation: sourceLocation)
    }

    /// Runs a `blame`, which must show every change: the steps, their actions, and the values before and after
    /// (`nil` where the path was not), as written.
    func expectBlamed(_ command: String, _ indices: [Int], _ actions: [Value], old: [Value?], new: [Value?],
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let blame = try report(command, as: BlameListing.self, sourceLocation: sourceLocation)
        #expect(blame.blames.map(\.index) == indices && blame.hiddenBefore == 0 && blame.hiddenAfter == 0, sourceLocation: sourceLocation)
        #expect(Value.array(blame.blames.map(\.action)).isIdentical(to: .array(actions)), sourceLocation: sourceLocation)
        let same = { (a: [Value?], b: [Value?]) in
            a.count == b.count && zip(a, b).allSatisfy { x, y in x.map { x in y.map { x.isIdentical(to: $0) } ?? false } ?? (y == nil) }
        }
        #expect(same(blame.blames.map(\.old), old) && same(blame.blames.map(\.new), new), "\(blame.blames)", sourceLocation: sourceLocation)
    }

    /// The shell's `shellError(_:)`: runs one command, which must fail, and returns its error.
    func shellError(_ command: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ShellError {
        try shell.shellError(command, sourceLocation: sourceLocation)
    }

    /// The shell's `events(_:)`: runs one command and returns the events it set off.
    func events(_ command: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [GraphEvent] {
        try shell.events(command, sourceLocation: sourceLocation)
    }
}

extension CommandReply {
    /// The command's report, when it succeeded.
    var report: (any CommandReport)? { try? result.get() }

    /// The command's error, when it failed.
    var error: ShellError? {
        guard case .failure(let error) = result else { return nil }
        return error
    }
}

extension Value {
    /// Whether the values are the same as written: equal, with objects' keys in the same order
    /// and integers told apart from decimals, which `==` does not (`{a: 1, b: 2}` is not `{b: 2, a: 1.0}`).
    func isIdentical(to other: Value) -> Bool {
        switch (self, other) {
        case (.int(let a), .int(let b)): a == b
        case (.decimal(let a), .decimal(let b)): a == b
        case (.array(let a), .array(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.isIdentical(to: $1) }
        case (.object(let a), .object(let b)):
            a.keys.elementsEqual(b.keys) && zip(a.values, b.values).allSatisfy { $0.isIdentical(to: $1) }
        case (.int, _), (.decimal, _), (.array, _), (.object, _): false
        default: self == other
        }
    }
}

extension [ValueChange] {
    /// Whether the changes are the same as written: paths and operations equal, old and new
    /// values identical (see `Value.isIdentical(to:)`).
    func isIdentical(to other: [ValueChange]) -> Bool {
        count == other.count && zip(self, other).allSatisfy { a, b in
            a.path == b.path && a.operation == b.operation && Self.same(a.old, b.old) && Self.same(a.new, b.new)
        }
    }

    private static func same(_ a: Value?, _ b: Value?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): a.isIdentical(to: b)
        default: false
        }
    }
}

/// An event as its line shows it: a probe's port, value and transaction (`a.value = 3  (txn 2)`),
/// or a log patch's node and value (`l: 7`).
enum Seen {
    case probe(String, Value, txn: Int)
    case log(String, Value)

    /// Whether `events` are `expected`, in order, values as written (see `Value.isIdentical(to:)`).
    static func match(_ events: [GraphEvent], _ expected: [Seen]) -> Bool {
        events.count == expected.count && zip(events, expected).allSatisfy { event, seen in
            switch (event, seen) {
            case (.probe(let port, let value, let transaction), .probe(let want, let wanted, let txn)):
                port == want && value.isIdentical(to: wanted) && transaction == txn
            case (.log(let node, let value, _), .log(let want, let wanted)):
                node == want && value.isIdentical(to: wanted)
            default: false
            }
        }
    }
}

/// Thrown by a helper that recorded why the test cannot go on.
struct ReplyMismatch: Error {}

/// Checks that `step` is what a step's line shows: its index, its action's type, its changes as
/// written (see `Value.isIdentical(to:)`), the action it came from, if any (`cause`, or `after`
/// for an `after` reducer's step, whose line names only that), and its failure.
func expectStep(_ step: StoreStep<ValueChange>, _ index: Int, _ type: String, _ changes: [ValueChange], cause: Int? = nil, after: Int? = nil,
                failure: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(step.index == index, sourceLocation: sourceLocation)
    #expect(step.action["type"] == .string(type), "\(step.action)", sourceLocation: sourceLocation)
    #expect(step.changes.isIdentical(to: changes), "\(step.changes)", sourceLocation: sourceLocation)
    #expect((step.delayedReducer == nil ? nil : step.cause) == after, sourceLocation: sourceLocation)
    if after == nil { #expect(step.cause == cause, sourceLocation: sourceLocation) }
    #expect(step.failure == failure, sourceLocation: sourceLocation)
}

extension ValueChange {
    /// The change at `path` from `old` to `new`: an add where there was no old value, a remove
    /// where there is no new one, a replace otherwise (`count: 0 → 2` is
    /// `.at([.key("count")], from: 0, to: 2)`).
    static func at(_ path: [PathComponent], from old: Value? = nil, to new: Value? = nil) -> ValueChange {
        ValueChange(path: path, operation: old == nil ? .add : new == nil ? .remove : .replace, old: old, new: new)
    }

    /// `at(_:from:to:)` with the path as expressions write it, keys and indices:
    /// `.at("todos[0].done", from: false, to: true)`.
    static func at(_ path: String, from old: Value? = nil, to new: Value? = nil) -> ValueChange {
        var components: [PathComponent] = []
        for part in path.split(separator: ".") {
            let pieces = part.split(separator: "[")
            if let key = pieces.first, !part.hasPrefix("[") { components.append(.key(String(key))) }
            for index in pieces.dropFirst(part.hasPrefix("[") ? 0 : 1) {
                components.append(.index(Int(index.dropLast())!))
            }
        }
        return at(components, from: old, to: new)
    }
}

/// The temporary directories of the tests' shells, in one directory of the test process's,
/// removed when the process exits.
enum ScratchDirectories {
    static let root: String = {
        let root = NSTemporaryDirectory() + "patchbay-shell-tests-\(getpid())"
        try! FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: ScratchDirectories.root) }
        return root
    }()

    static func make() -> String {
        let path = root + "/" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// A temporary directory removed when the test ends.
final class TemporaryDirectory {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "patchbay-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ contents: String) -> String {
        let file = path + "/" + name
        _ = FileManager.default.createFile(atPath: file, contents: Data(contents.utf8))
        return file
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
