import Foundation
import Testing

/// What a newcomer meets at the prompt, on a real pseudo-terminal: the hint line, `?` for help,
/// Tab Tab, Ctrl-R's prompt and a resized window.
@Suite("Line editing for a newcomer", .enabled(if: TerminalHarness.isAvailable, "needs util-linux script(1)"))
struct LineEditingTerminalTests {
    static let prompt = TerminalHarness.prompt
    static let hint = "Type 'help' or '?' for the commands, 'COMMAND?' for one of them; Tab completes; Ctrl-D quits."

    private func occurrences(of text: String, in transcript: String) -> Int {
        transcript.components(separatedBy: text).count - 1
    }

    @Test func anInteractiveStartPrintsOneHintLineBeforeThePrompt() async throws {
        let scratch = try TerminalTests.Scratch()
        let shell = try scratch.start()
        #expect(await shell.expect(Self.hint + "\r\n"), "no hint: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        shell.send("= 1\r")
        #expect(await shell.expect(Self.prompt))
        #expect(occurrences(of: Self.hint, in: shell.transcript) == 1)
        shell.send(TerminalTests.ctrlD)
        #expect(await shell.exitStatus() == 0)
    }

    @Test func aQuestionMarkShowsHelpAndCommandQuestionMarkThatCommandsHelp() async throws {
        let scratch = try TerminalTests.Scratch()
        let shell = try scratch.start(["--no-pager"])
        #expect(await shell.expect(Self.prompt))
        shell.send("?\r")
        #expect(await shell.expect("General:"), "? did not show help: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        shell.send("load?\r")
        #expect(await shell.expect("load FILE"), "load? did not show load's help: \(shell.transcript)")
        #expect(await shell.expect("Example:"), "load? did not show load's help: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        #expect(!shell.transcript.contains("error:"), "\(shell.transcript)")
        shell.send(TerminalTests.ctrlD)
        #expect(await shell.exitStatus() == 0)
    }

    /// The first Tab rings the bell when it has nothing to add, the second lists the
    /// candidates, and a third does not list them again.
    @Test func tabTabListsTheCandidatesOnce() async throws {
        let scratch = try TerminalTests.Scratch()
        try FileManager.default.createDirectory(atPath: scratch.path + "/sessions", withIntermediateDirectories: true)
        try "".write(toFile: scratch.path + "/sessions/todos.pb", atomically: true, encoding: .utf8)
        try "".write(toFile: scratch.path + "/sessions/todos.jsonl", atomically: true, encoding: .utf8)
        let shell = try scratch.start()
        #expect(await shell.expect(Self.prompt))
        shell.send("load sessions/todos.")
        #expect(await shell.expect("todos."))
        shell.send("\t\t\t")
        #expect(await shell.expect("todos.jsonl"), "Tab Tab did not list the candidates: \(shell.transcript)")
        // Keys are handled in order: what the Tabs printed is all before the ^C.
        shell.send(TerminalTests.ctrlC)
        #expect(await shell.expect("^C\r\n" + Self.prompt))
        #expect(occurrences(of: "todos.jsonl", in: shell.transcript) == 1, "\(shell.transcript)")
        shell.send(TerminalTests.ctrlD)
        #expect(await shell.exitStatus() == 0)
    }

    @Test func ctrlRSearchesWithAReadablePrompt() async throws {
        let scratch = try TerminalTests.Scratch()
        let shell = try scratch.start()
        #expect(await shell.expect(Self.prompt))
        shell.send("= 20 + 22\r")
        #expect(await shell.expect(Self.prompt))
        shell.send("= 1 + 1\r")
        #expect(await shell.expect(Self.prompt))
        shell.send("\u{12}")
        #expect(await shell.expect("(reverse-i-search)'': "), "no search prompt: \(shell.transcript)")
        shell.send("20")
        #expect(await shell.expect("(reverse-i-search)'20': = 20 + 22"), "no match shown: \(shell.transcript)")
        #expect(!shell.transcript.contains("bck:"))
        shell.send("\r")
        #expect(await shell.expect("\n42\r\n"), "Enter did not run the match: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        // Ctrl-G gives the line back as it was.
        shell.send("= 5")
        #expect(await shell.expect("= 5"))
        shell.send("\u{12}1 +\u{07}\r")
        #expect(await shell.expect("\n5\r\n"), "Ctrl-G did not give the line back: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        shell.send(TerminalTests.ctrlD)
        #expect(await shell.exitStatus() == 0)
    }

    @Test func aResizedWindowDrawsTheEditedLineAgain() async throws {
        let scratch = try TerminalTests.Scratch()
        let shell = try scratch.start(columns: 80)
        #expect(await shell.expect(Self.prompt))
        shell.send("= 6 * 7")
        #expect(await shell.expect("= 6 * 7"))
        #expect(shell.resize(columns: 60, rows: 30), "could not resize the terminal")
        #expect(await shell.expect(Self.prompt), "the line was not drawn again: \(shell.transcript)")
        #expect(await shell.expect("= 6 * 7"), "the line was not drawn again intact: \(shell.transcript)")
        shell.send("\r")
        #expect(await shell.expect("\n42\r\n"), "the line did not survive the resize: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        shell.send(TerminalTests.ctrlD)
        #expect(await shell.exitStatus() == 0)
    }
}
