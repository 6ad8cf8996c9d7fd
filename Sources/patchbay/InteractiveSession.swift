import Foundation
import PatchbayShell
import Synchronization

/// The interactive shell on a terminal: prompts, line editing and history (libedit, or plain
/// lines on a `dumb` terminal), multi-line commands, and the output of each command.
///
/// Prompts are `patchbay> `, and `...> ` while a bracket or string is open. Ctrl-C abandons
/// the line and any pending multi-line command; Ctrl-D on an empty line ends the session.
/// A command is remembered as one history entry, its physical lines joined by newlines, unless
/// its first line starts with a space; a recalled multi-line entry runs line by line again.
struct InteractiveSession {
    let shell: Shell
    let historyFile: String?
    let output: OutputWriter

    func run() {
        let interrupts = InterruptGuard()
        defer { interrupts.restore() }
        let history = CommandHistory(path: historyFile)
        let reader: any LineReader
        if Terminal.supportsEditing, let history,
           let editor = LineEditor(name: "patchbay", history: history, complete: shell.complete) {
            reader = editor
        } else {
            reader = PlainLineReader(history: history, interrupts: interrupts)
        }

        var assembler = InputAssembler()
        var pendingLines: [String] = []
        let color = shell.options.color
        let primary = Prompt(text: "patchbay> ", color: color ? "1;36" : nil)
        let continuation = Prompt(text: "...> ", color: color ? "2" : nil)

        while !shell.hasQuit {
            output.flush()
            switch reader.read(prompt: assembler.isPending ? continuation : primary) {
            case .endOfInput:
                FileHandle.standardOutput.write(Data("\n".utf8))
                return
            case .interrupt:
                assembler.reset()
                pendingLines.removeAll()
            case .line(let text):
                for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                    pendingLines.append(line)
                    guard let command = assembler.add(line) else { continue }
                    remember(pendingLines, in: reader)
                    pendingLines.removeAll()
                    shell.execute(command).lines.forEach(output.write)
                    output.flush()
                    interrupts.clear()
                    if shell.hasQuit { break }
                }
            }
        }
        output.flush()
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

/// Set by the SIGINT handler, read and cleared by `InterruptGuard`.
private let interruptReceived = Atomic<Bool>(false)

/// What SIGINT does while the interactive session runs: it sets a flag and nothing else, so
/// Ctrl-C never ends the shell.
///
/// While libedit edits a line the terminal is in `-isig` mode and ^C is an ordinary key bound to
/// `patchbay-interrupt`; no signal is involved. While a command runs the terminal is back in
/// cooked mode, where ^C raises SIGINT: commands are short and synchronous, so the handler only
/// records it and the session clears the flag after the command. Without libedit (a `dumb`
/// terminal) SIGINT interrupts the blocking read (the handler is installed without
/// `SA_RESTART`), which the plain reader reports as an abandoned line.
final class InterruptGuard {
    private var previous = sigaction()

    init() {
        interruptReceived.store(false, ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in interruptReceived.store(true, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, &previous)
    }

    /// Whether SIGINT arrived since the last call.
    @discardableResult
    func clear() -> Bool {
        interruptReceived.exchange(false, ordering: .relaxed)
    }

    /// Puts back the SIGINT action from before the session.
    func restore() {
        sigaction(SIGINT, &previous, nil)
    }
}
