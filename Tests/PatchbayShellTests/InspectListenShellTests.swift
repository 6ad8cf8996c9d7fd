import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) @testable import PatchbayRecorder
@_spi(Shell) @testable import PatchbayShell
import PatchbayTestSupport
import Testing

// `inspect --listen` through the shell, with the app played by the test over loopback: what
// arrives prints as `inspect --follow` prints it, every time-travel command works on it, and
// a refused connection, damage or a dropped connection is one line while the shell goes on.

@Suite("Sessions: inspect --listen")
struct InspectListenShellTests {
    typealias AppRecording = InspectFollowShellTests.AppRecording

    /// The app's end of a connection, which sends whatever the test gives it.
    final class Client {
        let descriptor: Int32

        init(port: Int) throws {
            descriptor = try SessionSocket.connect(host: "127.0.0.1", port: port, timeout: .seconds(10))
        }

        func send(_ text: String) {
            #expect(SessionSocket.sendAll(descriptor, Array(text.utf8)) == nil)
        }

        func send(_ bytes: [UInt8]) {
            #expect(SessionSocket.sendAll(descriptor, bytes) == nil)
        }

        /// Whether the shell closed this connection (a read finds its end or a reset).
        var isClosedByTheShell: Bool {
            var byte: UInt8 = 0
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 0) == 1 else { return false }
            return recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT)) <= 0
        }

        deinit { close(descriptor) }
    }

    /// The port `inspect --listen` printed it bound.
    static func port(_ printed: [String]) throws -> Int {
        try #require(printed.first?.firstMatch(of: /^listening on [^ ]+:([0-9]+) for one app/).flatMap { Int($0.1) }, "\(printed)")
    }

    /// What the shell prints while following, read until `condition` holds of it (each poll's
    /// lines joined on), or for at most `timeout`.
    static func followed(_ session: DataflowSession, within timeout: Duration = .seconds(20),
                         until condition: ([OutputLine]) -> Bool) -> [OutputLine] {
        let deadline = ContinuousClock.now + timeout
        var lines: [OutputLine] = []
        while !condition(lines), ContinuousClock.now < deadline {
            let new = session.shell.readFollowed()
            lines += new
            if new.isEmpty { Thread.sleep(forTimeInterval: 0.001) }
        }
        return lines
    }

    static func followed(_ session: DataflowSession, untilPrinted text: String) -> [String] {
        followed(session) { lines in lines.contains { $0.text.contains(text) } }.map(\.text)
    }

    struct Counter: Codable, Sendable {
        var n = 0
    }

    enum Bump: Codable, Sendable {
        case bump(Int)
    }

    /// An app's store, which a `Recorder` sends to the shell.
    static func counter() -> Store<Counter, Bump> {
        Store(initialState: Counter(), reducer: Reducer { state, action in
            if case .bump(let by) = action { state.n += by }
        })
    }

    @Test func actionsSentPrintAsTheyArriveAndTimeTravelWorksOnThem() throws {
        let recording = AppRecording(actions: 2)
        let session = DataflowSession()
        let printed = session.run("inspect --listen 0")
        let port = try Self.port(printed)
        print("inspect --listen bound port \(port)")
        #expect(printed == [
            #"listening on 127.0.0.1:\#(port) for one app: connect it with Recorder(store: store, connectingTo: "127.0.0.1", port: \#(port))"#,
            "listening on 127.0.0.1:\(port): new actions appear as they arrive, until the app disconnects or Ctrl-C",
        ])
        #expect(session.shell.isFollowing)
        let app = try Client(port: port)
        app.send(try currentText(of: recording.path))
        let arrived = Self.followed(session, untilPrinted: "#2 Set")
        #expect(arrived.count == 3, "\(arrived)")
        #expect(arrived.first?.hasPrefix("an app connected from 127.0.0.1:") == true)
        #expect(Array(arrived.dropFirst()) == ["#1 Set  count: 0 → 10", "#2 Set  count: 10 → 20"])
        // A line in pieces prints once whole.
        let line = recording.nextLine()
        app.send(String(line.prefix(30)))
        #expect(session.shell.readFollowed().isEmpty)
        app.send(String(line.dropFirst(30)) + "\n")
        recording.write(line + "\n")
        #expect(Self.followed(session, untilPrinted: "#3 Set") == ["#3 Set  count: 20 → 30"])
        try session.expectJump("jump 1", "app", 1, of: 3, ["count": 10])
        #expect(try session.report("diff 1 3", as: StateDiff.self).changes.isIdentical(to: [.at("count", from: 10, to: 30)]))
        // A new action takes the store back to the end, then one step on.
        let fourth = recording.nextLine()
        app.send(fourth + "\n")
        recording.write(fourth + "\n")
        #expect(Self.followed(session, untilPrinted: "#4 Set") == ["#4 Set  count: 30 → 40"])
        #expect(session.run("history").last == ">  #4 Set {to: 40}  count")
        // Ctrl-C (or the host's equivalent) stops listening; the app's connection is closed.
        #expect(session.shell.stopFollowing().map(\.text) == ["stopped listening on 127.0.0.1:\(port) (4 new actions read)"])
        #expect(session.shell.stopFollowing().isEmpty)
        #expect(!session.shell.isFollowing)
        let ended = ContinuousClock.now + .seconds(20)
        while !app.isClosedByTheShell, ContinuousClock.now < ended { Thread.sleep(forTimeInterval: 0.001) }
        #expect(app.isClosedByTheShell)
        #expect(try session.value("state").isIdentical(to: ["count": 40]))
    }

    @Test func theRecorderSessionArrivesWholeAndEndsWhenTheAppStops() throws {
        let session = DataflowSession()
        let port = try Self.port(session.run("inspect --listen 127.0.0.1:0"))
        let store = Self.counter()
        let recorder = try Recorder(store: store, connectingTo: "127.0.0.1", port: port, detail: .everyChange)
        for by in 1...5 { store.dispatch(.bump(by)) }
        recorder.stop()
        let printed = Self.followed(session, untilPrinted: "the app closed the connection")
        #expect(printed.last == "stopped listening on 127.0.0.1:\(port): the app closed the connection (5 new actions read)", "\(printed)")
        #expect(!session.shell.isFollowing)
        #expect(try session.value("state").isIdentical(to: ["n": 15]))
        try session.expectJump("jump 2", "app", 2, of: 5, ["n": 3])
    }

    @Test func anAppFasterThanTheShellLosesNothing() throws {
        let session = DataflowSession()
        let port = try Self.port(session.run("inspect --listen 0"))
        let store = Self.counter()
        let recorder = try Recorder(store: store, connectingTo: "127.0.0.1", port: port, detail: .everyChange)
        // The shell reads nothing meanwhile: the connection fills, and the recorder's thread waits.
        let count = 20_000
        let started = ContinuousClock.now
        for _ in 1...count { store.dispatch(.bump(1)) }
        let dispatching = ContinuousClock.now - started
        // `stop()` waits until the writer has sent everything, which the shell must read for:
        // it stops on a thread of its own while the shell reads here.
        // (This thread does not touch the recorder again until `stopped` is signalled.)
        nonisolated(unsafe) let stopping = recorder
        let stopped = DispatchSemaphore(value: 0)
        Thread {
            stopping.stop()
            stopped.signal()
        }.start()
        defer {
            #expect(stopped.wait(timeout: .now() + 60) == .success)
            #expect(recorder.error == nil)
        }
        var printed = 0, reads = 0
        let deadline = ContinuousClock.now + .seconds(60)
        while session.shell.isFollowing, ContinuousClock.now < deadline {
            let lines = session.shell.readFollowed()
            printed += lines.filter { $0.text.hasPrefix("#") }.count
            reads += 1
            if lines.isEmpty { Thread.sleep(forTimeInterval: 0.001) }
        }
        print("\(count) actions dispatched in \(dispatching) while the shell did not read; read in \(reads) polls, \(ContinuousClock.now - started) in all")
        #expect(printed == count)
        #expect(reads > count / InspectListenShellTests.eventsPerRead)
        #expect(!session.shell.isFollowing)
        #expect(try session.value("state").isIdentical(to: ["n": .int(count)]))
    }

    /// The most events one `readFollowed()` reads.
    static let eventsPerRead = Shell.followedEventsPerRead

    @Test func anOverlongLineStopsListeningAndKeepsWhatCameBefore() throws {
        let recording = AppRecording(actions: 1)
        let session = DataflowSession()
        let port = try Self.port(session.run("inspect --listen 0"))
        let app = try Client(port: port)
        app.send(try currentText(of: recording.path))
        #expect(Self.followed(session, untilPrinted: "#1 Set").last == "#1 Set  count: 0 → 10")
        // A line with no end: read until it passes the longest a line may be, never whole.
        let descriptor = app.descriptor
        let sent = DispatchSemaphore(value: 0)
        Thread {
            let chunk = [UInt8](repeating: 0x20, count: 1 << 20)
            // (Until the shell closes the connection.)
            for _ in 0...(SessionFileReader.maximumLineBytes >> 20) where SessionSocket.sendAll(descriptor, chunk) != nil { break }
            sent.signal()
        }.start()
        defer { #expect(sent.wait(timeout: .now() + 60) == .success) }
        let lines = Self.followed(session, within: .seconds(120)) { lines in lines.contains { $0.text.hasPrefix("error: ") } }
        #expect(lines.map(\.text) == [
            "error: 127.0.0.1:\(port): line 4: the line is longer than 64 MiB, the longest a session line may be: this is not a session file, "
                + "or it is damaged; listening stopped, and everything read before is kept",
        ])
        #expect(!session.shell.isFollowing)
        #expect(try session.value("state").isIdentical(to: ["count": 10]))
    }

    @Test func offLoopbackATokenIsRequiredAndAWrongOrMissingOneIsRefused() throws {
        let recording = AppRecording(actions: 1)
        let session = DataflowSession()
        let printed = session.run("inspect --listen 0.0.0.0:0")
        let port = try Self.port(printed)
        print("inspect --listen bound port \(port)")
        let token = try #require(printed.count > 1 ? printed[1].firstMatch(of: /^the app must send the token ([0-9a-f]{32}) first/)?.1 : nil,
                                 "\(printed)")
        #expect(printed[1].hasSuffix("use an SSH tunnel"))
        #expect(printed[0].hasSuffix(#"port: \#(port), token: "\#(token)")"#))
        let session1 = try currentText(of: recording.path)
        let missing = try Client(port: port)
        missing.send(session1)
        let refused = Self.followed(session, untilPrinted: "refused").filter { $0.contains("refused") }
        #expect(refused.count == 1)
        #expect(refused.first?.hasPrefix("warning: refused a connection from 127.0.0.1:") == true)
        #expect(refused.first?.hasSuffix(": the app sent no token first; this listener is not on loopback, so the app must pass the token "
                                         + "the shell printed (Recorder(store:connectingTo:port:token:)); still listening") == true, "\(refused)")
        let wrong = try Client(port: port)
        wrong.send(#"{"token":"\#(token.dropLast())0"}"# + "\n" + session1)
        let wrongly = Self.followed(session, untilPrinted: "wrong token")
        #expect(wrongly.count == 1 && wrongly[0].contains("the app sent a wrong token"), "\(wrongly)")
        #expect(session.shell.isFollowing)
        let right = try Client(port: port)
        right.send(#"{"token":"\#(token)"}"# + "\n" + session1)
        let arrived = Self.followed(session, untilPrinted: "#1 Set")
        #expect(arrived.last == "#1 Set  count: 0 → 10", "\(arrived)")
        #expect(try session.value("state").isIdentical(to: ["count": 10]))
    }

    @Test func aGivenTokenIsRequiredOnLoopbackToo() throws {
        let session = DataflowSession()
        let printed = session.run("inspect --listen 0 --token s3cret")
        let port = try Self.port(printed)
        #expect(printed[1] == "the app must send the token s3cret first; nothing is encrypted: across a network you do not trust, "
                + "listen on loopback and use an SSH tunnel")
        let store = Self.counter()
        let recorder = try Recorder(store: store, connectingTo: "127.0.0.1", port: port, token: "s3cret", detail: .everyChange)
        store.dispatch(.bump(7))
        recorder.flush()
        #expect(Self.followed(session, untilPrinted: "#1 ").last == "#1 bump  n: 0 → 7")
        recorder.stop()
    }

    @Test func aSecondAppIsRefusedWhileOneIsConnected() throws {
        let recording = AppRecording(actions: 1)
        let session = DataflowSession()
        let port = try Self.port(session.run("inspect --listen 0"))
        let first = try Client(port: port)
        first.send(try currentText(of: recording.path))
        #expect(Self.followed(session, untilPrinted: "#1 Set").last == "#1 Set  count: 0 → 10")
        let second = try Client(port: port)
        second.send(try currentText(of: recording.path))
        let refused = Self.followed(session, untilPrinted: "refused")
        #expect(refused.count == 1)
        #expect(refused.first?.contains(": an app is connected already (from 127.0.0.1:") == true, "\(refused)")
        #expect(refused.first?.hasSuffix("); one app at a time; still listening") == true, "\(refused)")
        // The first goes on.
        let line = recording.nextLine()
        first.send(line + "\n")
        #expect(Self.followed(session, untilPrinted: "#2 Set") == ["#2 Set  count: 10 → 20"])
    }

    @Test func aDroppedConnectionKeepsWhatArrivedWhole() throws {
        let recording = AppRecording(actions: 2)
        let session = DataflowSession()
        let port = try Self.port(session.run("inspect --listen 0"))
        do {
            let app = try Client(port: port)
            app.send(try currentText(of: recording.path) + String(recording.nextLine().prefix(40)))
        }
        let lines = Self.followed(session) { lines in lines.contains { $0.stream == .error && $0.text.hasPrefix("error:") } }
        #expect(lines.map(\.text).dropFirst() == [
            "#1 Set  count: 0 → 10", "#2 Set  count: 10 → 20",
            "error: 127.0.0.1:\(port): line 5: the line is cut short (the recording stopped while writing it); listening stopped, "
                + "and everything read before is kept",
        ])
        #expect(!session.shell.isFollowing)
        #expect(try session.value("state").isIdentical(to: ["count": 20]))
        try session.expectJump("jump 1", "app", 1, of: 2, ["count": 10])
    }

    @Test func aConnectionThatSendsNoHeaderInTimeIsRefused() throws {
        let session = DataflowSession()
        let port = try Self.port(session.run("inspect --listen 0"))
        let silent = try Client(port: port)
        silent.send(#"{"patchbay":"sess"#)
        // Refused once `handshakeTime` has passed without its header.
        let refused = Self.followed(session, within: Listening.handshakeTime + .seconds(20)) { lines in lines.contains { $0.text.contains("refused") } }
        #expect(refused.map(\.text) == [
            "warning: refused a connection from \(try #require(refused.first?.text.firstMatch(of: /from ([0-9.:]+):/)?.1)): "
                + "it sent no session header within 10 s; still listening",
        ])
        #expect(silent.isClosedByTheShell)
        #expect(session.shell.isFollowing)
    }

    @Test func jsonSaysWhereItListensAndWhatArrives() throws {
        let recording = AppRecording(actions: 1)
        let session = DataflowSession(json: true)
        let printed = session.run("inspect --listen 0")
        #expect(printed.count == 1)
        let object = try #require(printed.first)
        let port = try #require(object.firstMatch(of: /"port":([0-9]+)/).flatMap { Int($0.1) })
        #expect(object == #"{"ok":true,"command":"inspect --listen 0","result":{"listening":"127.0.0.1:\#(port)","host":"127.0.0.1","port":\#(port),"#
                + #""loopback":true,"token":null}}"#)
        let app = try Client(port: port)
        app.send(try currentText(of: recording.path))
        let arrived = Self.followed(session, untilPrinted: #""index":1"#)
        #expect(arrived.first?.hasPrefix(#"{"ok":true,"command":"","result":{"connected":"127.0.0.1:"#) == true, "\(arrived)")
        #expect(arrived.count == 2)
        #expect(session.shell.stopFollowing().map(\.text)
            == [#"{"ok":true,"command":"","result":{"stoppedListening":"127.0.0.1:\#(port)","actions":1,"closed":false}}"#])
    }

    @Test(arguments: [
        ("inspect --listen", "[HOST:]PORT after --listen"),
        ("inspect --listen --token t", "[HOST:]PORT after --listen"),
        ("inspect --listen 70000", "--listen takes [HOST:]PORT"),
        ("inspect --listen host:", "--listen takes [HOST:]PORT"),
        ("inspect --listen :80", "--listen takes [HOST:]PORT"),
        ("inspect --listen 0 --token", "a token after --token"),
        ("inspect --listen 0 --token a\"b", "a token is 1 to 128 of"),
        ("inspect --listen 0 --follow", "unexpected '--follow' (options with --listen: --token TOKEN, --force, --idle SECONDS)"),
        ("inspect --listen no-such-host.invalid:0", "cannot listen: "),
    ])
    func badAddressesAndOptionsAreOneLineErrors(command: String, message: String) {
        let session = DataflowSession()
        let error = session.error(command)
        #expect(error.contains(message), "\(error)")
        #expect(!error.contains("\n"))
        #expect(!session.shell.isFollowing)
    }

    @Test func listeningOnAPortInUseIsAnError() throws {
        let other = try SessionListener(host: "127.0.0.1", port: 0)
        let session = DataflowSession()
        let error = session.error("inspect --listen \(other.port)")
        #expect(error.hasPrefix("error: 127.0.0.1:\(other.port): cannot listen: "), "\(error)")
        #expect(!session.shell.isFollowing)
    }

    @Test func aResetOrAnotherInspectEndsTheListeningAndFreesThePort() throws {
        let recording = AppRecording(actions: 1)
        let session = DataflowSession()
        let port = try Self.port(session.run("inspect --listen 0"))
        #expect(throws: SessionError.self) { try SessionListener(host: "127.0.0.1", port: port) }
        session.run("reset")
        #expect(!session.shell.isFollowing)
        _ = try SessionListener(host: "127.0.0.1", port: port)
        let again = try Self.port(session.run("inspect --listen 0"))
        session.run("inspect \(recording.path) --force")
        #expect(!session.shell.isFollowing)
        _ = try SessionListener(host: "127.0.0.1", port: again)
    }

    @Test func aReplayedInspectDoesNotListen() {
        let directory = TemporaryDirectory()
        let replayed = directory.write("replayed.jsonl", SessionHeader(created: nil).line + "\n"
                                       + #"{"seq":1,"kind":"command","text":"inspect --listen 0"}"# + "\n")
        let session = DataflowSession()
        let printed = session.run("replay \(replayed)").joined(separator: "\n")
        #expect(printed.contains("a replayed 'inspect --listen' does not listen"), "\(printed)")
        #expect(!session.shell.isFollowing)
    }

    @Test func completionOffersTheOptions() {
        let session = DataflowSession()
        func candidates(_ line: String) -> [String] { session.shell.complete(line, cursor: line.utf8.count).candidates }
        #expect(candidates("inspect --li") == ["--listen"])
        #expect(candidates("inspect --listen 4321 --") == ["--force", "--idle", "--token"])
        #expect(candidates("inspect --listen 4321 --token ").isEmpty)
        #expect(candidates("inspect app.jsonl --f") == ["--follow", "--force"])
    }
}

/// The text of the file at `path`.
private func currentText(of path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
}
