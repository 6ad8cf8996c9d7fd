import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

/// Runs a script, line by line, through a shell: no prompt, and by default a stop at the first
/// failing command (PatchbayHost.docc/CommandLanguageTour.md).
///
/// Lines can be fed as they arrive (a pipe) or all at once (a file).
///
/// After `inspect FILE --follow`, the runner reads the growing file in place before the next
/// line runs (unless `followsInPlace` is off): it prints each new action as it arrives until
/// Ctrl-C (SIGINT), which stops the following and nothing else, or until the file has not grown
/// for `--idle` seconds; what was read stays for the commands after it.
@_spi(Shell)
public struct ScriptRunner {
    /// The name errors carry (`demo.pb`, `<stdin>`).
    public let name: String
    /// Whether to go on after a failing command.
    public let keepGoing: Bool
    private let shell: Shell
    private let write: (OutputLine) -> Void
    private var assembler = InputAssembler()
    private var lineNumber = 0
    private var commandStart = 1
    /// How many commands ran (blank lines and comments are not commands).
    public private(set) var commandCount = 0
    /// How many commands failed.
    public private(set) var failures = 0
    /// Whether the script stopped early: at an error (without `keepGoing`), at `quit` or at an
    /// interrupt.
    public private(set) var isStopped = false
    /// Whether the last command failed because it was interrupted.
    private var lastCommandWasInterrupted = false
    /// Whether `inspect --follow` is followed here, before the next line runs; off when the
    /// caller reads the followed file between commands (the interactive shell after the
    /// commands of its command line).
    public var followsInPlace = true
    /// Called after each batch of output while following, so that it shows as it comes.
    public var flushOutput: () -> Void = {}

    /// How long following waits before reading the file again when nothing new came.
    static let followPause: Duration = .milliseconds(10)

    public init(shell: Shell, name: String, keepGoing: Bool, write: @escaping (OutputLine) -> Void) {
        self.shell = shell
        self.name = name
        self.keepGoing = keepGoing
        self.write = write
    }

    /// Runs every line of `text`, then finishes.
    public mutating func run(_ bytes: some Sequence<UInt8>) {
        var splitter = LineSplitter()
        for line in splitter.append(bytes) {
            feed(line)
            if isStopped { return }
        }
        if let last = splitter.finish() { feed(last) }
        finish()
    }

    /// Runs every line `lines` reads, then finishes.
    package mutating func run(_ lines: ScriptLines) {
        while let line = lines.next() {
            feed(line)
            if isStopped { return }
        }
        finish()
    }

    /// Takes one physical line.
    public mutating func feed(_ line: LineSplitter.Line) {
        lineNumber += 1
        guard !isStopped else { return }
        if !assembler.isPending { commandStart = lineNumber }
        if line.length > InputLimits.maxLineBytes {
            let shown = String(decoding: line.bytes.prefix(60), as: UTF8.self) + "..."
            fail(ShellError(.lineTooLong(bytes: line.isWhole ? line.length : nil, limit: InputLimits.maxLineBytes), at: 0..<0), text: shown)
            assembler.reset()
            return
        }
        guard let text = String(validating: line.bytes, as: UTF8.self) else {
            let offset = UTF8Validation.firstInvalidOffset(in: line.bytes) ?? 0
            let shown = String(decoding: line.bytes, as: UTF8.self)
            let position = String(decoding: line.bytes[..<offset], as: UTF8.self).utf8.count
            fail(ShellError(.invalidUTF8, at: position..<position + 1), text: shown)
            assembler.reset()
            return
        }
        if shell.options.echo && !shell.options.json {
            write(OutputLine(Self.transcriptLine(text, continuing: assembler.isPending, context: shell.promptContext)))
        }
        guard let command = assembler.add(text) else { return }
        let outcome = shell.execute(command, at: SourceOrigin(name: name, line: commandStart))
        outcome.lines.forEach(write)
        if outcome.status != .empty { commandCount += 1 }
        // A command that failed with an interrupt pending was the one interrupted: its error says so.
        lastCommandWasInterrupted = outcome.status == .failure && Interruption.current?.isRequested == true
        if outcome.status == .failure { countFailure() }
        if shell.hasQuit { isStopped = true }
        if followsInPlace && shell.isFollowing { follow() }
    }

    /// Reads the followed file as it grows, printing what arrives, until Ctrl-C or `--idle`.
    private func follow() {
        let interruption = Interruption.current
        flushOutput()
        while shell.isFollowing {
            if let interruption, interruption.isRequested {
                // Ctrl-C stops the following, not the script.
                interruption.forgetRequests()
                shell.stopFollowing().forEach(write)
                break
            }
            let lines = shell.readFollowed()
            lines.forEach(write)
            flushOutput()
            if lines.isEmpty { Thread.sleep(forTimeInterval: Self.followPause.seconds) }
        }
    }

    /// Stops the script at an interrupt (SIGINT): when the last command ended before the
    /// interrupt stopped it, and `hasNextLine`, the error names the next line as the one the
    /// script stopped at. (An interrupted command's own error already says where.)
    public mutating func stopInterrupted(beforeLine hasNextLine: Bool) {
        defer { isStopped = true }
        guard !isStopped, !lastCommandWasInterrupted, hasNextLine else { return }
        let origin = SourceOrigin(name: name, line: lineNumber + 1)
        shell.report(ShellError(.interrupted, at: 0..<0), command: "", at: origin).forEach(write)
    }

    /// Ends the input: a command still open is an error, and so is a transaction still open
    /// (its writes are dropped).
    public mutating func finish() {
        guard !isStopped else { return }
        if assembler.isPending, let open = assembler.openConstruct {
            lineNumber += 1
            fail(ShellError(.unterminatedInput(open), at: 0..<0), text: "")
            assembler.reset()
        }
        if let dropped = shell.graph.dropOpenTransaction() { fail(ShellError(.graph(dropped), at: 0..<0), text: "") }
    }

    /// A line as it would look typed at the prompt, which says what `context` says about the
    /// session (`Shell.promptContext`); comments and blank lines print as they are.
    static func transcriptLine(_ line: String, continuing: Bool, context: String) -> String {
        if continuing { return Prompt.continuation + line }
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        return trimmed.isEmpty || trimmed.hasPrefix("#") ? line : Prompt.primary(program: "patchbay", context: context) + line
    }

    private mutating func fail(_ error: ShellError, text: String) {
        let origin = SourceOrigin(name: name, line: commandStart)
        shell.report(error, command: text, at: origin).forEach(write)
        countFailure()
    }

    private mutating func countFailure() {
        failures += 1
        if !keepGoing { isStopped = true }
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// Finds where bytes stop being UTF-8.
enum UTF8Validation {
    /// The offset of the first byte that does not start or continue a valid UTF-8 sequence.
    static func firstInvalidOffset(in bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            switch lead {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return index
            }
            guard index + length <= bytes.count,
                String(validating: bytes[index..<index + length], as: UTF8.self) != nil
            else { return index }
            index += length
        }
        return nil
    }
}
