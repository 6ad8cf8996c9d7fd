import Foundation
import Testing

/// `edit REDUCER` at a real pseudo-terminal: the editor (`EDITOR`, here a small script that
/// rewrites the file it is given, as a person would in an editor) gets the reducer's statements
/// in a temporary file, and what it leaves there becomes the reducer's body.
@Suite("edit at a terminal", .enabled(if: TerminalHarness.isAvailable, "needs util-linux script(1)"))
struct EditTerminalTests {
    static let prompt = TerminalHarness.prompt

    @Test func editRunsTheEditorAndAppliesWhatItLeftInTheFile() async throws {
        let scratch = try TerminalTests.Scratch()
        // The script keeps the # comment lines, puts a new body after them, and notes what it
        // was given (the file's first line) where the test can read it.
        let script = scratch.path + "/editor.sh"
        let seen = scratch.path + "/seen.txt"
        let text = """
            #!/bin/sh
            head -n 1 "$1" > '\(seen)'
            grep '^#' "$1" > "$1.new"
            echo 'state.n += action.by * 100' >> "$1.new"
            mv "$1.new" "$1"
            """
        _ = FileManager.default.createFile(atPath: script, contents: Data(text.utf8), attributes: [.posixPermissions: 0o755])
        let shell = try scratch.start(environment: ["EDITOR": script, "VISUAL": ""], columns: 100)
        #expect(await shell.expect(Self.prompt))
        shell.send("store app = {n: 0}\r")
        #expect(await shell.expect(Self.prompt))
        shell.send("reducer app on Add : state.n += action.by\r")
        #expect(await shell.expect(Self.prompt))
        shell.send("edit r1\r")
        #expect(await shell.expect("r1: app on Add : state.n += action.by * 100"), "the reducer did not change: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        shell.send("dispatch app Add {by: 2}\r")
        #expect(await shell.expect("n: 0 → 200"), "the new body did not run: \(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        #expect((try? String(contentsOfFile: seen, encoding: .utf8)) == "# reducer r1 = app on Add\n")
        shell.send(TerminalTests.ctrlD)
        #expect(await shell.exitStatus() == 0)
    }

    @Test func withoutAnEditorItSaysSoOnOneLine() async throws {
        let scratch = try TerminalTests.Scratch()
        let shell = try scratch.start(environment: ["EDITOR": "", "VISUAL": ""], columns: 200)
        #expect(await shell.expect(Self.prompt))
        shell.send("store app = {n: 0}\r")
        #expect(await shell.expect(Self.prompt))
        shell.send("reducer app on Add : state.n += 1\r")
        #expect(await shell.expect(Self.prompt))
        shell.send("edit r1\r")
        #expect(await shell.expect("error: edit: no editor to open: edit runs $VISUAL or $EDITOR at an interactive terminal"),
                "\(shell.transcript)")
        #expect(await shell.expect(Self.prompt))
        shell.send(TerminalTests.ctrlD)
        #expect(await shell.exitStatus() == 0)
    }
}
