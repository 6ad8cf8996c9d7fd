import Foundation
import PatchbayCore
@testable import PatchbayShell
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

@Suite("Shell stores: replacing a reducer")
struct ReducerReplacementTests {
    @Test func aReplacedReducerKeepsItsIDStoreTypeAndPlace() throws {
        let session = counter()
        #expect(session.run("reducer r1 : state.n += 10") == ["r1: app on Add : state.n += 10"])
        #expect(session.run("reducer list") == ["r1: app on Add : state.n += 10", "r2: app on Add : state.n = state.n * 2"])
        expectStep(try session.step("dispatch app Add"), 1, "Add", [.at("n", from: 0, to: 20)])
    }

    @Test func itKeepsItsScopeGuardAndDelay() {
        let session = DataflowSession()
        session.run("store app = {user: {name: 'x'}}")
        session.run("reducer app on Rename at user when action.name != '' after 5 : state.name = action.name")
        #expect(session.run("reducer r1 : state.name = action.name + '!'") == [
            "r1: app on Rename at user when action.name != '' after 5 : state.name = action.name + '!'",
        ])
    }

    @Test func anUnknownIDOrAMissingBodyIsAnErrorThatChangesNothing() {
        let session = counter()
        #expect(session.error("reducer r9 : state.n = 0") == "error: no reducer 'r9' (reducers: r1, r2)")
        #expect(session.error("reducer r1 :").hasPrefix("error: missing statements; usage: reducer "))
        #expect(session.error("reducer r1 : state.n +").hasPrefix("error: "))
        #expect(session.run("reducer list") == ["r1: app on Add : state.n += 1", "r2: app on Add : state.n = state.n * 2"])
    }

    @Test func aChangeOfReducersOnAStoreWithAHistorySaysHowToRecomputeIt() throws {
        let session = counter()
        // No history yet: nothing to say.
        #expect(session.run("reducer r1 : state.n += 2") == ["r1: app on Add : state.n += 2"])
        session.run("dispatch app Add\ndispatch app Add\ndispatch app Add")
        let note = "note: app's 3 states were made by the old reducers; 'history recompute app' runs them again"
        #expect(session.run("reducer r1 : state.n += 10") == ["r1: app on Add : state.n += 10", note])
        #expect(session.run("reducer app on Add : state.n -= 1") == ["r3: app on Add : state.n -= 1", note])
        #expect(session.run("reducer rm r3") == ["removed r3", note])
        // The first changed state as `diff` prints it: it was 0 + 2 then * 2, it is 0 + 10 then * 2.
        #expect(session.run("history recompute app") == [
            "recomputed 3 actions of app with its reducers as they are now: 3 states changed, the first at #1:", "n: 4 → 20",
        ])
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
