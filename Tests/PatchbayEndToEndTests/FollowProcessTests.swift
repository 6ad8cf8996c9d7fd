import Foundation
import Synchronization
import Testing

/// `patchbay inspect FILE --follow` reading a file that another process, an app recording its
/// typed store with the library `Recorder`, appends to while it runs.
@Suite("Following a recording an app writes")
struct FollowProcessTests {
    /// The test app (`Tests/PatchbayFollowWriter`), built next to `patchbay`.
    static let writer = PatchbayProcess.binary.deletingLastPathComponent().appendingPathComponent("patchbay-follow-writer")

    /// The line `patchbay` prints for action `index` of the writer's counter, as `dispatch`
    /// prints a step: action `index` adds `index` to `count` and sets `last` to it.
    static func stepLine(_ index: Int) -> String {
        "#\(index) increment  count: \((index - 1) * index / 2) → \(index * (index + 1) / 2); last: \(index - 1) → \(index)"
    }

    @Test func theActionsAnAppAppendsPrintAsTheyArriveAndTimeTravelWorksOnThem() throws {
        let directory = NSTemporaryDirectory() + "pb-follow-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/app.pbsession"
        let count = 30

        // The app: its store line first, then, after a pause, an action every 40 ms.
        let app = try ChildProcess(Self.writer, [path, String(count), "40", "800"])
        _ = app.wait(until: { currentText(ofFile: path).contains(#""kind":"store""#) },
                     timeout: .seconds(10))

        // Standard input is a pipe: it follows until the file has not grown for 3 s, then runs
        // the commands on what arrived.
        let result = try PatchbayProcess.run(["inspect", path, "--follow", "--idle", "3"],
                                             script: "jump 2\nstate\njump end\nstate\nhistory --last 1\n")
        app.waitForExit("the app writing the recording")
        #expect(app.status == 0, "app: \(app.printedErrors)")
        #expect(result.status == 0, "errors: \(result.errors)")
        #expect(result.errors == "")

        var lines = result.outputLines[...]
        // What was in the file when it opened depends on how fast `patchbay` started.
        let first = lines.popFirst() ?? ""
        let prefix = "inspected \(path): app ("
        #expect(first.hasPrefix(prefix), "\(result.output)")
        let opened = Int(first.dropFirst(prefix.count).prefix { $0.isNumber }) ?? -1
        #expect((0...count).contains(opened), "\(first)")
        #expect(lines.popFirst() == "following \(path): new actions appear as they arrive, until it does not grow for 3 s or Ctrl-C")
        let arrived = (0..<count - opened).map { Self.stepLine(opened + 1 + $0) }
        #expect(Array(lines.prefix(arrived.count)) == arrived, "\(result.output)")
        lines = lines.dropFirst(arrived.count)
        #expect(Array(lines) == [
            "stopped following \(path): it did not grow for 3 s (\(count - opened) new action\(count - opened == 1 ? "" : "s") read)",
            "app at #2 of \(count): {count: 3, last: 2}",
            "{count: 3, last: 2}",
            "app at #\(count) of \(count): {count: \(count * (count + 1) / 2), last: \(count)}",
            "{count: \(count * (count + 1) / 2), last: \(count)}",
            ">  #\(count) increment {by: \(count)}  count, last",
        ], "\(result.output)")
    }
}

extension FollowProcessTests {
    @Test func sigintStopsFollowingAndTheCommandsRunOnWhatWasRead() throws {
        let directory = NSTemporaryDirectory() + "pb-follow-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/app.pbsession"
        let app = try ChildProcess(Self.writer, [path, "3", "0"])
        app.waitForExit("the app writing the recording")
        #expect(app.status == 0)

        let child = try ChildProcess(PatchbayProcess.binary, ["inspect", path, "--follow"], mergingErrors: true)
        // Each wait has a deadline of its own: on a loaded machine (sanitizers, CI) the first one
        // may take a while, and the interrupt must come while it follows.
        #expect(child.waitUntilPrinted("following \(path)"))
        child.send(SIGINT)
        #expect(child.waitUntilPrinted("stopped following"))
        child.feed(Array("jump 1\nstate\n".utf8))
        child.waitForExit("patchbay inspect --follow")
        #expect(child.status == 0, "\(child.printed)")
        let lines = child.printed.split(separator: "\n").map(String.init)
        #expect(lines == [
            "inspected \(path): app (3 actions)",
            "following \(path): new actions appear as they arrive, until Ctrl-C",
            "stopped following \(path) (0 new actions read)",
            "app at #1 of 3: {count: 1, last: 1}",
            "{count: 1, last: 1}",
        ], "\(child.printed)")
    }

    @Test func idleWithoutFollowIsAUsageError() throws {
        let result = try PatchbayProcess.run(["inspect", "app.pbsession", "--idle", "2"])
        #expect(result.status == 64)
        #expect(result.errors.contains("--idle goes with --follow"))
    }
}

/// `inspect --follow` at the interactive prompt (libedit on a pseudo-terminal): what arrives
/// shows above the prompt while a line is being typed, and the typing goes on.
@Suite("Following a recording at the prompt", .enabled(if: TerminalHarness.isAvailable, "needs util-linux script(1)"))
struct FollowTerminalTests {
    @Test func newActionsShowWhileALineIsTypedAndCtrlCStopsFollowing() async throws {
        let scratch = try TerminalTests.Scratch()
        let path = scratch.path + "/app.jsonl"
        let store = #"{"seq":1,"kind":"store","store":"app","state":{"count":0}}"#
        func action(_ index: Int) -> String {
            #"{"seq":\#(index + 1),"kind":"action","store":"app","index":\#(index),"action":{"type":"Set","to":\#(index * 10)},"#
                + #""patch":[{"op":"replace","path":"/count","value":\#(index * 10)}]}"# + "\n"
        }
        _ = FileManager.default.createFile(atPath: path, contents: Data((#"{"patchbay":"session","version":1}"# + "\n" + store + "\n" + action(1)).utf8))
        let shell = try scratch.start()
        #expect(await shell.expect(TerminalHarness.prompt), "no prompt: \(shell.transcript)")
        shell.send("inspect \(path) --follow\r")
        #expect(await shell.expect("new actions appear as they arrive"), "\(shell.transcript)")
        #expect(await shell.expect(TerminalHarness.prompt))
        // Half a command typed, then the app appends.
        shell.send("sta")
        #expect(await shell.expect("sta"))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data((action(2) + action(3)).utf8))
        try handle.close()
        #expect(await shell.expect("#2 Set  count: 10 → 20"), "\(shell.transcript)")
        #expect(await shell.expect("#3 Set  count: 20 → 30"), "\(shell.transcript)")
        // The prompt and the typed text are drawn again; the line goes on from there.
        #expect(await shell.expect(TerminalHarness.prompt + "sta"), "\(shell.transcript)")
        shell.send("te\r")
        #expect(await shell.expect("{count: 30}"), "\(shell.transcript)")
        #expect(await shell.expect(TerminalHarness.prompt))
        shell.send(TerminalTests.ctrlC)
        #expect(await shell.expect("stopped following \(path) (2 new actions read)"), "\(shell.transcript)")
        #expect(await shell.expect(TerminalHarness.prompt))
        shell.send("jump 1\r")
        #expect(await shell.expect("app at #1 of 3: {count: 10}"), "\(shell.transcript)")
        // In the past: the prompt says where.
        #expect(await shell.expect("patchbay app #1/3> "))
        shell.send(TerminalTests.ctrlD)
        #expect(await shell.exitStatus() == 0, "\(shell.transcript)")
    }
}
