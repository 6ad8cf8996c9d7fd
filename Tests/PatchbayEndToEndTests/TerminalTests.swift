import Foundation
import Testing

/// The interactive shell on a real pseudo-terminal (libedit): commands, history recall and
/// persistence, Tab completion, Ctrl-C and Ctrl-D. Each test waits for the prompt before it
/// types, because keys sent before libedit switches the terminal to raw mode are echoed twice.
@Suite("The interactive shell on a terminal", .enabled(if: TerminalHarness.isAvailable, "needs util-linux script(1)"))
struct TerminalTests {
    static let up = "\u{1b}[A"
    static let ctrlC = "\u{03}"
    static let ctrlD = "\u{04}"
    static let prompt = TerminalHarness.prompt

    /// A temporary directory (also the shell's `HOME`) with a history file path in it.
    final class Scratch {
        let path = NSTemporaryDirectory() + "patchbay-terminal-" + UUID().uuidString
        var historyFile: String { path + "/state/history" }

        init() throws {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }

        func start(_ arguments: [String] = [], environment: [String: String] = [:], columns: Int? = nil) throws -> TerminalHarness {
            try TerminalHarness(directory: path, historyFile: historyFile, arguments: arguments, environment: environment, columns: columns)
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    @Test func aCommandRunsAndCtrlDOnAnEmptyLineExitsWithStatus0() async throws {
        let scratch = try Scratch()
        let shell = try scratch.start()
        #expect(await shell.expect(Self.prompt), "no prompt: \(shell.transcript)")
        shell.send("= 1 + 2\r")
        #expect(await shell.expect("\n3\r\n"), "no result: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        shell.send(Self.ctrlD)
        #expect(await shell.exitStatus() == 0, "transcript: \(shell.transcript)")
    }

    @Test func upRecallsThePreviousLine() async throws {
        let scratch = try Scratch()
        let shell = try scratch.start()
        #expect(await shell.expect(Self.prompt))
        shell.send("= 20 + 22\r")
        #expect(await shell.expect("42"))
        #expect(await shell.expect(Self.prompt))
        shell.send(Self.up)
        #expect(await shell.expect("= 20 + 22"), "Up did not recall: \(shell.transcript)")
        shell.send("\r")
        #expect(await shell.expect("42"), "the recalled line did not run: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        shell.send(Self.ctrlD)
        #expect(await shell.exitStatus() == 0)
    }

    @Test func tabCompletesACommandWord() async throws {
        let scratch = try Scratch()
        let shell = try scratch.start()
        #expect(await shell.expect(Self.prompt))
        shell.send("hel")
        #expect(await shell.expect("hel"))
        shell.send("\t")
        // libedit redraws with cursor movements, so the screen is checked through the result:
        // `help load` proves that Tab inserted "p " (`helpload` is an unknown command).
        #expect(await shell.expect("p "), "Tab did not complete: \(shell.transcript)")
        shell.send("load\r")
        #expect(await shell.expect("run the commands of a script file"), "Tab did not insert \"help \": \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        shell.send(Self.ctrlD)
        #expect(await shell.exitStatus() == 0)
    }

    @Test func ctrlCAbandonsTheLineAndThePendingCommandButNotTheShell() async throws {
        let scratch = try Scratch()
        let shell = try scratch.start()
        #expect(await shell.expect(Self.prompt))
        shell.send("= 1 +")
        #expect(await shell.expect("= 1 +"))
        shell.send(Self.ctrlC)
        #expect(await shell.expect("^C\r\n" + Self.prompt), "no fresh prompt after Ctrl-C: \(shell.transcript)")
        shell.send("= [1,\r")
        #expect(await shell.expect("...> "), "no continuation prompt: \(shell.transcript)")
        shell.send(Self.ctrlC)
        #expect(await shell.expect(Self.prompt), "Ctrl-C kept the pending command: \(shell.transcript)")
        shell.send("= 6 * 7\r")
        #expect(await shell.expect("\n42\r\n"), "the shell did not survive Ctrl-C: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        shell.send(Self.ctrlD)
        #expect(await shell.exitStatus() == 0)
    }

    @Test func ctrlCInterruptsARunningEvaluationAndKeepsTheSession() async throws {
        let scratch = try Scratch()
        // A budget the evaluation below does not reach before the interrupt.
        let shell = try scratch.start(["--work-budget", "1000000000000", "--memory-budget", "64G"])
        #expect(await shell.expect(Self.prompt))
        shell.send("var kept = 41\r")
        #expect(await shell.expect(Self.prompt))
        shell.send("= len(map(range(1000000), x => map(range(1000000), y => x + y)))\r")
        // The Ctrl-C must reach the evaluation, not the line editor: one that comes before the
        // line is read is a byte of input, which nothing reads while the evaluation runs. So
        // it is sent again until the evaluation has started and stops.
        var sent = ContinuousClock.now
        var interrupted = false
        for _ in 0..<20 where !interrupted {
            try await Task.sleep(for: .milliseconds(250))
            sent = ContinuousClock.now
            shell.send(Self.ctrlC)
            interrupted = await shell.expect("error: interrupted; nothing changed", timeout: .seconds(2))
        }
        #expect(interrupted, "not interrupted: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt), "no prompt after the interrupt: \(shell.transcript)")
        // Milliseconds in a release build (measured by hand); seconds allow the sanitizers' builds on
        // a loaded machine, where 2 s was once just missed, and still tell a reaction from an
        // evaluation that runs to its end.
        #expect(ContinuousClock.now - sent < .seconds(5), "the interrupt took \(ContinuousClock.now - sent)")
        shell.send("= kept + 1\r")
        #expect(await shell.expect("\n42\r\n"), "the session lost its state: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        shell.send(Self.ctrlD)
        let status = await shell.exitStatus()
        #expect(status == 0, "status \(String(describing: status)); transcript: \(shell.transcript)")
    }

    @Test func aMultiLineCommandRunsAfterTheContinuationPrompt() async throws {
        let scratch = try Scratch()
        let shell = try scratch.start()
        #expect(await shell.expect(Self.prompt))
        shell.send("= [1,\r")
        #expect(await shell.expect("...> "))
        shell.send("2]\r")
        #expect(await shell.expect("[1, 2]"), "transcript: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        shell.send(Self.ctrlD)
        #expect(await shell.exitStatus() == 0)
    }

    @Test func historyIsSavedAndRecalledByTheNextLaunch() async throws {
        let scratch = try Scratch()
        let first = try scratch.start()
        #expect(await first.expect(Self.prompt))
        first.send("= 111 + 1\r")
        #expect(await first.expect("112"))
        #expect(await first.expect(Self.prompt))
        first.send("= [5,\r")
        #expect(await first.expect("...> "))
        first.send("6]\r")
        #expect(await first.expect("[5, 6]"))
        #expect(await first.expect(Self.prompt))
        first.send(" = 999\r")
        #expect(await first.expect("999"))
        #expect(await first.expect(Self.prompt))
        first.send(Self.ctrlD)
        #expect(await first.exitStatus() == 0)

        let saved = try String(contentsOfFile: scratch.historyFile, encoding: .utf8)
        // libedit's format: a header line, then one strvis-encoded entry a line.
        #expect(saved.hasPrefix("_HiStOrY_V2_\n"), "history file: \(saved)")
        #expect(saved.contains("=\\040111\\040+\\0401\n"), "history file: \(saved)")
        #expect(saved.contains("=\\040[5,\\0126]"), "a multi-line command is one entry: \(saved)")
        #expect(!saved.contains("999"), "a line starting with a space is not saved: \(saved)")

        let second = try scratch.start()
        #expect(await second.expect(Self.prompt))
        second.send(Self.up)
        #expect(await second.expect("6]"), "Up did not recall the multi-line entry: \(second.transcript)")
        second.send(Self.up + "\r")
        #expect(await second.expect("112"), "Up did not recall the first session: \(second.transcript)")
        #expect(await second.expect(Self.prompt))
        second.send(Self.ctrlD)
        #expect(await second.exitStatus() == 0)
    }

    @Test func tabCompletesAPathIntoAStoresState() async throws {
        let scratch = try Scratch()
        let shell = try scratch.start()
        #expect(await shell.expect(Self.prompt))
        shell.send("store app = {user: {name: 'Max'}}\r")
        #expect(await shell.expect(Self.prompt))
        shell.send("state app.user.na")
        #expect(await shell.expect("na"))
        shell.send("\t\r")
        // The result proves the completion: `app.user.na` would be an error.
        #expect(await shell.expect("\"Max\""), "Tab did not complete the path: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        shell.send(Self.ctrlD)
        #expect(await shell.exitStatus() == 0)
    }

    /// A file name with dots completes past them (`todos.p` to `todos.pb`), and a second Tab
    /// lists the candidates when there are several.
    @Test func tabCompletesAFileNameWithDotsAndTabTabListsTheCandidates() async throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(atPath: scratch.path + "/sessions", withIntermediateDirectories: true)
        try "= 40 + 2\n".write(toFile: scratch.path + "/sessions/todos.pb", atomically: true, encoding: .utf8)
        try "".write(toFile: scratch.path + "/sessions/todos.jsonl", atomically: true, encoding: .utf8)
        let shell = try scratch.start()
        #expect(await shell.expect(Self.prompt))
        shell.send("load sessions/todos.p")
        #expect(await shell.expect("todos.p"))
        shell.send("\t\r")
        // The result proves the completion: `sessions/todos.p` is no file.
        #expect(await shell.expect("42"), "Tab did not complete the file name: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        shell.send("load sessions/todos.")
        #expect(await shell.expect("todos."))
        shell.send("\t\t")
        #expect(await shell.expect("todos.jsonl"), "Tab Tab did not list the candidates: \(shell.transcript)")
        #expect(await shell.expect("todos.pb"), "Tab Tab did not list both candidates: \(shell.transcript)")
        shell.send(Self.ctrlC)
        #expect(await shell.expect(Self.prompt))
        shell.send(Self.ctrlD)
        #expect(await shell.exitStatus() == 0)
    }

    /// A pager that marks every line it shows, so the test sees what went through it.
    static let markingPager = ["PAGER": "sed 's/^/paged: /'", "LINES": "10", "COLUMNS": "80"]

    @Test func longOutputGoesThroughThePagerAndShortOutputDoesNot() async throws {
        let scratch = try Scratch()
        let shell = try scratch.start(environment: Self.markingPager)
        #expect(await shell.expect(Self.prompt))
        shell.send("help\r")
        #expect(await shell.expect("paged: "), "long output was not paged: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        shell.send("= 1 + 2\r")
        #expect(await shell.expect("\n3\r\n"), "short output went through the pager: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        shell.send(Self.ctrlD)
        #expect(await shell.exitStatus() == 0)
    }

    /// `help` is laid out to the terminal's width (its window size, not `COLUMNS`): no line is
    /// wider, and a wide terminal gets the long summaries on one line.
    @Test(arguments: [80, 120])
    func helpFitsTheTerminalsWidth(columns: Int) async throws {
        let scratch = try Scratch()
        let shell = try scratch.start(["--no-pager"], environment: ["COLUMNS": "200"], columns: columns)
        #expect(await shell.expect(Self.prompt))
        shell.send("help\r")
        #expect(await shell.expect("Sessions:"))
        #expect(await shell.expect(Self.prompt))
        let start = try #require(shell.transcript.range(of: "General:"))
        let end = try #require(shell.transcript.range(of: Self.prompt, range: start.upperBound..<shell.transcript.endIndex))
        let lines = shell.transcript[start.lowerBound..<end.lowerBound].split(separator: "\r\n").map(String.init)
        #expect(lines.count > 40)
        let widest = lines.map(\.count).max() ?? 0
        #expect(widest <= columns, "a line of \(widest) characters: \(lines.filter { $0.count > columns })")
        // At 120 columns the long summaries are not wrapped as at 80.
        #expect(widest > 100 || columns == 80, "nothing used the width: \(widest)")
        #expect(lines.contains { $0.hasPrefix("  apropos WORD") && $0.hasSuffix("in their synopsis, summary or") } == (columns == 120))
        shell.send(Self.ctrlD)
        #expect(await shell.exitStatus() == 0)
    }

    /// A result or an error wider than the terminal breaks at blanks: no row is wider than the
    /// terminal and every word is whole on one row (the terminal itself would cut them).
    @Test func linesWiderThanTheTerminalBreakAtBlanksAt80Columns() async throws {
        let scratch = try Scratch()
        let shell = try scratch.start(["--no-pager"], columns: 80)
        let words = (1...30).map { "word\($0)name" }
        #expect(await shell.expect(Self.prompt))
        shell.send("set truncate off\r")
        #expect(await shell.expect(Self.prompt))
        shell.send("= '\(words.joined(separator: " "))'\r")
        #expect(await shell.expect("word30name\""), "no result: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        shell.send("no-such-command \(words.joined(separator: " "))\r")
        #expect(await shell.expect("error: "), "no error: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        let transcript = shell.transcript
        let result = try #require(transcript.range(of: "\r\n\"word1name"))
        let end = try #require(transcript.range(of: Self.prompt, range: result.upperBound..<transcript.endIndex))
        let rows = transcript[result.lowerBound..<end.lowerBound].split(separator: "\r\n").map(String.init)
        #expect(rows.count > 1, "not wrapped: \(rows)")
        #expect(rows.allSatisfy { $0.count <= 80 }, "a row wider than the terminal: \(rows)")
        let shown = rows.flatMap { $0.split(separator: " ") }.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        #expect(shown == words, "a word was cut: \(rows)")
        let error = try #require(transcript.range(of: "error: ", range: end.upperBound..<transcript.endIndex))
        let errorEnd = try #require(transcript.range(of: Self.prompt, range: error.upperBound..<transcript.endIndex))
        let errorRows = transcript[error.lowerBound..<errorEnd.lowerBound].split(separator: "\r\n")
        #expect(errorRows.allSatisfy { $0.count <= 80 }, "an error row wider than the terminal: \(errorRows)")
        shell.send(Self.ctrlD)
        #expect(await shell.exitStatus() == 0)
    }

    @Test func noPagerAndSetPagerOffPrintLongOutputAsItIs() async throws {
        let scratch = try Scratch()
        let flagged = try scratch.start(["--no-pager"], environment: Self.markingPager)
        #expect(await flagged.expect(Self.prompt))
        flagged.send("help\r")
        #expect(await flagged.expect("apropos"))
        #expect(await flagged.expect(Self.prompt))
        #expect(!flagged.transcript.contains("paged: "), "--no-pager paged: \(flagged.transcript)")
        flagged.send(Self.ctrlD)
        #expect(await flagged.exitStatus() == 0)

        let set = try scratch.start(environment: Self.markingPager)
        #expect(await set.expect(Self.prompt))
        set.send("set pager off\r")
        #expect(await set.expect(Self.prompt))
        set.send("help\r")
        #expect(await set.expect("apropos"))
        #expect(await set.expect(Self.prompt))
        #expect(!set.transcript.contains("paged: "), "set pager off paged: \(set.transcript)")
        set.send(Self.ctrlD)
        #expect(await set.exitStatus() == 0)
    }

    @Test func theRCFileSetsThePagerAndTruncation() async throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(atPath: scratch.path + "/config/patchbay", withIntermediateDirectories: true)
        try "# the interactive shell's settings\npager off\ntruncate 20\nwidth nope\n"
            .write(toFile: scratch.path + "/config/patchbay/config", atomically: true, encoding: .utf8)
        let shell = try scratch.start(environment: Self.markingPager.merging(["XDG_CONFIG_HOME": scratch.path + "/config"]) { $1 })
        #expect(await shell.expect("config:4: width takes"), "no warning for the bad line: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        shell.send("= range(100)\r")
        #expect(await shell.expect("more]"), "truncate 20 did not apply: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        shell.send("help\r")
        #expect(await shell.expect("apropos"))
        #expect(await shell.expect(Self.prompt))
        #expect(!shell.transcript.contains("paged: "), "pager off did not apply: \(shell.transcript)")
        shell.send(Self.ctrlD)
        #expect(await shell.exitStatus() == 0)
    }

    @Test func aPagerThatCannotRunLeavesTheOutputAndSaysSo() async throws {
        let scratch = try Scratch()
        let shell = try scratch.start(environment: ["PAGER": "no-such-pager-here", "LINES": "10"])
        #expect(await shell.expect(Self.prompt))
        shell.send("help\r")
        #expect(await shell.expect("apropos"), "the output was lost: \(shell.transcript)")
        #expect(await shell.expect("error: the pager 'no-such-pager-here' did not run"), "no error: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        shell.send(Self.ctrlD)
        #expect(await shell.exitStatus() == 0)
    }

    @Test func changesAreColouredWithoutNoColor() async throws {
        let scratch = try Scratch()
        // With colour, the prompt is painted: its text and the space after it are apart.
        let shell = try scratch.start(environment: ["NO_COLOR": ""])
        #expect(await shell.expect("patchbay>"))
        shell.send("store app = {n: 1}\r")
        #expect(await shell.expect("patchbay>"))
        shell.send("reducer app on Inc : state.n += 1\r")
        #expect(await shell.expect("patchbay>"))
        shell.send("dispatch app Inc\r")
        #expect(await shell.expect("\u{1B}[33mn: 1 → 2\u{1B}[0m"), "the change was not yellow: \(shell.transcript)")
        // Ctrl-D only once libedit reads again: sent while the terminal is between modes, the
        // key can be taken as a character of the next line.
        #expect(await shell.expect("patchbay>"))
        shell.send(Self.ctrlD)
        #expect(await shell.exitStatus() == 0)
    }

    /// The prompt says where the session is: in the past (`#1/3`), on a branch (`@b1`), in a
    /// transaction (`*`), with the selected store; and the plain prompt when there is nothing
    /// to say.
    @Test func thePromptShowsThePastTheBranchAndAnOpenTransaction() async throws {
        let scratch = try Scratch()
        let shell = try scratch.start()
        for command in ["store app = {n: 0}", "reducer app on Inc : state.n += 1", "dispatch Inc", "dispatch Inc", "dispatch Inc"] {
            #expect(await shell.expect(Self.prompt), "no plain prompt: \(shell.transcript)")
            shell.send(command + "\r")
        }
        #expect(await shell.expect("#3 Inc"))
        #expect(await shell.expect(Self.prompt))
        shell.send("jump 1\r")
        #expect(await shell.expect("patchbay app #1/3> "), "no place in the prompt: \(shell.transcript)")
        shell.send("dispatch Inc\r")
        #expect(await shell.expect("new branch b1 from main at #1"), "the branch was not named: \(shell.transcript)")
        #expect(await shell.expect("patchbay app@b1> "), "no branch in the prompt: \(shell.transcript)")
        shell.send("begin\r")
        #expect(await shell.expect("patchbay app@b1*> "), "no transaction in the prompt: \(shell.transcript)")
        shell.send("commit\r")
        #expect(await shell.expect("patchbay app@b1> "))
        shell.send("checkout main\r")
        #expect(await shell.expect("app on main at #3"))
        #expect(await shell.expect(Self.prompt), "no plain prompt at the end of main: \(shell.transcript)")
        shell.send("jump 2\r")
        #expect(await shell.expect("patchbay app #2/3> "), "no place in the prompt: \(shell.transcript)")
        shell.send("jump end\r")
        #expect(await shell.expect("app at #3 of 3"))
        #expect(await shell.expect(Self.prompt), "no plain prompt at the end of main: \(shell.transcript)")
        shell.send(Self.ctrlD)
        #expect(await shell.exitStatus() == 0)
    }
}
