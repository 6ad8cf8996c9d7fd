import Foundation
import Testing

/// `patchbay inspect --listen` with an app in another process (`Tests/PatchbayFollowWriter`)
/// recording its typed store with `Recorder(store:connectingTo:port:)` over loopback: what
/// arrives prints as it does for `inspect --follow`, and time travel works on it.
@Suite("Watching an app over a connection")
struct ListenProcessTests {
    /// The port `patchbay` printed it listens on (it asks the system for one: port 0).
    static func listenedPort(in printed: String) -> Int? {
        printed.firstMatch(of: /listening on 127\.0\.0\.1:([0-9]+) for one app/).flatMap { Int($0.1) }
    }

    @Test func theActionsAnAppSendsPrintAsTheyArriveAndTimeTravelWorksOnThem() throws {
        let shell = try ChildProcess(PatchbayProcess.binary, ["inspect", "--listen", "0"])
        #expect(shell.waitUntilPrinted("until the app disconnects or Ctrl-C"), "\(shell.printed)\(shell.printedErrors)")
        let port = try #require(Self.listenedPort(in: shell.printed), "\(shell.printed)")
        print("inspect --listen bound port \(port)")
        // Standard input is a pipe: the shell listens until the app disconnects, then runs these.
        shell.feed(Array("jump 2\nstate\njump end\nhistory --last 1\n".utf8))
        let count = 30
        let app = try ChildProcess(FollowProcessTests.writer, ["--connect", String(port), String(count), "5"])
        app.waitForExit("the app sending its recording")
        #expect(app.status == 0, "app: \(app.printedErrors)")
        #expect(app.printed == "dispatched \(count) actions\n", "\(app.printed)")
        shell.waitForExit("patchbay inspect --listen")
        #expect(shell.status == 0, "errors: \(shell.printedErrors)")
        #expect(shell.printedErrors == "")
        let lines = shell.printed.split(separator: "\n").map(String.init)
        let name = "127.0.0.1:\(port)"
        let peer = try #require(lines.count > 2 ? lines[2].firstMatch(of: /^an app connected from (127\.0\.0\.1:[0-9]+)$/)?.1 : nil, "\(shell.printed)")
        #expect(lines == [
            #"listening on \#(name) for one app: connect it with Recorder(store: store, connectingTo: "127.0.0.1", port: \#(port))"#,
            "listening on \(name): new actions appear as they arrive, until the app disconnects or Ctrl-C",
            "an app connected from \(peer)",
        ] + (1...count).map(FollowProcessTests.stepLine) + [
            "stopped listening on \(name): the app closed the connection (\(count) new actions read)",
            "app at #2 of \(count): {count: 3, last: 2}",
            "{count: 3, last: 2}",
            "app at #\(count) of \(count): {count: \(count * (count + 1) / 2), last: \(count)}",
            ">  #\(count) increment {by: \(count)}  count, last",
        ], "\(shell.printed)")
    }

    @Test func sigintStopsListeningAndTheAppGoesOnWithoutItsRecording() throws {
        let shell = try ChildProcess(PatchbayProcess.binary, ["inspect", "--listen", "0"], mergingErrors: true)
        #expect(shell.waitUntilPrinted("until the app disconnects or Ctrl-C"), "\(shell.printed)")
        let port = try #require(Self.listenedPort(in: shell.printed), "\(shell.printed)")
        print("inspect --listen bound port \(port)")
        // The app sends an action every 20 ms for 8 s: Ctrl-C comes while it does.
        let app = try ChildProcess(FollowProcessTests.writer, ["--connect", String(port), "400", "20", "0"])
        #expect(shell.waitUntilPrinted(FollowProcessTests.stepLine(3)), "\(shell.printed)")
        shell.send(SIGINT)
        #expect(shell.waitUntilPrinted("stopped listening on 127.0.0.1:\(port) ("), "\(shell.printed)")
        shell.feed(Array("history --last 1\n".utf8))
        shell.waitForExit("patchbay inspect --listen")
        #expect(shell.status == 0, "\(shell.printed)")
        // The app is not stopped by it: its recording is.
        app.waitForExit("the app whose shell stopped listening")
        #expect(app.status == 0, "\(app.printed)\(app.printedErrors)")
        #expect(app.printed.contains("recording stopped: 127.0.0.1:\(port): the connection was lost: "), "\(app.printed)")
        #expect(app.printed.hasSuffix("dispatched 400 actions\n"), "\(app.printed)")
    }

    @Test func anAppThatFindsNoShellIsToldAtOnce() throws {
        // A port that was listened on and is free again: nothing listens there now.
        let shell = try ChildProcess(PatchbayProcess.binary, ["inspect", "--listen", "0"])
        #expect(shell.waitUntilPrinted("until the app disconnects or Ctrl-C"))
        let port = try #require(Self.listenedPort(in: shell.printed))
        shell.send(SIGINT)
        shell.closeInput()
        shell.waitForExit("patchbay inspect --listen")
        let app = try ChildProcess(FollowProcessTests.writer, ["--connect", String(port), "1", "0"])
        app.waitForExit("the app with no shell to connect to")
        #expect(app.status == 1)
        #expect(app.printedErrors.contains("127.0.0.1:\(port): cannot connect: "), "\(app.printedErrors)")
    }

    @Test func listenWithAFileIsAUsageError() throws {
        let result = try PatchbayProcess.run(["inspect", "app.pbsession", "--listen", "4321"])
        #expect(result.status == 64)
        #expect(result.errors.contains("give either FILE or --listen [HOST:]PORT"), "\(result.errors)")
    }
}

/// `inspect --listen` at the interactive prompt (libedit on a pseudo-terminal): actions an app
/// in another process sends show above the prompt as they arrive, and Ctrl-C stops listening.
@Suite("Watching an app at the prompt", .enabled(if: TerminalHarness.isAvailable, "needs util-linux script(1)"))
struct ListenTerminalTests {
    @Test func actionsShowAtThePromptAndCtrlCStopsListening() async throws {
        let scratch = try TerminalTests.Scratch()
        // Wide enough that no line printed here wraps.
        let shell = try scratch.start(columns: 200)
        #expect(await shell.expect(TerminalHarness.prompt), "no prompt: \(shell.transcript)")
        shell.send("inspect --listen 0\r")
        #expect(await shell.expect("until the app disconnects or Ctrl-C"), "\(shell.transcript)")
        let port = try #require(ListenProcessTests.listenedPort(in: shell.transcript), "\(shell.transcript)")
        print("inspect --listen bound port \(port)")
        #expect(await shell.expect(TerminalHarness.prompt))
        // An app sends three actions and disconnects.
        let app = try ChildProcess(FollowProcessTests.writer, ["--connect", String(port), "3", "0", "0"])
        #expect(await shell.expect(FollowProcessTests.stepLine(3), timeout: .seconds(30)), "\(shell.transcript)")
        app.waitForExit("the app sending its recording")
        #expect(await shell.expect("the app closed the connection (3 new actions read)", timeout: .seconds(30)), "\(shell.transcript)")
        shell.send("jump 1\r")
        #expect(await shell.expect("app at #1 of 3: {count: 1, last: 1}"), "\(shell.transcript)")
        // Listening again, then Ctrl-C at the prompt stops it.
        shell.send("inspect --listen 0 --force\r")
        #expect(await shell.expect(TerminalHarness.prompt))
        shell.send(TerminalTests.ctrlC)
        // Closing the listening socket and saying so can take a while under the sanitizers, as
        // the app's lines above are given.
        #expect(await shell.expect("(0 new actions read)", timeout: .seconds(30)), "\(shell.transcript)")
        shell.send(TerminalTests.ctrlD)
        #expect(await shell.exitStatus() == 0, "\(shell.transcript)")
    }
}
