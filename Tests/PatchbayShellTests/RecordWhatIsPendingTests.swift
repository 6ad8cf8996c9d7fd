import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) @testable import PatchbayShell
import Testing

// A recording started in the middle of a session must replay as the session runs: what its
// opening cannot carry (a transaction open, a navigation stack, a timer that runs a reducer
// removed or replaced since) makes `record` refuse, saying what to do; once that is done, the
// recording starts and verifies. What it can carry, it carries: the URLs routed before it.

@Suite("record refuses what its replay could not rebuild")
struct RecordWhatIsPendingTests {
    private func refusal(after setup: String) throws -> (message: String, session: DataflowSession, path: String, TemporaryDirectory) {
        let directory = TemporaryDirectory()
        let path = directory.path + "/r.jsonl"
        let session = DataflowSession()
        session.run(setup)
        let outcome = session.outcome("record \(path)")
        #expect(outcome.status == .failure)
        #expect(!FileManager.default.fileExists(atPath: path), "a refused recording makes no file")
        let message = try #require(outcome.lines.first?.text.split(separator: "\n").first.map(String.init))
        return (message, session, path, directory)
    }

    private func verifies(_ path: String, after commands: String, in session: DataflowSession) {
        session.run(commands + "\nrecord stop")
        let replay = DataflowSession()
        let outcome = replay.outcome("replay \(path) --verify")
        #expect(outcome.status == .success, "\(outcome.lines.map(\.text))")
    }

    @Test(arguments: ["reducer rm r1", "reducer r1 : state.n += 10"])
    func aTimerOfAReducerRemovedOrReplacedSinceIsRefused(change: String) throws {
        let (message, session, path, directory) = try refusal(after: """
            store app = {n: 0}
            reducer app on L after 5 : state.n += 1
            dispatch app L
            \(change)
            """)
        let changed = change.hasPrefix("reducer rm") ? "removed" : "replaced"
        #expect(message == "error: \(path): cannot start a recording that replays as this session runs: a timer of app's reducer r1 "
            + "is pending at 5 ms, and r1 was \(changed) since: a replay would not run what it runs; 'tick 5' first")
        session.run("tick 5")
        #expect(session.outcome("record \(path)").status == .success)
        verifies(path, after: "dispatch app L\ntick 5", in: session)
        withExtendedLifetime(directory) {}
    }

    @Test func aTimerOfTheReducerAsItIsRecordsAndVerifies() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/r.jsonl"
        let session = DataflowSession()
        session.run("store app = {n: 0}\nreducer app on L after 5 : state.n += 1\ndispatch app L")
        #expect(session.outcome("record \(path)").status == .success)
        verifies(path, after: "tick 5", in: session)
    }

    @Test func anOpenTransactionIsRefused() throws {
        let (message, session, path, directory) = try refusal(after: "store app = {n: 0}\nreducer app on L : state.n += 1\nbegin\ndispatch app L")
        #expect(message.hasSuffix("a transaction is open: end it with 'commit' or 'abort' first"))
        session.run("commit")
        #expect(session.outcome("record \(path)").status == .success)
        verifies(path, after: "dispatch app L", in: session)
        withExtendedLifetime(directory) {}
    }

    @Test func aNavigationStackIsRefused() throws {
        let (message, session, path, directory) = try refusal(after: "route add /a view=A\nroute add /b view=B\nroute /a\nroute /b")
        #expect(message.hasSuffix("the navigation stack holds 2 screens, which a replay cannot rebuild: close them with 'back' first, or 'reset'"))
        session.run("back\nback")
        #expect(session.outcome("record \(path)").status == .success)
        verifies(path, after: "route /a\nback", in: session)
        withExtendedLifetime(directory) {}
    }

    /// Found by the session oracle: a reducer given a new body (`reducer r1 : ...`) keeps its
    /// guard, whose error must name the guard's text as the whole definition (which a recording
    /// replays) does, or the replay's failure reads otherwise and the verification fails.
    @Test func aReplacedReducersGuardFailsAsItsWholeDefinitionDoes() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/r.jsonl"
        let session = DataflowSession()
        session.run("store log = {n: 0}\nreducer log on Inc when action.by > 2 : state.n += 1\nreducer r1 : state.n += 2\nrecord \(path)")
        let failure = session.run("dispatch log Inc").first ?? ""
        #expect(failure.contains("no key 'by' (keys: type) in 'action.by'; use ?. or ?? to read optional data"), "\(failure)")
        verifies(path, after: "dispatch log Inc {by: 3}", in: session)
    }

    /// The router's history at `record` goes into the opening: a replay and `inspect` list the
    /// URLs routed before the recording as the live session does.
    @Test func theURLsRoutedBeforeARecordingAreInIt() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/routes.jsonl"
        let live = DataflowSession()
        live.run("route add /message/:user view=Message\nroute /message/max\nroute /message/ada?tab=2\nback\nback")
        live.run("record \(path)\nroute /message/bo\nback\nrecord stop")
        let routed = live.run("history router")
        #expect(routed.count == 3, "\(routed)")
        let replay = DataflowSession()
        #expect(replay.outcome("replay \(path) --verify").status == .success)
        #expect(replay.run("history router") == routed)
        let inspected = DataflowSession()
        inspected.run("inspect \(path)")
        #expect(inspected.run("history router") == routed)
    }
}
