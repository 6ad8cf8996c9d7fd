import Foundation
@_spi(Shell) @testable import PatchbayShell
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import Testing

// `middleware STORE [on TYPE] : STATEMENTS` through the shell (VISPER-Redux and ReSwift have
// middleware; the typed library's is `Middleware`): it sees each action before the reducers,
// changes it, drops it or dispatches more (queued); listed, removed by id, saved, recorded and
// replayed; a failing one leaves everything as it was.

private let counter = """
    store app = {count: 0, log: []}
    reducer app on Add : state.count += action.by
    reducer app on Log : state.log = append(state.log, action.text)
    """

@Suite("Shell stores: middleware")
struct MiddlewareShellTests {
    @Test func aMiddlewareChangesTheActionBeforeTheReducers() throws {
        let session = DataflowSession()
        session.run(counter)
        #expect(try middleware(session, "middleware app on Add : action.by = action.by * 10") == ["m1", "app", "Add", "action.by = action.by * 10"])
        expectStep(try session.step("dispatch app Add {by: 2}"), 1, "Add", [.at("count", from: 0, to: 20)])
        // The history keeps the action as the reducers got it.
        let history = try session.report("history", as: HistoryListing.self)
        #expect(history.showsInitialState && history.current == 1 && history.entries.map(\.index) == [1])
        #expect(history.entries.map { $0.changes.map(\.pathText) } == [["count"]])
        #expect(history.entries.first?.action.isIdentical(to: ["type": "Add", "by": 20]) == true)
        // Another type goes by untouched.
        expectStep(try session.step("dispatch app Log {text: \"hi\"}"), 2, "Log", [.at("log[0]", to: "hi")])
    }

    @Test func aMiddlewareReadsTheStateBeforeTheActionAndRunsInOrder() throws {
        let session = DataflowSession()
        session.run(counter)
        session.run("middleware app on Add : action.by = action.by + state.count")
        session.run("middleware app : if action.type == \"Add\" { action.by = action.by * 2 }")
        expectStep(try session.step("dispatch app Add {by: 1}"), 1, "Add", [.at("count", from: 0, to: 2)])
        expectStep(try session.step("dispatch app Add {by: 1}"), 2, "Add", [.at("count", from: 2, to: 8)])
    }

    @Test func dropLeavesNoStepAndChangesNothing() throws {
        let session = DataflowSession()
        session.run(counter)
        session.run("middleware app on Add : if action.by < 0 { drop }; action.by = 100")
        let dropped = try session.report("dispatch app Add {by: -1}", as: DispatchReport.self)
        #expect(dropped.outcome == .dropped(type: "Add") && dropped.warning == nil)
        #expect(try session.value("state").isIdentical(to: ["count": 0, "log": []]))
        try expectNoActions(session)
        // `drop` ends the statements: the assignment after it did not run for the dropped action.
        expectStep(try session.step("dispatch app Add {by: 1}"), 1, "Add", [.at("count", from: 0, to: 100)])
    }

    @Test func whatAMiddlewareDispatchesIsQueuedAfterTheAction() throws {
        let session = DataflowSession()
        session.run(counter)
        session.run("middleware app on Add : dispatch Log {text: \"add\", before: state.count}")
        let printed = session.run("dispatch app Add {by: 3}")
        // The action first, then the follow-up, which names it.
        #expect(printed == ["#1 Add  count: 0 → 3", #"#2 Log (from #1)  log[0]: + "add""#])
        let log = try #require(try session.report("history", as: HistoryListing.self).entries.last)
        #expect(log.index == 2 && log.action.isIdentical(to: ["type": "Log", "text": "add", "before": 0]) && log.cause == 1)
        #expect(log.changes.map(\.pathText) == ["log[0]"] && log.failure == nil && !log.skipped)
        // A dropped action's dispatches still go, as in the typed library's `Store`.
        session.run("middleware app on Add : drop")
        session.run("dispatch app Add {by: 1}")
        #expect(try session.value("state app.count").isIdentical(to: 3))
        #expect(try session.value("state app.log").isIdentical(to: ["add", "add"]))
    }

    @Test func aFailingMiddlewareFailsTheDispatchAndLeavesEverythingAsItWas() throws {
        let session = DataflowSession()
        session.run(counter)
        session.run("middleware app on Add : dispatch Log {text: \"never\"}; action.by = action.by / action.zero")
        let message = session.error("dispatch app Add {by: 1, zero: 0}")
        #expect(message == "error: Add failed in middleware m1 (app keeps its state; the action was not handled): division by zero in 'action.by / action.zero'")
        #expect(try session.value("state").isIdentical(to: ["count": 0, "log": []]))
        try expectNoActions(session)
        session.run("middleware rm m1\nmiddleware app on Add : action = 3")
        #expect(session.error("dispatch app Add").hasSuffix(
            "the action must stay an object with a string type, such as {type: \"Add\"}, not 3"))
        #expect(try session.value("state").isIdentical(to: ["count": 0, "log": []]))
    }

    @Test func aMiddlewareCannotChangeTheState() throws {
        let session = DataflowSession()
        session.run(counter)
        #expect(session.failure("middleware app : state.count = 1") == """
            error: a middleware cannot change the state (a reducer does); it reads state and changes the action (action.by = 2), \
            drops it (drop) or dispatches more (dispatch Logged {n: 1})
              middleware app : state.count = 1
                               ^~~~~~~~~~~
            """)
        let none = try session.report("middleware list", as: MiddlewareList.self)
        #expect(none.middleware.isEmpty && none.hosted.isEmpty)
        // `drop` and `dispatch` are a middleware's: in a reducer they are no statements.
        #expect(session.error("reducer app on Add : drop").hasPrefix("error: "))
        #expect(session.run("reducer list").count == 2)
    }

    @Test func middlewareIsListedAndRemovedByID() throws {
        let session = DataflowSession()
        session.run(counter)
        session.run("store other = {n: 0}")
        session.run("middleware app on Add : drop\nmiddleware other : action.seen = true")
        #expect(try session.report("middleware list", as: MiddlewareList.self).middleware.map(fields)
                == [["m1", "app", "Add", "drop"], ["m2", "other", "*", "action.seen = true"]])
        #expect(try session.report("middleware list other", as: MiddlewareList.self).middleware.map(fields) == [["m2", "other", "*", "action.seen = true"]])
        #expect(try session.report("middleware rm m1", as: StoreHandlerRemoved.self).id == "m1")
        try session.expectError("middleware rm m1", "no middleware 'm1' (middleware: m2)", at: 14..<16)
        // As with reducers, a new one takes the lowest free id, or the one asked for.
        #expect(try middleware(session, "middleware app : drop") == ["m1", "app", "*", "drop"])
        #expect(try middleware(session, "middleware m7 = app on Add : drop") == ["m7", "app", "Add", "drop"])
        try session.expectError("middleware m7 = app : drop", "middleware m7 exists: 'middleware rm m7' removes it", at: 11..<13)
        #expect(session.error("middleware x1 = app : drop") == "error: 'x1' is not a middleware id: ids are m and a number (m1, m2, ...)")
    }

    @Test func jsonResultsAndCompletion() {
        let session = DataflowSession(json: true)
        session.run(counter)
        #expect(session.run("middleware app on Add : drop") == [
            #"{"ok":true,"command":"middleware app on Add : drop","result":{"id":"m1","store":"app","type":"Add","body":"drop"}}"#,
        ])
        #expect(session.run("dispatch app Add {by: 1}") == [#"{"ok":true,"command":"dispatch app Add {by: 1}","result":{"dropped":true}}"#])
        #expect(session.run("middleware list").first?.contains(#""result":[{"id":"m1","store":"app","type":"Add","body":"drop"}]"#) == true)
        #expect(session.shell.complete("middleware rm ", cursor: 14).candidates == ["m1"])
        #expect(session.shell.complete("middleware a", cursor: 12).candidates == ["app"])
        #expect(session.shell.complete("middleware app on ", cursor: 18).candidates == ["*", "Add", "Log"])
    }

    @Test func saveWritesTheMiddlewareAfterTheReducers() throws {
        let directory = TemporaryDirectory()
        let session = DataflowSession()
        session.run(counter)
        session.run("middleware app on Add : action.by = action.by * 2\nmiddleware app : drop\nmiddleware rm m2")
        session.run("save \(directory.path)/saved.pb")
        let saved = try String(contentsOfFile: directory.path + "/saved.pb", encoding: .utf8)
        let lines = saved.split(separator: "\n").map(String.init)
        #expect(lines.last == "middleware app on Add : action.by = action.by * 2")
        #expect(lines.firstIndex { $0.hasPrefix("reducer app on Log") }! < lines.count - 1)
        let loaded = DataflowSession()
        loaded.run("load \(directory.path)/saved.pb")
        expectStep(try loaded.step("dispatch app Add {by: 1}"), 1, "Add", [.at("count", from: 0, to: 2)])
    }

    @Test func aRecordingReplaysAndInspectsTheSameStates() {
        let directory = TemporaryDirectory()
        let path = directory.path + "/middleware.jsonl"
        let session = DataflowSession()
        session.run(counter)
        // Middleware made before the recording starts, with a gap in the ids (m2, then m1 in
        // the gap): the recording's start makes them with the same ids, so the errors and
        // `middleware rm m1` replay.
        session.run("middleware app : drop\nmiddleware app on Nothing : drop\nmiddleware rm m1")
        session.run("middleware app on Add : if action.by < 0 { drop }; action.by = action.by * 2; dispatch Log {text: \"added\"}")
        session.run("record \(path)")
        session.run("dispatch app Add {by: 2}\ndispatch app Add {by: -5}\ndispatch app Add {by: 'x'}")
        session.run("middleware app on Log : action.text = action.text + \"!\"\ndispatch app Add {by: 1}\nmiddleware rm m1\ndispatch app Add {by: 1}")
        session.run("record stop")
        let history = session.run("history")
        #expect(history.count == 6 && history[4] == #"   #4 Log {text: "added!"}  log[1]  (dispatched by #3)"#)
        #expect(DataflowSession().run("replay \(path) --verify").last?.hasPrefix("verified ") == true)
        let inspector = DataflowSession()
        inspector.run("inspect \(path)")
        #expect(inspector.run("history") == history)
        #expect(inspector.run("state") == session.run("state"))
    }

    @Test func aDevToolsFileIsNotImportedThroughMiddleware() throws {
        // Its actions went through the app's middleware when they were recorded: a store with
        // middleware would run them through it a second time, so the import refuses.
        let directory = TemporaryDirectory()
        let file = directory.write("rdt.json", #"[{"type":"Add","by":1},{"type":"Add","by":2}]"#)
        let session = DataflowSession()
        session.run(counter)
        session.run("middleware app on Add : action.by = 100; dispatch Log {text: \"x\"}")
        #expect(session.error("import devtools \(file) app").hasSuffix(
            "app has middleware (m1), which would see the imported actions a second time (a Redux DevTools file holds them as the reducers got them); 'middleware rm' it first, or import into another store"))
        #expect(try session.value("state").isIdentical(to: ["count": 0, "log": []]))
        session.run("middleware rm m1")
        #expect(session.run("import devtools \(file) app") == ["imported 2 actions into app"])
        #expect(try session.value("state").isIdentical(to: ["count": 3, "log": []]))
    }
}

/// A middleware as its line shows it: id, store, type and body.
private func fields(_ middleware: MiddlewareSummary) -> [String] {
    [middleware.id, middleware.store, middleware.type, middleware.body]
}

/// The middleware `command` added, as its line shows it.
private func middleware(_ session: DataflowSession, _ command: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
    fields(try session.report(command, as: MiddlewareDefined.self, sourceLocation: sourceLocation).summary)
}

/// Checks that `history` lists no action: the initial state alone, current.
private func expectNoActions(_ session: DataflowSession, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let history = try session.report("history", as: HistoryListing.self, sourceLocation: sourceLocation)
    #expect(history.entries.isEmpty && history.showsInitialState && history.current == 0, sourceLocation: sourceLocation)
}
