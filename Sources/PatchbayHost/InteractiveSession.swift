import Foundation
@_spi(Shell) import PatchbayShell

/// The interactive shell on a terminal: prompts, line editing and history (libedit, or plain
/// lines on a `dumb` terminal), multi-line commands, and the output of each command. It starts
/// with one line of hints (`hint`), unless the output is JSON.
///
/// Prompts are the program's name (`patchbay> `, or the app's own inspector's name when it hosts
/// stores: `todo-inspector> `), followed by what the session is at when there is something to
/// say (`patchbay app@b1 #12/40*> `: see `Shell.promptContext`), and `...> ` while a bracket or
/// string is open. Ctrl-C abandons the line and any pending multi-line command, and interrupts
/// a running command (see `InterruptSignal`); Ctrl-D on an empty line ends the session.
/// A command is remembered as one history entry, its physical lines joined by newlines, unless
/// its first line starts with a space; a recalled multi-line entry runs line by line again.
struct InteractiveSession {
    let shell: Shell
    let historyFile: String?
    let output: OutputWriter
    /// SIGINT, handled for the whole run of the executable.
    let interrupts: InterruptSignal
    /// Where long output goes, when paging is on (`nil`: `--no-pager`, or `PAGER` empty).
    let pager: Pager?

    func run() {
        let history = CommandHistory(path: historyFile)
        let reader: any LineReader
        if Terminal.supportsEditing, let history,
           let editor = LineEditor(name: "patchbay", history: history, complete: shell.complete) {
            editor.interrupts = interrupts
            reader = editor
        } else {
            reader = PlainLineReader(history: history, interrupts: interrupts)
        }

        if !shell.options.json {
            output.write(OutputLine(Self.hint))
        }
        // A long command's progress goes on the terminal's last line, cleared when it ends.
        if isatty(STDERR_FILENO) != 0 {
            shell.progressHandler = { text in
                FileHandle.standardError.write(Data(("\r\u{1B}[2K" + (text ?? "")).utf8))
            }
        }

        var assembler = InputAssembler()
        var pendingLines: [String] = []
        let color = shell.options.color
        let program = ExecutableName.current
        // The primary prompt says what the session is at (see `Shell.promptContext`), so it is
        // made again before each read.
        var primary: Prompt { Prompt(text: PatchbayShell.Prompt.primary(program: program, context: shell.promptContext), color: color ? "1;36" : nil) }
        let continuation = Prompt(text: "...> ", color: color ? "2" : nil)

        while !shell.hasQuit {
            // What a followed recording got since the last prompt comes first.
            fitted(shell.readFollowed()).forEach(output.write)
            output.flush()
            switch reader.read(prompt: assembler.isPending ? continuation : primary, whileIdle: followingWork()) {
            case .endOfInput:
                FileHandle.standardOutput.write(Data("\n".utf8))
                return
            case .interrupt:
                assembler.reset()
                pendingLines.removeAll()
                // Ctrl-C at the prompt also stops following a recording.
                shell.stopFollowing().forEach(output.write)
            case .line(let text):
                for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                    pendingLines.append(line)
                    guard let command = assembler.add(line) else { continue }
                    remember(pendingLines, in: reader)
                    pendingLines.removeAll()
                    // A Ctrl-C typed before the command started does not stop it.
                    interrupts.clear()
                    run(command)
                    interrupts.clear()
                    if shell.hasQuit { break }
                }
            }
        }
        output.flush()
    }

    /// The line an interactive start prints before the first prompt.
    static let hint = "Type 'help' or '?' for the commands, 'COMMAND?' for one of them; Tab completes; Ctrl-D quits."

    /// Runs `command` and prints its output, through the pager when it is long and paging is
    /// on. The terminal's size is read again for each command: the window may have changed.
    /// Lines wider than the terminal are broken at blanks (see `fitted`).
    private func run(_ command: String) {
        shell.options.height = pager == nil ? nil : Terminal.height
        shell.options.width = Terminal.width
        var outcome = shell.execute(command)
        outcome.lines = fitted(outcome.lines)
        // `set pager` is read after the command: `set pager off` may be the command.
        if let pager, shell.options.settings.pager, outcome.isLong {
            pager.show(outcome.lines, through: output)
        } else {
            outcome.lines.forEach(output.write)
            output.flush()
        }
    }

    /// `lines` with those wider than the terminal broken at blanks (`OutputLine.wrapped`), on
    /// the streams that are the terminal (the window's width of the moment), unless the output
    /// is JSON.
    private func fitted(_ lines: [OutputLine]) -> [OutputLine] {
        guard !shell.options.json, !lines.isEmpty else { return lines }
        let width = Terminal.width
        let wraps = (output: isatty(STDOUT_FILENO) != 0, error: isatty(STDERR_FILENO) != 0)
        return lines.flatMap { line in
            (line.stream == .output ? wraps.output : wraps.error) ? line.wrapped(toWidth: width) : [line]
        }
    }

    /// While a recording is followed (`inspect --follow`): reads what arrives while the user is
    /// idle at the prompt, a few times a second.
    private func followingWork() -> IdleWork? {
        guard shell.isFollowing else { return nil }
        return IdleWork(interval: .milliseconds(100)) { [shell, self] in
            shell.isFollowing ? fitted(shell.readFollowed()) : nil
        }
    }

    /// Adds a command's lines to the history as one entry; blank commands and commands whose
    /// first line starts with a space are not kept. Trailing blanks are dropped, as libedit
    /// would drop one when the entry is recalled.
    private func remember(_ lines: [String], in reader: any LineReader) {
        guard let first = lines.first, !first.hasPrefix(" ") else { return }
        var entry = lines.joined(separator: "\n")
        while let last = entry.unicodeScalars.last, last == " " || last == "\t" || last == "\n" {
            entry.unicodeScalars.removeLast()
        }
        guard !entry.isEmpty else { return }
        reader.remember(entry)
    }
}
