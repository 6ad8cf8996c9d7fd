import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) @testable import PatchbayShell
@_spi(Shell) import PatchbayGraph
import Testing

// The reducer-fix loop: `reducer ID : STATEMENTS` replaces a reducer's body in place, the shell
// says when a history was made by the old reducers, `reducer list` prints what can be typed
// back, and recordings and `save` keep a replaced reducer. Then what `dispatch` accepts.

/// A store whose two reducers of `Add` only give 20 for `reducer r1 : state.n += 10` when r1
/// still runs first: (0 + 10) * 2, not 0 * 2 + 10.
private func counter() -> DataflowSession {
    let session = DataflowSession()
    session.run("store app = {n: 0}\nreducer app on Add : state.n += 1\nreducer app on Add : state.n = state.n * 2")
    return session
}

/// The `result` object of a `--json` line.
private func resultObject(_ line: String) throws -> [String: Any]? {
    let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    return object?["result"] as? [String: Any]
}

/// A reducer as its line shows it: id, store, type, `at`, `when`, `after` and body.
private func fields(_ reducer: ReducerSummary) -> [String?] {
    [reducer.id, reducer.store, reducer.type, reducer.path, reducer.condition, reducer.delay.map { "\($0)" }, reducer.body]
}

/// The reducer `command` added or replaced, as its line shows it; the command must note no history.
private func reducer(_ session: DataflowSession, _ command: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String?] {
    fields(try session.report(command, as: ReducerDefined.self, sourceLocation: sourceLocation).summary)
}

/// The reducers `reducer list` lists, as their lines show them.
private func reducers(_ session: DataflowSession, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String?]] {
    try session.report("reducer list", as: ReducerList.self, sourceLocation: sourceLocation).reducers.map(fields)
}

@Suite("Shell stores: replacing a reducer")
struct ReducerReplacementTests {
    @Test func aReplacedReducerKeepsItsIDStoreTypeAndPlace() throws {
        let session = counter()
        #expect(try reducer(session, "reducer r1 : state.n += 10") == ["r1", "app", "Add", nil, nil, nil, "state.n += 10"])
        #expect(try reducers(session) == [["r1", "app", "Add", nil, nil, nil, "state.n += 10"], ["r2", "app", "Add", nil, nil, nil, "state.n = state.n * 2"]])
        expectStep(try session.step("dispatch app Add"), 1, "Add", [.at("n", from: 0, to: 20)])
    }

    @Test func itKeepsItsScopeGuardAndDelay() throws {
        let session = DataflowSession()
        session.run("store app = {user: {name: 'x'}}")
        session.run("reducer app on Rename at user when action.name != '' after 5 : state.name = action.name")
        #expect(try reducer(session, "reducer r1 : state.name = action.name + '!'")
                == ["r1", "app", "Rename", "user", "action.name != ''", "5", "state.name = action.name + '!'"])
    }

    @Test func anUnknownIDOrAMissingBodyIsAnErrorThatChangesNothing() throws {
        let session = counter()
        #expect(session.error("reducer r9 : state.n = 0") == "error: no reducer 'r9' (reducers: r1, r2)")
        #expect(session.error("reducer r1 :").hasPrefix("error: missing statements; usage: reducer "))
        #expect(session.error("reducer r1 : state.n +").hasPrefix("error: "))
        #expect(try reducers(session) == [["r1", "app", "Add", nil, nil, nil, "state.n += 1"], ["r2", "app", "Add", nil, nil, nil, "state.n = state.n * 2"]])
    }

    @Test func aChangeOfReducersOnAStoreWithAHistorySaysHowToRecomputeIt() throws {
        let session = counter()
        // No history yet: nothing to say.
        #expect(try reducer(session, "reducer r1 : state.n += 2") == ["r1", "app", "Add", nil, nil, nil, "state.n += 2"])
        session.run("dispatch app Add\ndispatch app Add\ndispatch app Add")
        // Each change then notes that app's 3 states were made by the old reducers.
        let replaced = try session.report("reducer r1 : state.n += 10", as: StaleHistoryNoted<ReducerDefined>.self)
        #expect(fields(replaced.change.summary) == ["r1", "app", "Add", nil, nil, nil, "state.n += 10"] && replaced.store == "app" && replaced.states == 3)
        let added = try session.report("reducer app on Add : state.n -= 1", as: StaleHistoryNoted<ReducerDefined>.self)
        #expect(fields(added.change.summary) == ["r3", "app", "Add", nil, nil, nil, "state.n -= 1"] && added.store == "app" && added.states == 3)
        let removed = try session.report("reducer rm r3", as: StaleHistoryNoted<StoreHandlerRemoved>.self)
        #expect(removed.change.id == "r3" && removed.store == "app" && removed.states == 3)
        // The first changed state as `diff` gives it: it was 0 + 2 then * 2, it is 0 + 10 then * 2.
        let recomputed = try session.report("history recompute app", as: Recomputed.self)
        #expect(recomputed.store == "app" && recomputed.actions == 3 && recomputed.changedStates == 3 && recomputed.firstChanged == 1)
        #expect(recomputed.firstChanges.isIdentical(to: [.at("n", from: 4, to: 20)]))
        #expect(try session.value("state app").isIdentical(to: ["n": 140]))
    }

    @Test func inJSONTheNoteIsAMemberOfTheResult() throws {
        let session = DataflowSession(json: true)
        session.run("store app = {n: 0}\nreducer app on Add : state.n += 1\ndispatch app Add")
        let lines = session.run("reducer r1 : state.n += 2")
        #expect(lines.count == 1)
        let result = try #require(try resultObject(lines[0]))
        #expect(result["note"] as? String == "app's 1 state was made by the old reducers; 'history recompute app' runs them again")
        #expect(result["body"] as? String == "state.n += 2")
    }
}

@Suite("Shell stores: reducer list types back")
struct ReducerListRoundTripTests {
    /// Reducers of every form: a guard with a string, a scope, a delay, a `*`, and bodies over
    /// several lines.
    private let definitions = [
        "reducer app on Add : state.n += action.by",
        "reducer app on Rename at user when action.name != \"\" after 5 : state.name = action.name",
        "reducer app on * when action.type != 'Tick' : state.seen += 1",
        "reducer app on Many : if action.ok {\n  state.n = 1\n  state.seen = 2\n} else {\n  state.n = 0\n}",
        "reducer app on Obj : state.user = {\n  name: 'a',\n  tags: [1,\n    2]\n}",
    ]

    @Test func everyListedReducerTypedBackGivesTheSameReducer() {
        let original = DataflowSession()
        original.run("store app = {n: 0, seen: 0, user: {name: ''}}")
        for definition in definitions { #expect(original.outcome(definition).status == .success, "\(definition)") }
        let listed = original.outcome("reducer list").lines.map(\.text)
        #expect(listed.count == definitions.count)
        let copy = DataflowSession()
        copy.run("store app = {n: 0, seen: 0, user: {name: ''}}")
        for line in listed {
            // `r1: app on ...` types back as `reducer app on ...`.
            let typed = "reducer " + line.drop { $0 != " " }.dropFirst()
            #expect(copy.outcome(typed).status == .success, "\(typed)")
        }
        #expect(copy.outcome("reducer list").lines.map(\.text) == listed)
        // The same reducers: the same actions give the same states.
        let actions = "dispatch app Add {by: 2}\ndispatch app Many {ok: true}\ndispatch app Obj\ndispatch app Rename {name: 'b'}\nstate app"
        #expect(copy.run(actions) == original.run(actions))
    }
}

@Suite("Shell stores: a replaced reducer in recordings and saved scripts")
struct ReplacedReducerPersistenceTests {
    @Test func aRecordingWithAReplacedReducerReplaysVerified() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/fix.jsonl"
        let live = counter()
        live.shell.options.now = { Date(timeIntervalSince1970: 1_795_255_200) }
        live.run("record \(path)\ndispatch app Add")
        #expect(live.run("reducer r1 : state.n += 10").first == "r1: app on Add : state.n += 10")
        live.run("dispatch app Add\nhistory recompute app\nrecord stop")
        // (0 + 10) * 2 = 20, then (20 + 10) * 2 = 60: both actions ran with the new body.
        #expect(try live.value("state app").isIdentical(to: ["n": 60]))
        let replaying = DataflowSession()
        let replay = replaying.run("replay \(path) --verify")
        #expect(replay.last?.hasPrefix("verified ") == true, "\(replay)")
        #expect(replaying.run("state app\nreducer list") == live.run("state app\nreducer list"))
    }

    @Test func saveWritesTheReplacedReducerInItsPlace() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/fix.pb"
        let saved = counter()
        saved.run("reducer r1 : state.n += 10\nsave \(path)")
        let loaded = DataflowSession()
        loaded.run("load \(path)")
        #expect(loaded.run("reducer list") == saved.run("reducer list"))
        expectStep(try loaded.step("dispatch app Add"), 1, "Add", [.at("n", from: 0, to: 20)])
    }
}

@Suite("Shell stores: reducer ids")
struct ReducerIDTests {
    private static let afterARemoval = """
        store s = {n: 0}
        reducer s on Add : state.n += 1
        reducer s on Add : state.n += 10
        reducer s on Sub : state.n -= 1
        reducer rm r1
        """

    @Test func aNewReducerTakesTheLowestFreeIdOrTheOneItAsksFor() {
        let session = DataflowSession()
        session.run(Self.afterARemoval)
        #expect(session.run("reducer s on Mul : state.n = state.n * 2").first == "r1: s on Mul : state.n = state.n * 2")
        #expect(session.run("reducer r7 = s on Div : state.n = state.n / 2").first == "r7: s on Div : state.n = state.n / 2")
        #expect(session.run("reducer s on Neg : state.n = -state.n").first == "r4: s on Neg : state.n = -state.n")
    }

    @Test func aBadOrTakenIdIsAnErrorAtTheId() throws {
        let session = DataflowSession()
        session.run(Self.afterARemoval)
        let before = session.run("reducer list")
        #expect(session.error("reducer r2 = s on Mul : state.n = state.n * 2") == "error: reducer r2 exists: 'reducer r2 : STATEMENTS' gives it a new body, 'reducer rm r2' removes it")
        try session.expectError("reducer x2 = s on Mul : state.n = state.n * 2", "'x2' is not a reducer id: ids are r and a number (r1, r2, ...)", at: 8..<10)
        #expect(session.run("reducer list") == before)
    }

    @Test func aSavedSessionLoadsWithTheSameIds() {
        let directory = TemporaryDirectory()
        let path = directory.path + "/ids.pb"
        let saved = DataflowSession()
        saved.run(Self.afterARemoval + "\nsave \(path)")
        let loaded = DataflowSession()
        loaded.run("load \(path)")
        #expect(loaded.run("reducer list") == saved.run("reducer list"))
        #expect(loaded.run("dispatch s Add\ndispatch s Sub") == saved.run("dispatch s Add\ndispatch s Sub"))
    }

    @Test func aRecordingThatStartsAfterARemovalReplaysCommandsThatNameReducers() {
        let directory = TemporaryDirectory()
        let path = directory.path + "/ids.jsonl"
        let live = DataflowSession()
        live.shell.options.now = { Date(timeIntervalSince1970: 1_795_255_200) }
        live.run(Self.afterARemoval)
        live.run("""
            record \(path)
            reducer r2 : state.n += 100
            dispatch s Add
            reducer rm r3
            reducer s on Mul : state.n = state.n * 2
            dispatch s Mul
            record stop
            """)
        let replaying = DataflowSession()
        let replay = replaying.run("replay \(path) --verify")
        #expect(replay.last == "verified 5 steps of \(path): every effect matches the recording", "\(replay)")
        #expect(replaying.run("state s\nreducer list") == live.run("state s\nreducer list"))
    }
}

@Suite("Shell stores: what dispatch accepts")
struct DispatchTypeSafetyTests {
    @Test func aStoreWithoutATypeIsAnErrorNamingTheForms() throws {
        let session = counter()
        let error = session.error("dispatch app")
        #expect(error.hasPrefix("error: app is a store: name the action type after it (dispatch app TYPE) or give the whole action (dispatch app {type: 'TYPE'})"), "\(error)")
        #expect(session.run("history app").count == 1)
        #expect(try session.value("state app").isIdentical(to: ["n": 0]))
    }

    @Test func aReduxStyleActionObjectIsTheAction() throws {
        let session = DataflowSession()
        session.run("store app = {n: 0}\nreducer app on Add : state.n += action.by")
        expectStep(try session.step("dispatch app {type: \"Add\", by: 2}"), 1, "Add", [.at("n", from: 0, to: 2)])
        expectStep(try session.step("dispatch {type: 'Add', by: 3}"), 2, "Add", [.at("n", from: 2, to: 5)])
        #expect(session.error("dispatch app {by: 2}").hasPrefix("error: the action has no type: give it a string type"))
        #expect(session.error("dispatch app {type: 1}").hasPrefix("error: the action has a type that is int"))
        #expect(session.error("dispatch app [1]").hasPrefix("error: "))
        #expect(try session.value("state app").isIdentical(to: ["n": 5]))
    }

    @Test func aTypeNoReducerHandlesWarnsWithTheClosestAndStillRuns() throws {
        let session = DataflowSession()
        session.run("store app = {n: 0}\nreducer app on INCREMENT : state.n += 1")
        #expect(session.run("dispatch app INCREMENTT") == [
            "warning: no reducer of app handles 'INCREMENTT'; did you mean 'INCREMENT'?",
            "#1 INCREMENTT  (no changes)",
        ])
        #expect(session.run("dispatch app Reset") == ["warning: no reducer of app handles 'Reset'", "#2 Reset  (no changes)"])
        expectStep(try session.step("dispatch app INCREMENT"), 3, "INCREMENT", [.at("n", from: 0, to: 1)])
        // A `*` reducer handles every type.
        session.run("reducer app on * : state.seen = action.type")
        expectStep(try session.step("dispatch app INCREMENTT"), 4, "INCREMENTT", [.at("seen", to: "INCREMENTT")])
    }

    @Test func inJSONTheWarningIsAMemberNotText() throws {
        let session = DataflowSession(json: true)
        session.run("store app = {n: 0}\nreducer app on INCREMENT : state.n += 1")
        let lines = session.run("dispatch app INCREMENTT")
        #expect(lines.count == 1)
        let result = try #require(try resultObject(lines[0]))
        #expect(result["warning"] as? String == "no reducer of app handles 'INCREMENTT'; did you mean 'INCREMENT'?")
        #expect(result["index"] as? Int == 1)
    }
}
