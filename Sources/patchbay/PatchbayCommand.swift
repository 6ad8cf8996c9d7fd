import ArgumentParser
import Foundation
import PatchbayShell

/// The `patchbay` command line (SPEC section 1).
@main
struct PatchbayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "patchbay",
        abstract: "An interactive shell for exploring dataflow and debugging reducers.",
        discussion: """
            With no FILE and a terminal on standard input, starts the interactive shell. Otherwise runs \
            the FILEs (or standard input) as scripts: no prompt, and a stop at the first error with exit \
            status 1 unless --keep-going is given. Type 'help' in the shell for the commands.
            """,
        version: PatchbayVersion.current
    )

    @Argument(help: "Script files to run in order.", completion: .file())
    var files: [String] = []

    @Flag(name: .shortAndLong, help: "Stay interactive after running the files.")
    var interactive = false

    @Flag(help: "Write one JSON object per line instead of text.")
    var json = false

    @Flag(help: "Go on after a failing command (the exit status is still 1).")
    var keepGoing = false

    @Flag(help: "Print each script line after a prompt before its output, like a transcript.")
    var echo = false

    @Option(help: ArgumentHelp("Where to keep the interactive history.", valueName: "path"))
    var historyFile: String?

    @Option(help: "Colour output: auto (a terminal without NO_COLOR), always or never.")
    var color: ColorChoice = .auto

    mutating func run() throws {
        Terminal.prepareProcess()
        let shell = Shell(options: ShellOptions(json: json, color: color.isEnabled(for: STDOUT_FILENO), echo: echo))
        let output = OutputWriter()
        defer { output.flush() }
        var failed = false

        for file in files where !shell.hasQuit {
            guard let contents = FileManager.default.contents(atPath: file) else {
                output.write(OutputLine("patchbay: error: cannot read '\(file)': \(Terminal.fileProblem(file))", to: .error))
                throw ExitCode(2)
            }
            var runner = ScriptRunner(shell: shell, name: file, keepGoing: keepGoing, write: output.write)
            runner.run([UInt8](contents))
            if runner.failures > 0 {
                failed = true
                // With -i, a failing script still leaves the shell open for a look around.
                if !keepGoing { break }
            }
        }
        if failed && !keepGoing && !interactive { throw ExitCode.failure }

        if (files.isEmpty || interactive) && !shell.hasQuit {
            if isatty(STDIN_FILENO) != 0 {
                let session = InteractiveSession(shell: shell, historyFile: historyFile ?? HistoryFile.defaultPath(), output: output)
                session.run()
                return
            }
            failed = StandardInputScript.run(shell: shell, keepGoing: keepGoing, output: output) || failed
        }
        if failed { throw ExitCode.failure }
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
