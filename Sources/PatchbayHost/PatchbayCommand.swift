import ArgumentParser
import Foundation
@_spi(Shell) public import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayShell

/// The `patchbay` command line, in the `patchbay` executable or in an app's own: the shell,
/// on scripts or interactively, and the `replay` and `inspect` forms, which read a recorded
/// session.
///
/// An app hosts its stores in the shell with a `main` of its own:
///
/// ```swift
/// import PatchbayHost
/// import TodoCore
///
/// Patchbay.main(hosting: [HostedStore("todos", initialState: AppState(), reducer: appReducer)])
/// ```
public enum Patchbay {
    /// Runs the command line `arguments` (the process's own by default) with `stores` hosted,
    /// and exits with the run's status.
    /// - Parameters:
    ///   - stores: the app's stores, which exist in the session from the start and again in
    ///     every fresh one (`reset`, `replay`, `inspect`).
    ///   - name: what the usage, the help and the messages call the program; by default the
    ///     name it was started by (the last component of `argv[0]`), so that an app's
    ///     executable (`todo-inspector`) says its own name.
    ///   - arguments: the command line without the program's name; by default the process's.
    public static func main(hosting stores: [HostedStore] = [], name: String? = nil,
                            arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        ExecutableName.$current.withValue(name ?? ExecutableName.of(path: CommandLine.arguments.first)) {
            run(hosting: stores, arguments: arguments)
        }
    }

    private static func run(hosting stores: [HostedStore], arguments: [String]) -> Never {
        let arguments = subcommandFirst(arguments)
        // The form's own type parses, runs and exits, so that `patchbay replay --help` is the
        // help of `replay`, and its usage errors show its usage.
        let form: any HostCommand.Type = switch arguments.first {
        case "replay": Replay.self
        case "inspect": Inspect.self
        default: PatchbayCommand.self
        }
        do {
            var command = try form.parse(form == PatchbayCommand.self ? arguments : Array(arguments.dropFirst()))
            try command.run(hosting: stores)
        } catch {
            form.exit(withError: error)
        }
        form.exit()
    }

    /// The command line with its subcommand first, so that the global options may come before
    /// it as well as after (`patchbay --json replay FILE --verify`): a `replay` or `inspect`
    /// that follows only options (and their values) moves to the front.
    static func subcommandFirst(_ arguments: [String]) -> [String] {
        // The options of `SessionOptions` that take a value.
        let valued: Set = ["--record", "--history-file", "--color", "--work-budget", "--memory-budget"]
        var index = 0
        while index < arguments.count, arguments[index].hasPrefix("-"), arguments[index] != "--" {
            index += valued.contains(arguments[index]) ? 2 : 1
        }
        guard index > 0, index < arguments.count, ["replay", "inspect"].contains(arguments[index]) else { return arguments }
        return [arguments[index]] + arguments[..<index] + arguments[(index + 1)...]
    }
}

/// A form of the command line, run with the app's stores hosted.
protocol HostCommand: ParsableCommand {
    mutating func run(hosting stores: [HostedStore]) throws
}

extension HostCommand {
    mutating func run() throws { try run(hosting: []) }
}

/// `patchbay [FILE...]`: the shell, on scripts or interactively.
struct PatchbayCommand: HostCommand {
    // Made when asked for: it names the executable being run.
    static var configuration: CommandConfiguration {
        let name = ExecutableName.current
        return CommandConfiguration(
            commandName: name,
            abstract: "An interactive shell for exploring dataflow and debugging reducers.",
            // Each form on a line of its own, short enough for 80 columns.
            usage: """
                \(name) [<options>] [<files> ...]
                \(name) replay <file> [--verify] [--step] [--until <n>] [--allow-files]
                \(name) inspect <file> [--follow [--idle <seconds>]]
                """,
            discussion: """
                With no FILE and a terminal on standard input, starts the interactive shell. Otherwise runs \
                the FILEs (or standard input) as scripts: no prompt, and a stop at the first error with exit \
                status 1 unless --keep-going is given. Type 'help' in the shell for the commands.

                '\(name) replay FILE' replays a recorded session, and '\(name) inspect FILE' opens one for \
                time travel: see '\(name) replay --help' and '\(name) inspect --help'.
                """,
            version: PatchbayVersion.current
        )
    }

    @Argument(help: "Script files to run in order.", completion: .file())
    var files: [String] = []

    @OptionGroup var session: SessionOptions

    mutating func run(hosting stores: [HostedStore]) throws {
        try session.run(files: files, first: [], hosting: stores)
    }
}

/// `patchbay replay FILE [--verify] [--step] [--until N]`
struct Replay: HostCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "\(ExecutableName.current) replay", abstract: "Replay a recorded session (see 'help replay' in the shell).")
    }

    @Argument(help: "The recorded session (JSON Lines).", completion: .file())
    var file: String

    @Flag(help: "Compare every effect with the recording; stop at the first divergence (exit status 1).")
    var verify = false

    @Flag(help: "Pause before the first command; go on with step and continue (stays interactive).")
    var step = false

    @Flag(help: "Let the replayed commands read and write files, beside the recording only.")
    var allowFiles = false

    @Option(help: ArgumentHelp("Pause after command N (stays interactive).", valueName: "N"))
    var until: Int?

    @OptionGroup var session: SessionOptions

    mutating func run(hosting stores: [HostedStore]) throws {
        var command = "replay \(Self.quoted(file))"
        if verify { command += " --verify" }
        if step { command += " --step" }
        if let until { command += " --until \(until)" }
        if allowFiles { command += " --allow-files" }
        if step || until != nil { session.interactive = true }
        try session.run(files: [], first: [command], reading: [file], hosting: stores)
    }

    /// A path as a word of a command: quoted, so spaces survive.
    static func quoted(_ path: String) -> String {
        "\"" + path.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }
}

/// `patchbay inspect FILE [--follow [--idle SECONDS]]`, `patchbay inspect --listen [HOST:]PORT [--token T]`
struct Inspect: HostCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "\(ExecutableName.current) inspect", abstract: "Open a recorded session for time travel (without running reducers).",
            discussion: """
                With --follow, keeps reading what an app appends to FILE: each new action prints as it \
                arrives. At a terminal the prompt stays usable while following (Ctrl-C at the prompt stops \
                following); otherwise it follows until SIGINT or --idle, then runs standard input's commands \
                on what arrived. With --listen instead of FILE, an app's Recorder connects over TCP \
                (Recorder(store:connectingTo:port:token:)) and what it sends is followed the same way, until \
                the app disconnects; loopback unless HOST is given, and then with a token.
                """)
    }

    @Argument(help: "The recorded session (JSON Lines).", completion: .file())
    var file: String?

    @Option(help: ArgumentHelp("Listen for an app's Recorder on [HOST:]PORT (127.0.0.1 unless HOST is given; port 0: any) instead of reading FILE.",
                               valueName: "[host:]port"))
    var listen: String?

    @Option(help: ArgumentHelp("With --listen, the token the app must send first (off loopback one is generated unless given).",
                               valueName: "token"))
    var token: String?

    @Flag(help: "Keep reading the actions appended to FILE as they arrive.")
    var follow = false

    @Option(help: ArgumentHelp("With --follow, stop once FILE has not grown for SECONDS.", valueName: "seconds"))
    var idle: Double?

    @OptionGroup var session: SessionOptions

    func validate() throws {
        if (file == nil) == (listen == nil) { throw ValidationError("give either FILE or --listen [HOST:]PORT") }
        if listen != nil && follow { throw ValidationError("--listen follows what arrives already; leave --follow out") }
        if idle != nil && !follow && listen == nil { throw ValidationError("--idle goes with --follow") }
        if token != nil && listen == nil { throw ValidationError("--token goes with --listen") }
    }

    mutating func run(hosting stores: [HostedStore]) throws {
        session.interactive = true
        var command = "inspect " + (listen.map { "--listen \(Replay.quoted($0))" } ?? Replay.quoted(file ?? ""))
        if follow { command += " --follow" }
        if let token { command += " --token \(Replay.quoted(token))" }
        if let idle { command += " --idle \(idle)" }
        try session.run(files: [], first: [command], reading: file.map { [$0] } ?? [], hosting: stores)
    }
}

/// The options every way of starting the shell takes.
struct SessionOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Stay interactive after running the files.")
    var interactive = false

    @Flag(help: "Write one JSON object per line instead of text.")
    var json = false

    @Flag(help: "Go on after a failing command (the exit status is still 1).")
    var keepGoing = false

    @Flag(help: "Print each script line after a prompt before its output, like a transcript.")
    var echo = false

    @Option(help: ArgumentHelp("Record everything the session does into FILE (JSON Lines).", valueName: "file"))
    var record: String?

    @Flag(help: "With --record, replace FILE if it exists (it is kept otherwise).")
    var force = false

    @Option(help: ArgumentHelp("Where to keep the interactive history.", valueName: "path"))
    var historyFile: String?

    @Option(help: "Colour output: auto (a terminal without NO_COLOR), always or never.")
    var color: ColorChoice = .auto

    @Flag(help: "Never page long output (at a terminal it goes through PAGER, else less -FRX).")
    var noPager = false

    @Option(help: ArgumentHelp(
        "The steps of work one evaluation may take: one per operator, name, literal, call and element a function goes through (see 'help values').",
        valueName: "steps"))
    var workBudget: Int = EvaluationBudget.standard.work

    @Option(help: ArgumentHelp(
        "The bytes of values one evaluation may build; a suffix K, M or G multiplies by 1024, 1024², 1024³.",
        valueName: "bytes"))
    var memoryBudget: ByteCount = ByteCount(EvaluationBudget.standard.memory)

    func validate() throws {
        guard workBudget > 0 else { throw ValidationError("--work-budget must be a positive number of steps") }
    }

    /// Runs `first` (commands), then the files, then the shell when asked for or when there
    /// are no files, with the evaluation budget of the options, and SIGINT interrupting the
    /// running command (see `InterruptSignal`). `reading` names the files the commands read,
    /// which `--record` must not name.
    func run(files: [String], first commands: [String], reading: [String] = [], hosting stores: [HostedStore]) throws {
        let interrupts = InterruptSignal()
        defer { interrupts.restore() }
        try EvaluationBudget(work: workBudget, memory: memoryBudget.bytes).during {
            try interrupts.interruption.during {
                try run(files: files, first: commands, reading: reading, hosting: stores, interrupts: interrupts)
            }
        }
    }

    private func run(files: [String], first commands: [String], reading: [String], hosting stores: [HostedStore],
                     interrupts: InterruptSignal) throws {
        Terminal.prepareProcess()
        let shell = Shell(options: ShellOptions(json: json, color: color.isEnabled(for: STDOUT_FILENO), echo: echo,
                                                width: Terminal.width))
        let output = OutputWriter()
        do throws(ShellError) { try shell.host(stores) } catch {
            output.write(OutputLine("\(ExecutableName.current): error: \(error.message)", to: .error))
            output.flush()
            throw ExitCode(2)
        }
        defer {
            shell.finish()
            output.flush()
        }
        var failed = false
        try shell.reading(reading + files) {
            try runScripts(files: files, first: commands, in: shell, output: output, interrupts: interrupts, failed: &failed)
        }
        // An interrupted script ends the run, unless the shell is to stay (-i): then the prompt
        // comes, as after a failing script.
        if interrupts.wasReceived && !interactive { throw ExitCode(130) }
        if failed && !keepGoing && !interactive { throw ExitCode.failure }

        let standalone = files.isEmpty && commands.isEmpty
        if (standalone || interactive) && !shell.hasQuit {
            if isatty(STDIN_FILENO) != 0 {
                interrupts.clear()
                if isatty(STDOUT_FILENO) != 0 && !json { ConfigFile.apply(to: shell, output: output) }
                if isatty(STDOUT_FILENO) != 0 { shell.editor = TerminalEditor.fromEnvironment() }
                let session = InteractiveSession(
                    shell: shell, historyFile: historyFile ?? HistoryFile.defaultPath(), output: output, interrupts: interrupts,
                    pager: noPager || isatty(STDOUT_FILENO) == 0 ? nil : Pager.fromEnvironment())
                session.run()
                return
            }
            // With -i, an interrupted script before this is over; without, a SIGINT from now on
            // (none came before: the run would have ended) ends the run.
            if interactive { interrupts.clear() }
            failed = StandardInputScript.run(shell: shell, keepGoing: keepGoing, output: output, interrupts: interrupts) || failed
            if interrupts.wasReceived { throw ExitCode(130) }
        }
        if failed { throw ExitCode.failure }
    }

    /// Starts the recording, if asked for, then runs the commands and the files.
    private func runScripts(files: [String], first commands: [String], in shell: Shell, output: OutputWriter, interrupts: InterruptSignal,
                            failed: inout Bool) throws {
        if let record {
            let outcome = shell.execute("record \(Replay.quoted(record))" + (force ? " --force" : ""))
            guard outcome.status == .success else {
                outcome.lines.forEach(output.write)
                throw ExitCode(2)
            }
        }
        // At a terminal the shell that comes next follows between prompts; a script run follows
        // before it goes on.
        let followsAtPrompt = interactive && isatty(STDIN_FILENO) != 0
        for command in commands {
            var runner = ScriptRunner(shell: shell, name: ExecutableName.current, keepGoing: keepGoing, write: output.write)
            runner.followsInPlace = !followsAtPrompt
            runner.flushOutput = output.flush
            runner.run(Array((command + "\n").utf8), until: interrupts)
            if runner.failures > 0 { failed = true }
        }
        for file in files where !shell.hasQuit && (!failed || keepGoing) && !interrupts.wasReceived {
            let contents: ScriptLines
            do throws(FileProblem) { contents = try ScriptLines(path: file, regularOnly: false) } catch {
                output.write(OutputLine("\(ExecutableName.current): error: cannot read '\(file)': \(error.detail)", to: .error))
                throw ExitCode(2)
            }
            var runner = ScriptRunner(shell: shell, name: file, keepGoing: keepGoing, write: output.write)
            runner.followsInPlace = !followsAtPrompt
            runner.flushOutput = output.flush
            runner.run(contents, until: interrupts)
            if runner.failures > 0 {
                failed = true
                // With -i, a failing script still leaves the shell open for a look around.
                if !keepGoing { break }
            }
        }
    }
}

/// When to colour output.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never

    func isEnabled(for descriptor: Int32) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            let environment = ProcessInfo.processInfo.environment
            let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
            return !noColor && isatty(descriptor) != 0 && environment["TERM"] != "dumb"
        }
    }
}

/// A number of bytes, written `1048576`, `512K`, `64M` or `1G`.
struct ByteCount: ExpressibleByArgument {
    var bytes: Int

    init(_ bytes: Int) { self.bytes = bytes }

    init?(argument: String) {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = Substring(argument)
        var unit = 1
        if let last = digits.last?.uppercased().first, let multiplier = units[last] {
            unit = multiplier
            digits = digits.dropLast()
        }
        guard let count = Int(digits), count > 0 else { return nil }
        let (bytes, overflow) = count.multipliedReportingOverflow(by: unit)
        guard !overflow else { return nil }
        self.bytes = bytes
    }

    var defaultValueDescription: String { "\(bytes / (1 << 20))M" }
}

extension ScriptRunner {
    /// Runs every line of `bytes`, then finishes; stops after the command during which SIGINT
    /// arrived, at the line after it.
    mutating func run(_ bytes: [UInt8], until interrupts: InterruptSignal) {
        var splitter = LineSplitter()
        var lines = splitter.append(bytes)
        if let last = splitter.finish() { lines.append(last) }
        var index = 0
        run(next: { () -> LineSplitter.Line? in
            defer { index += 1 }
            return index < lines.count ? lines[index] : nil
        }, until: interrupts)
    }

    /// Runs every line `lines` reads (a file, read as a stream), then finishes; stops as
    /// `run(_:until:)` does.
    mutating func run(_ lines: ScriptLines, until interrupts: InterruptSignal) {
        run(next: lines.next, until: interrupts)
    }

    private mutating func run(next: () -> LineSplitter.Line?, until interrupts: InterruptSignal) {
        var line = next()
        while let current = line {
            feed(current)
            if isStopped { return }
            // Read ahead: whether there is a line after the one interrupted.
            line = next()
            if interrupts.wasReceived { return stopInterrupted(beforeLine: line != nil) }
        }
        finish()
    }
}
