@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder

/// A command of PatchbayHost.docc/RecordingInTheShell.md: recording, replaying and inspecting
/// sessions, and DevTools files.
enum SessionCommand: Sendable {
    /// `record FILE [--force] [--sync]`
    case record(path: String, range: Range<Int>, options: RecordOptions)
    /// `record stop`
    case stopRecording
    /// `record`
    case recordingStatus
    /// `replay FILE [--verify] [--step] [--until N]`
    case replay(path: String, range: Range<Int>, options: ReplayOptions)
    /// `inspect FILE [--force] [--follow [--idle SECONDS]]`
    case inspect(path: String, range: Range<Int>, options: InspectOptions)
    /// `inspect --listen [HOST:]PORT [--token TOKEN] [--force] [--idle SECONDS]`
    case listen(address: ListenAddress, range: Range<Int>, options: InspectOptions)
    /// `break [STORE] when EXPR`
    case breakpoint(store: Name?, condition: Expression)
    /// `step`
    case step
    /// `continue`
    case resume
    /// `export devtools STORE FILE [--lifted] [--force]`
    case exportDevTools(store: Name, path: String, range: Range<Int>, lifted: Bool, force: Bool)
    /// `export swift-test FILE [STORE] --reducer EXPR [--from N] [--to N] [--module NAME] [--force]`
    case exportSwiftTest(SwiftTestExport)
    /// `import devtools FILE [STORE] [--force]`
    case importDevTools(path: String, range: Range<Int>, store: Name?, force: Bool)
}

extension SessionCommand {
    /// How a recording holds the command (see `RecordedForm`): what a replay, an inspect, a step
    /// or an import ran; an export as a note (a replay writes no file).
    var recordedForm: RecordedForm {
        switch self {
        case .replay, .inspect, .listen, .step, .resume, .importDevTools: .whatItRuns
        case .exportDevTools, .exportSwiftTest: .note
        default: .itself
        }
    }

    /// Whether rolling the session back takes back what the command did (see `LastingChanges`):
    /// never.
    var isTakenBackWithItsNodes: Bool { false }

    /// Whether the command starts, stops or reports a recording: those are not recorded.
    var isRecordingControl: Bool {
        switch self {
        case .record, .stopRecording, .recordingStatus: true
        default: false
        }
    }

    /// The command with `store` for a STORE left out (see `Command.selecting(_:at:)`).
    func selecting(_ store: Name) -> SessionCommand {
        switch self {
        case .breakpoint(nil, let condition): .breakpoint(store: store, condition: condition)
        case .importDevTools(let path, let range, nil, let force): .importDevTools(path: path, range: range, store: store, force: force)
        default: self
        }
    }
}

/// How `record` writes its file.
struct RecordOptions: Sendable, Equatable {
    /// Replace an existing file.
    var force = false
    /// Force each command's lines to the disk (`fsync`) when it ends.
    var sync = false
}

/// How `inspect` opens a recording.
struct InspectOptions: Sendable, Equatable {
    /// Replace the current session even when it holds definitions.
    var force = false
    /// Go on reading what is appended to the file (see `Shell.readFollowed()`).
    var follow = false
    /// With `follow`: stop once the file has not grown for this many seconds.
    var idleSeconds: Double?

    /// The longest `--idle`: a day.
    static let longestIdle: Double = 86_400
}

/// What `export swift-test` writes, and from which steps.
struct SwiftTestExport: Sendable {
    var path: String
    var range: Range<Int>
    var store: Name?
    /// The Swift expression that gives the app's reducer.
    var reducer: String?
    /// The module the test imports with `@testable` (the state type's when `nil`).
    var module: String?
    /// The state the test starts from (0 when `nil`), and the last action it sends (the
    /// history's last when `nil`), with where the command names them.
    var from: (index: Int, range: Range<Int>)?
    var to: (index: Int, range: Range<Int>)?
    var force = false

    init(path: String, range: Range<Int>) {
        self.path = path
        self.range = range
    }
}

/// Where `inspect --listen` listens: `[HOST:]PORT`, the loopback address `127.0.0.1` when no
/// host is given, and the token an app must send first (required off loopback).
struct ListenAddress: Sendable, Equatable {
    /// The loopback address, listened on unless a host is given.
    static let loopback = "127.0.0.1"

    var host = Self.loopback
    /// 0: a port the system chooses (printed at start).
    var port: Int
    /// `--token TOKEN`; generated at start when the address is not loopback and none is given.
    var token: String?

    /// `4321`, `0.0.0.0:4321`, `[::1]:4321`; `nil` when `text` is none of these.
    init?(parsing text: String) {
        var host = Self.loopback
        var portText = Substring(text)
        if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty else { return nil }
        }
        guard let port = Int(portText), (0...65_535).contains(port), portText.allSatisfy(\.isNumber) else { return nil }
        self.host = host
        self.port = port
    }
}

/// How `replay` runs a recording.
struct ReplayOptions: Sendable, Equatable {
    /// Replace the current session even when it holds definitions.
    var force = false
    /// Let the replayed commands read and write files (beside the recording only).
    var allowFiles = false
    /// Compare every effect with the recording, and stop at the first divergence.
    var verify = false
    /// Pause before the first step.
    var step = false
    /// Pause after this step.
    var until: Int?
}

extension CommandParser {
    /// Parses the session command that starts with `word`, or returns `nil` for other words.
    static func session(_ word: String, _ scanner: inout CommandScanner, context: ParserContext) throws(ShellError) -> SessionCommand? {
        let command: SessionCommand
        switch word {
        case "record":
            if scanner.isAtEnd {
                command = .recordingStatus
            } else if scanner.keyword("stop") {
                command = .stopRecording
            } else {
                let (path, range) = try file(&scanner, "the file to record into", command: word)
                let flags = try scanner.flags(["--force", "--sync"], command: word)
                command = .record(path: path, range: range, options: RecordOptions(force: flags.contains("--force"), sync: flags.contains("--sync")))
            }
        case "replay":
            let (path, range) = try file(&scanner, "the recorded session to replay", command: word)
            command = .replay(path: path, range: range, options: try replayOptions(&scanner))
        case "inspect":
            var ahead = scanner
            if let (first, _) = ahead.word(), first == "--listen" {
                scanner = ahead
                command = try listen(&scanner)
                break
            }
            let (path, range) = try file(&scanner, "the recorded session to inspect", command: word)
            command = .inspect(path: path, range: range, options: try inspectOptions(&scanner))
        case "break":
            var store: Name?
            if !scanner.keyword("when") {
                store = try scanner.requireName("a store or 'when'", command: word)
                guard scanner.keyword("when") else { throw scanner.missing("'when' and a condition", command: word) }
            }
            command = .breakpoint(store: store, condition: try scanner.expression(command: word))
        case "step":
            command = .step
        case "continue":
            command = .resume
        case "export":
            var probe = scanner
            if let (kind, _) = probe.word(), kind == "swift-test" {
                scanner = probe
                command = .exportSwiftTest(try swiftTestExport(&scanner))
                break
            }
            guard scanner.keyword("devtools") else {
                throw scanner.missing("'devtools' or 'swift-test' (export devtools STORE FILE, export swift-test FILE STORE --reducer EXPR)",
                                      command: word)
            }
            let store = try scanner.requireName("the store to export", command: word)
            let (path, range) = try file(&scanner, "the file to write", command: word)
            let flags = try scanner.flags(["--lifted", "--force"], command: word)
            command = .exportDevTools(store: store, path: path, range: range, lifted: flags.contains("--lifted"),
                                      force: flags.contains("--force"))
        case "import":
            guard scanner.keyword("devtools") else { throw scanner.missing("'devtools' (import devtools FILE [STORE])", command: word) }
            let (path, range) = try file(&scanner, "the DevTools file to read", command: word)
            let store = scanner.isAtEnd || scanner.startsFlag ? nil : try scanner.requireName("the store to import into", command: word)
            command = .importDevTools(path: path, range: range, store: store,
                                      force: try scanner.flags(["--force"], command: word).contains("--force"))
        default:
            return nil
        }
        try expectEnd(&scanner, command: word)
        return command
    }

    private static func file(_ scanner: inout CommandScanner, _ what: String, command: String) throws(ShellError) -> (String, Range<Int>) {
        guard let (path, range) = scanner.word(), !path.isEmpty else { throw scanner.missing(what, command: command) }
        return (path, range)
    }

    private static func inspectOptions(_ scanner: inout CommandScanner) throws(ShellError) -> InspectOptions {
        let word = "inspect"
        var options = InspectOptions()
        var idleRange: Range<Int>?
        while let (option, range) = scanner.word() {
            switch option {
            case "--force": options.force = true
            case "--follow": options.follow = true
            case "--idle" where options.idleSeconds == nil:
                options.idleSeconds = try idleSeconds(&scanner)
                idleRange = range
            default:
                throw usage(word, "unexpected '\(Printable.escaped(option, limit: 30))' (options: --force, --follow, --idle SECONDS)", at: range)
            }
        }
        if let idleRange, !options.follow { throw usage(word, "--idle goes with --follow (inspect FILE --follow --idle SECONDS)", at: idleRange) }
        return options
    }

    private static func swiftTestExport(_ scanner: inout CommandScanner) throws(ShellError) -> SwiftTestExport {
        let word = "export"
        let (path, range) = try file(&scanner, "the Swift file to write (export swift-test FILE STORE --reducer EXPR)", command: word)
        var export = SwiftTestExport(path: path, range: range)
        if !scanner.isAtEnd, !scanner.startsFlag { export.store = try scanner.requireName("the store to export", command: word) }
        while let (option, optionRange) = scanner.word() {
            switch option {
            case "--force": export.force = true
            case "--reducer" where export.reducer == nil:
                guard let (expression, _) = scanner.word() else {
                    throw scanner.missing("the Swift expression of the app's reducer after --reducer (TodoReducers.todoList)", command: word)
                }
                export.reducer = expression
            case "--module" where export.module == nil:
                guard let (module, moduleRange) = scanner.word() else { throw scanner.missing("the app's module after --module", command: word) }
                guard module.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), module.first?.isNumber == false else {
                    throw usage(word, "--module takes a Swift module name, such as TodoCore", at: moduleRange)
                }
                export.module = module
            case "--from" where export.from == nil, "--to" where export.to == nil:
                let (index, indexRange) = try scanner.integer("a step number after \(option)", command: word)
                guard index >= 0 else { throw usage(word, "\(option) takes a step number that is not negative", at: indexRange) }
                if option == "--from" { export.from = (index, indexRange) } else { export.to = (index, indexRange) }
            default:
                throw usage(word, "unexpected '\(Printable.escaped(option, limit: 30))' (options: --reducer EXPR, --from N, --to N, "
                            + "--module NAME, --force)", at: optionRange)
            }
        }
        guard export.reducer != nil else {
            throw usage(word, "say which Swift expression gives the app's reducer: --reducer EXPR (such as TodoReducers.todoList)",
                        at: range)
        }
        if let from = export.from, let to = export.to, to.index < from.index {
            throw usage(word, "--to \(to.index) comes before --from \(from.index)", at: to.range)
        }
        return export
    }

    /// `inspect --listen [HOST:]PORT [--token TOKEN] [--force] [--idle SECONDS]`, after `--listen`.
    private static func listen(_ scanner: inout CommandScanner) throws(ShellError) -> SessionCommand {
        let word = "inspect"
        guard let (text, range) = scanner.word(), !text.hasPrefix("--") else {
            throw scanner.missing("[HOST:]PORT after --listen (inspect --listen 4321)", command: word)
        }
        guard var address = ListenAddress(parsing: text) else {
            throw usage(word, "--listen takes [HOST:]PORT, a port from 0 (any free port) to 65535, such as 4321 or 0.0.0.0:4321", at: range)
        }
        var options = InspectOptions()
        options.follow = true
        while let (option, optionRange) = scanner.word() {
            switch option {
            case "--force": options.force = true
            case "--token" where address.token == nil:
                guard let (token, tokenRange) = scanner.word() else { throw scanner.missing("a token after --token", command: word) }
                guard SessionSocket.isValidToken(token) else {
                    throw usage(word, "a token is 1 to \(SessionSocket.maximumTokenLength) of A-Z a-z 0-9 . _ ~ -", at: tokenRange)
                }
                address.token = token
            case "--idle" where options.idleSeconds == nil:
                options.idleSeconds = try idleSeconds(&scanner)
            default:
                throw usage(word, "unexpected '\(Printable.escaped(option, limit: 30))' (options with --listen: --token TOKEN, --force, --idle SECONDS)",
                            at: optionRange)
            }
        }
        return .listen(address: address, range: range, options: options)
    }

    /// The seconds after `--idle`.
    private static func idleSeconds(_ scanner: inout CommandScanner) throws(ShellError) -> Double {
        let word = "inspect"
        guard let (text, valueRange) = scanner.word() else { throw scanner.missing("a number of seconds after --idle", command: word) }
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= InspectOptions.longestIdle else {
            throw usage(word, "--idle takes a number of seconds above 0 and at most \(Int(InspectOptions.longestIdle)), such as 2 or 0.5",
                        at: valueRange)
        }
        return seconds
    }

    private static func replayOptions(_ scanner: inout CommandScanner) throws(ShellError) -> ReplayOptions {
        let word = "replay"
        var options = ReplayOptions()
        while let (option, range) = scanner.word() {
            switch option {
            case "--verify": options.verify = true
            case "--step": options.step = true
            case "--force": options.force = true
            case "--allow-files": options.allowFiles = true
            case "--until" where options.until == nil:
                let (step, stepRange) = try scanner.integer("a step number after --until", command: word)
                guard step >= 0 else { throw usage(word, "--until takes a step number that is not negative", at: stepRange) }
                options.until = step
            default:
                throw usage(word, "unexpected '\(Printable.escaped(option, limit: 30))' (options: --verify, --step, --until N, --force, --allow-files)", at: range)
            }
        }
        return options
    }
}
