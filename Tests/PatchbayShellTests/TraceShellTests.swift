import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) @testable import PatchbayShell
import Testing

// Where an action came from: `history --trace` and `show STORE #N` name the line of the app that
// dispatched it (a recording of an app's `Store`, a hosted store's middleware), or the command,
// wire or timer of the shell that did, as `why` tells it.

@Suite("Tracing actions to where they were dispatched")
struct TraceShellTests {
    /// The sites `history --trace` lists, oldest first.
    private static func tracedSites(_ shell: Shell, _ command: String = "history --trace",
                                    sourceLocation: SourceLocation = #_sourceLocation) throws -> [ActionSite?] {
        let listing = try shell.report(command, as: HistoryListing.self, sourceLocation: sourceLocation)
        #expect(listing.trace, sourceLocation: sourceLocation)
        return listing.entries.map(\.site)
    }

    @Test func aRecordedStoresActionsReadBackWithTheLinesThatDispatchedThem() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/app.jsonl"
        let store = Store(initialState: Tally(), reducer: HostedFixtures.tallyReducer())
        let recorder = try Recorder(store: store, path: path, storeName: "tally", detail: .everyChange)
        let first = #line; store.dispatch(.add(amount: 2))
        let second = #line; store.dispatch(.double)
        recorder.stop()

        let session = DataflowSession()
        session.run("inspect \(path)")
        let sites = [first, second].map { ActionSite.source(CallSite(file: #fileID, line: $0)) }
        #expect(try Self.tracedSites(session.shell) == sites)
        let shown = try session.report("show tally #2", as: StepShown.self)
        #expect(shown.step.site == sites[1])
        #expect(session.run("show tally #2") == ["tally #2 double  total: 2 → 4", "  site: PatchbayShellTests/TraceShellTests.swift:\(second)"])
        #expect(session.run("history --trace --last 1") == [
            ">  #2 double  total", "     site: PatchbayShellTests/TraceShellTests.swift:\(second)",
        ])
    }

    @Test func aHostedStoresMiddlewareDispatchesFromItsOwnLine() throws {
        var followUpLine = 0
        let noting = Middleware<Tally, TallyAction> { action, context in
            if case .double = action { followUpLine = #line; context.dispatch(.note("doubled")) }
            return action
        }
        let session = try HostedFixtures.session([HostedFixtures.tally(middleware: [noting])])
        session.run("dispatch tally add {amount: 1}\ndispatch tally double")
        #expect(try Self.tracedSites(session.shell) == [
            .shell(["dispatch tally add {amount: 1}"]), .shell(["dispatch tally double"]),
            .source(CallSite(file: #fileID, line: followUpLine)),
        ])
    }

    @Test func replayVerifiesWhatTheReducersDidWhereverTheActionsWereDispatchedFrom() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/app.jsonl"
        let recorded = Middleware<Tally, TallyAction> { action, context in
            if case .double = action { context.dispatch(.note("doubled")) }
            return action
        }
        let store = Store(initialState: Tally(), reducer: HostedFixtures.tallyReducer(), middleware: [recorded])
        let recorder = try Recorder(store: store, path: path, storeName: "tally", detail: .everyChange)
        store.dispatch(.add(amount: 1))
        store.dispatch(.double)
        recorder.stop()
        // The inspector's middleware does the same from another line.
        let hosted = Middleware<Tally, TallyAction> { action, context in
            if case .double = action { context.dispatch(.note("doubled")) }
            return action
        }
        let session = try HostedFixtures.session([HostedFixtures.tally(middleware: [hosted])])
        #expect(session.run("replay \(path) --verify").last?.hasPrefix("verified") == true)
    }

    @Test func aShellStoreNamesTheCommandTheWireOrTheTimer() throws {
        let session = DataflowSession()
        session.run("""
            store app = {n: 0}
            store audit = {count: 0}
            reducer app on Add : state.n += 1
            reducer app on Add after 5 : state.n += 10
            reducer audit on Seen : state.count += 1
            wire app.action -> audit.dispatch : {type: 'Seen'}
            dispatch app Add
            tick 5
            """)
        #expect(try Self.tracedSites(session.shell, "history app --trace") == [.shell(["dispatch app Add"]), .shell(["tick (r2 after 5 ms)"])])
        // The wire's chain is the one `why` gives for what the wire carried, up to the store's input.
        let why = try session.report("why audit.dispatch", as: CauseChain.self).causes
        let audit = try Self.tracedSites(session.shell, "history audit --trace")
        #expect(audit.first == .shell(["dispatch app Add", "app.action", "audit.dispatch"]))
        #expect(audit.last == .shell(why))
        #expect(session.run("show audit #1").last == "  site: dispatch app Add → app.action → audit.dispatch")
    }

    @Test func anInspectedShellRecordingNamesTheCommandBeforeEachAction() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/shell.jsonl"
        let session = DataflowSession()
        session.run("record \(path)\nstore app = {n: 0}\nreducer app on Add : state.n += action.by\ndispatch app Add {by: 2}\nrecord stop")
        let inspector = DataflowSession()
        inspector.run("inspect \(path)")
        #expect(try Self.tracedSites(inspector.shell) == [.shell(["dispatch app Add {by: 2}"])])
        #expect(try Self.tracedSites(inspector.shell) == Self.tracedSites(session.shell))
    }

    @Test func anOlderRecordingWithoutSitesSaysSo() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/old.jsonl"
        let lines = [
            SessionHeader(created: "2026-11-21T10:00:00Z").line,
            #"{"seq":1,"kind":"store","store":"app","state":{"total":0}}"#,
            #"{"seq":2,"kind":"action","store":"app","index":1,"action":{"type":"add","by":1},"patch":[{"op":"replace","path":"/total","value":1}]}"#,
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let session = DataflowSession()
        session.run("inspect \(path)")
        #expect(try Self.tracedSites(session.shell) == [nil])
        #expect(session.run("show app #1").last == "  site: not recorded")
        #expect(session.run("history").count == 2)
    }

    @Test func jsonHasTheSiteOfEachAction() throws {
        let session = DataflowSession(json: true)
        session.run("store app = {n: 0}\nreducer app on Add : state.n += 1\ndispatch app Add")
        let history = try session.report("history --trace", as: HistoryListing.self).json
        #expect(history == [["index": 1, "action": ["type": "Add"], "changes": [["path": "n", "op": "replace", "old": 0, "new": 1]],
                             "skipped": false, "failed": false, "current": true, "site": ["shell": ["dispatch app Add"]]]])
        guard case .array(let plain) = try session.report("history", as: HistoryListing.self).json else {
            Issue.record("history's JSON is not an array")
            return
        }
        #expect(plain.first?["site"] == nil)
        let shown = try session.report("show app #1", as: StepShown.self).json
        #expect(shown["site"] == ["shell": ["dispatch app Add"]])
        #expect(shown["index"] == 1)
        #expect(session.run("show app #1").first?.contains(#""site":{"shell":["dispatch app Add"]}"#) == true)
    }

    @Test func traceIsAnOptionOfTheListOnly() throws {
        let session = DataflowSession()
        session.run("store app = {n: 0}\nreducer app on Add : state.n += 1\ndispatch app Add")
        #expect(try session.shell.shellError("history --trace --chart n").message.contains("--trace goes without --chart"))
        #expect(try session.shell.shellError("history --trace --trace").message.contains("--trace is given twice"))
        #expect(try session.shell.shellError("show app #2").message.contains("2"))
    }
}
