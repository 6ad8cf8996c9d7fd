import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayRecorder
import PatchbayTestSupport
import Testing

private struct Tally: Codable, Equatable, Sendable {
    var count = 0
    var names: [String] = []
}

private enum TallyAction: Codable, Sendable {
    case add(Int)
    case name(String)
}

private func tallyStore() -> Store<Tally, TallyAction> {
    Store(initialState: Tally(), reducer: Reducer { state, action in
        switch action {
        case .add(let by): state.count += by
        case .name(let name): state.names.append(name)
        }
    })
}

/// Waits until `condition` holds, checking it every millisecond; `false` after `timeout`.
private func eventually(within timeout: Duration = .seconds(20), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        Thread.sleep(forTimeInterval: 0.001)
    }
    return true
}

/// The connection a listener accepted, read to its end (the app closed it) or until `timeout`.
private func received(by listener: SessionListener, timeout: Duration = .seconds(20)) throws -> [UInt8] {
    var accepted: (descriptor: Int32, peer: String)?
    try #require(eventually(within: timeout) { accepted = listener.accept(); return accepted != nil }, "no connection arrived")
    let descriptor = accepted!.descriptor
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    var ended = false
    try #require(eventually(within: timeout) {
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count > 0 {
                bytes += chunk[..<count]
                continue
            }
            ended = count == 0
            return ended
        }
    }, "the connection did not end")
    return bytes
}

@Suite("Recorder: into a listening shell")
struct RecorderConnectionTests {
    private static let created = Date(timeIntervalSince1970: 1_790_000_000)

    private static func dispatchSome(_ store: Store<Tally, TallyAction>) {
        for index in 1...50 { store.dispatch(index % 7 == 0 ? .name("n\(index)") : .add(index)) }
    }

    @Test(arguments: [RecordingDetail.everyChange, .checkpoints])
    func theConnectionGetsTheBytesAFileGets(detail: RecordingDetail) throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fileStore = tallyStore()
        let file = try Recorder(store: fileStore, path: path, detail: detail, created: Self.created, checkpointInterval: 5)
        Self.dispatchSome(fileStore)
        file.stop()

        let listener = try SessionListener(host: "127.0.0.1", port: 0)
        print("listening on port \(listener.port)")
        let store = tallyStore()
        let connected = try Recorder(store: store, connectingTo: "127.0.0.1", port: listener.port, detail: detail, created: Self.created,
                                     checkpointInterval: 5)
        #expect(connected.path == "127.0.0.1:\(listener.port)")
        Self.dispatchSome(store)
        connected.stop()
        #expect(connected.error == nil)
        let bytes = try received(by: listener)
        #expect(bytes == Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(bytes.count > 1000)
    }

    @Test func aTokenGoesFirstOnItsOwnLine() throws {
        let listener = try SessionListener(host: "127.0.0.1", port: 0)
        let store = tallyStore()
        let recorder = try Recorder(store: store, connectingTo: "127.0.0.1", port: listener.port, token: "s3cret-Token_1", created: Self.created)
        store.dispatch(.add(2))
        recorder.stop()
        let lines = try received(by: listener).split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
        #expect(lines.first == #"{"token":"s3cret-Token_1"}"#)
        #expect(lines.dropFirst().first?.hasPrefix(#"{"patchbay":"session""#) == true, "\(lines)")
    }

    @Test func aTokenThatCannotBeSentIsRefusedBeforeConnecting() throws {
        let listener = try SessionListener(host: "127.0.0.1", port: 0)
        #expect(throws: RecorderError.self) {
            try Recorder(store: tallyStore(), connectingTo: "127.0.0.1", port: listener.port, token: #"a"b"#)
        }
        #expect(listener.accept() == nil)
    }

    @Test func noShellListeningIsAThrownError() throws {
        // A port that was listened on and is closed again.
        let port = try SessionListener(host: "127.0.0.1", port: 0).port
        do {
            _ = try Recorder(store: tallyStore(), connectingTo: "127.0.0.1", port: port)
            Issue.record("connected to a port nobody listens on")
        } catch {
            guard case .session(let session) = error, case .cannotConnect = session.reason else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(error.description.hasPrefix("127.0.0.1:\(port): cannot connect: "), "\(error)")
            #expect(error.description.hasSuffix("; is 'inspect --listen' running there?"))
        }
    }

    @Test func aConnectionThatDropsStopsTheRecordingAndNotTheApp() throws {
        let listener = try SessionListener(host: "127.0.0.1", port: 0)
        let store = tallyStore()
        let recorder = try Recorder(store: store, connectingTo: "127.0.0.1", port: listener.port, detail: .everyChange)
        var accepted: (descriptor: Int32, peer: String)?
        try #require(eventually { accepted = listener.accept(); return accepted != nil })
        // The shell goes away: every later write fails (EPIPE or ECONNRESET), and no SIGPIPE.
        close(accepted!.descriptor)
        var dispatched = 0
        #expect(eventually {
            store.dispatch(.add(1))
            dispatched += 1
            recorder.flush()
            return recorder.error != nil
        })
        #expect(!recorder.isRecording)
        guard case .session(let error)? = recorder.error, case .connectionLost = error.reason else {
            Issue.record("unexpected error \(String(describing: recorder.error))")
            return
        }
        #expect(error.description.contains("the connection was lost: "), "\(error)")
        // The app goes on.
        store.dispatch(.add(1))
        #expect(store.state.count == dispatched + 1)
        recorder.stop()
    }
}

/// A connection's preface before its session: the token line when the shell asks for one,
/// then the header, without waiting.
@Suite("Listening: a connection's token and header")
struct IncomingSessionTests {
    private static let header = SessionHeader(created: "2026-11-21T10:00:00Z").line + "\n"

    /// An `IncomingSession` over a connected pair of sockets: the test writes one end.
    private static func incoming(token: String?) -> (IncomingSession, Int32) {
        var ends: [Int32] = [0, 0]
        #if canImport(Glibc)
        let stream = Int32(SOCK_STREAM.rawValue)
        #else
        let stream = SOCK_STREAM
        #endif
        #expect(socketpair(AF_UNIX, stream, 0, &ends) == 0)
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        return (IncomingSession(descriptor: ends[0], peer: "peer", token: token), ends[1])
    }

    private static func send(_ text: String, to descriptor: Int32) {
        let bytes = Array(text.utf8)
        #expect(write(descriptor, bytes, bytes.count) == bytes.count)
    }

    private static func reason(_ body: () throws(SessionError) -> SessionFileReader?) -> SessionError.Reason? {
        do throws(SessionError) { _ = try body(); return nil } catch { return error.reason }
    }

    @Test func theRightTokenThenTheHeaderStartTheSessionAtLineOne() throws {
        var (session, app) = Self.incoming(token: "t0k")
        defer { close(app) }
        #expect(try session.poll() == nil)
        Self.send(#"{"token":"t0"#, to: app)
        #expect(try session.poll() == nil)
        Self.send("k\"}\n" + Self.header + #"{"seq":1,"kind":"store","store":"app","state":{"n":0}}"# + "\n{oops\n", to: app)
        let reader = try #require(try session.poll())
        #expect(try reader.next()?.line == 2)
        #expect(throws: SessionError.self) { try reader.next() }
        #expect(reader.damage?.line == 3)
        #expect(reader.damage?.path == "peer")
    }

    @Test func aWrongOrMissingTokenIsRefused() {
        var (wrong, first) = Self.incoming(token: "t0k")
        defer { close(first) }
        Self.send(#"{"token":"t0K"}"# + "\n" + Self.header, to: first)
        #expect(Self.reason { () throws(SessionError) in try wrong.poll() } == .wrongToken)
        var (missing, second) = Self.incoming(token: "t0k")
        defer { close(second) }
        Self.send(Self.header, to: second)
        #expect(Self.reason { () throws(SessionError) in try missing.poll() } == .missingToken)
    }

    @Test func aTokenSentToAShellThatAsksForNoneIsPassedOver() throws {
        var (session, app) = Self.incoming(token: nil)
        defer { close(app) }
        Self.send(#"{"token":"t0k"}"# + "\n" + Self.header, to: app)
        let reader = try #require(try session.poll())
        #expect(reader.header.version == 1)
    }

    @Test func aPrefaceWithoutALineBreakOrEndedEarlyIsRefused() {
        var (long, first) = Self.incoming(token: nil)
        defer { close(first) }
        Self.send(String(repeating: "x", count: IncomingSession.maximumPrefaceBytes + 1), to: first)
        #expect(Self.reason { () throws(SessionError) in try long.poll() } == .lineTooLong(limit: IncomingSession.maximumPrefaceBytes))
        var (cut, second) = Self.incoming(token: nil)
        Self.send(#"{"patchbay":"sess"#, to: second)
        close(second)
        #expect(Self.reason { () throws(SessionError) in try cut.poll() } == .cutShort)
        var (silent, third) = Self.incoming(token: nil)
        close(third)
        #expect(Self.reason { () throws(SessionError) in try silent.poll() } == .empty)
        var (notASession, fourth) = Self.incoming(token: nil)
        defer { close(fourth) }
        Self.send("GET / HTTP/1.1\r\n", to: fourth)
        guard case .notASession? = Self.reason({ () throws(SessionError) in try notASession.poll() }) else {
            Issue.record("an HTTP request read as a session")
            return
        }
    }
}
