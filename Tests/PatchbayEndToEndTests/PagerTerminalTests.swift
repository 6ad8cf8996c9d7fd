import Foundation
import Testing

/// The pager on a real pseudo-terminal: `less` reads the keys a person types, and whenever a
/// pager does not end as it should, the output is printed in full after it.
@Suite("The pager on a terminal", .enabled(if: TerminalHarness.isAvailable, "needs util-linux script(1)"))
struct PagerTerminalTests {
    static let prompt = TerminalHarness.prompt
    /// The end of the last line of `help`.
    static let lastOfHelp = "for expressions."

    static var hasLess: Bool {
        ["/usr/bin/less", "/bin/less", "/usr/local/bin/less"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(.enabled(if: hasLess, "needs less(1)"))
    func lessPagesHelpToItsLastLineAndQQuits() async throws {
        let scratch = try TerminalTests.Scratch()
        let shell = try scratch.start(columns: 80)
        #expect(await shell.expect(Self.prompt))
        shell.send("help\r")
        #expect(await shell.expect("General:"), "help did not start: \(shell.transcript)")
        // A page at a time (Space), as a person reads, until less says it is at the end.
        var atEnd = false
        for _ in 0..<20 where !atEnd {
            atEnd = await shell.expect("(END)", timeout: .seconds(1))
            if !atEnd { shell.send(" ") }
        }
        #expect(atEnd, "less did not reach the end: \(shell.transcript)")
        #expect(shell.transcript.contains(Self.lastOfHelp), "the last line of help was not shown: \(shell.transcript)")
        shell.send("q")
        #expect(await shell.expect(Self.prompt), "q did not bring the prompt back: \(shell.transcript)")
        #expect(!shell.transcript.contains("error: the pager"), "the pager failed: \(shell.transcript)")
        // The terminal is the shell's again, in its modes: a command still runs.
        shell.send("= 6 * 7\r")
        #expect(await shell.expect("\n42\r\n"), "the shell did not get the terminal back: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        shell.send(TerminalTests.ctrlD)
        #expect(await shell.exitStatus() == 0)
    }

    /// A pager that exits with a failure after reading part of the output (as `less` did when
    /// the terminal was not its own): everything is printed after it, with the reason.
    @Test func aPagerThatFailsLeavesAllTheOutput() async throws {
        let scratch = try TerminalTests.Scratch()
        let shell = try scratch.start(environment: ["PAGER": "head -n 2; exit 1"], columns: 80)
        #expect(await shell.expect(Self.prompt))
        shell.send("help\r")
        #expect(await shell.expect(Self.lastOfHelp), "the output was lost: \(shell.transcript)")
        #expect(await shell.expect("error: the pager 'head -n 2; exit 1' failed (exit status 1), so the output is"),
                "no error: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        shell.send(TerminalTests.ctrlD)
        #expect(await shell.exitStatus() == 0)
    }

    /// A pager that is stopped (as one outside the terminal's foreground group is, or by
    /// Ctrl-Z) is ended, and the output printed: the shell does not wait for it for ever.
    @Test func aStoppedPagerIsEndedAndTheOutputPrinted() async throws {
        let scratch = try TerminalTests.Scratch()
        let shell = try scratch.start(environment: ["PAGER": "kill -STOP $$"], columns: 80)
        #expect(await shell.expect(Self.prompt))
        shell.send("help\r")
        #expect(await shell.expect(Self.lastOfHelp), "the output was lost: \(shell.transcript)")
        #expect(await shell.expect("error: the pager 'kill -STOP $$' was stopped (SIGSTOP) and ended"),
                "no error: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        shell.send("= 6 * 7\r")
        #expect(await shell.expect("\n42\r\n"), "the shell did not get the terminal back: \(shell.transcript)")
        shell.send(TerminalTests.ctrlD)
        #expect(await shell.exitStatus() == 0)
    }
}
