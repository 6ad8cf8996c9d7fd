import Foundation
@_spi(Shell) @testable import PatchbayShell
@_spi(Shell) import PatchbayCore
import Testing

// Import, export and replay as a Redux DevTools user meets them (issue 25): an import without
// a store named goes where it can only go, an export keeps what is skipped, and a replay says
// once, and only when it is so, that states were made by other reducers.

/// A Redux DevTools file of `count` `Inc` actions from `{n: 0}`.
private func incrementsFile(_ count: Int, in directory: TemporaryDirectory) -> String {
    let actions = Array(repeating: #"{\"type\":\"Inc\"}"#, count: count).joined(separator: ",")
    return directory.write("incs.json", #"{"payload": "["# + actions + #"]", "preloadedState": "{\"n\":0}"}"#)
}

@Suite("import devtools without a store named")
struct DevToolsImportStoreTests {
    @Test func theOnlyStoreIsTheOneImportedInto() throws {
        let directory = TemporaryDirectory()
        let file = incrementsFile(2, in: directory)
        let session = DataflowSession()
        session.run("store cart = {n: 5}\nreducer cart on Inc : state.n += 1")
        #expect(session.run("import devtools \(file)") == ["imported 2 actions into cart"])
        #expect(try session.value("state cart").isIdentical(to: ["n": 2]))
        #expect(session.run("nodes").joined().contains("app") == false)
    }

    @Test func withSeveralStoresItAsksForOne() throws {
        let directory = TemporaryDirectory()
        let file = incrementsFile(2, in: directory)
        let session = DataflowSession()
        session.run("store cart = {n: 5}\nstore user = {n: 7}\nreducer cart on Inc : state.n += 1")
        let text = "import devtools \(file)"
        let caret = String(repeating: " ", count: 2 + 16) + "^" + String(repeating: "~", count: file.utf8.count - 1)
        #expect(session.run(text) == [
            "error: import devtools: there are several stores (cart, user): name the one to import into (import devtools FILE STORE)\n  \(text)\n\(caret)",
        ])
        #expect(try session.value("state cart").isIdentical(to: ["n": 5]))
        #expect(try session.value("state user").isIdentical(to: ["n": 7]))
        try session.expectNoActions("history cart")
    }

    @Test func aStoreWithoutReducersIsWarnedAbout() {
        let directory = TemporaryDirectory()
        let file = incrementsFile(2, in: directory)
        let session = DataflowSession()
        #expect(session.run("import devtools \(file)") == [
            "imported 2 actions into app",
            "warning: app has no reducers, so no action changed its state; add reducers, then 'history recompute app'",
        ])
        let bare = DataflowSession()
        bare.run("store cart = {n: 0}")
        #expect(bare.run("import devtools \(file) cart").last
            == "warning: cart has no reducers, so no action changed its state; add reducers, then 'history recompute cart'")
    }
}

@Suite("export then import keeps what is skipped")
struct DevToolsRoundTripTests {
    private func skipped() -> DataflowSession {
        let session = DataflowSession()
        session.run("store s = {n: 0}\nreducer s on Inc : state.n += 1\ndispatch Inc\ndispatch Inc\nskip 2")
        return session
    }

    @Test func aSkippedActionStaysSkipped() throws {
        let directory = TemporaryDirectory()
        let file = directory.path + "/rt.json"
        let session = skipped()
        #expect(try session.value("state").isIdentical(to: ["n": 1]))
        #expect(session.run("export devtools s \(file)") == [
            "exported 2 actions of s (1 skipped) to \(file) as a lifted state, which keeps what is skipped (the default form cannot)",
        ])
        #expect(session.run("import devtools \(file) s --force") == [
            "imported 2 actions into s, 1 skipped; the 2 actions it had before were replaced",
        ])
        #expect(try session.value("state").isIdentical(to: ["n": 1]))
        #expect(session.run("history") == ["   #0 (initial state)", "   #1 Inc  n", ">~ #2 Inc  (skipped)"])
    }

    @Test func theCurrentStepStaysCurrent() throws {
        let directory = TemporaryDirectory()
        let file = directory.path + "/rt.json"
        let session = DataflowSession()
        session.run("store s = {n: 0}\nreducer s on Inc : state.n += 1\ndispatch Inc\ndispatch Inc\njump 1")
        #expect(session.run("export devtools s \(file)") == [
            "exported 2 actions of s to \(file) as a lifted state, which keeps the current step #1 (the default form cannot)",
        ])
        session.run("import devtools \(file) s --force")
        #expect(try session.value("state").isIdentical(to: ["n": 1]))
    }

    @Test func aPlainHistoryKeepsTheDefaultForm() throws {
        let directory = TemporaryDirectory()
        let file = directory.path + "/plain.json"
        let session = DataflowSession()
        session.run("store s = {n: 0}\nreducer s on Inc : state.n += 1\ndispatch Inc")
        #expect(session.run("export devtools s \(file)") == ["exported 1 action of s to \(file)"])
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("\"payload\""))
    }
}

@Suite("replay: the old-reducers note and states that differ")
struct ReplayNoteTests {
    /// A recording that starts with a store whose history has three actions, then adds a
    /// reducer per line and dispatches one action.
    private func recording(in directory: TemporaryDirectory) -> String {
        let path = directory.path + "/cart.jsonl"
        let session = DataflowSession()
        session.run("""
            store cart = {n: 0, log: []}
            reducer cart on Inc : state.n += 1
            dispatch Inc
            dispatch Inc
            dispatch Inc
            record \(path)
            reducer cart on Inc : state.log = append(state.log, state.n)
            reducer cart on Dec : state.n -= 1
            reducer cart on Reset : state.n = 0
            dispatch Inc
            record stop
            """)
        return path
    }

    @Test func theNoteComesOnceAndOnlyWhenTrue() {
        let directory = TemporaryDirectory()
        let path = recording(in: directory)
        let lines = DataflowSession().run("replay \(path)")
        let notes = lines.filter { $0.hasPrefix("note: ") }
        #expect(notes == ["note: cart's 3 states were made by the old reducers; 'history recompute cart' runs them again"], "\(lines)")
        #expect(lines.last == "replayed 4 steps of \(path)")
    }

    @Test func aReducerForATypeNeverDispatchedChangesNoState() {
        let session = DataflowSession()
        session.run("store cart = {n: 0}\nreducer cart on Inc : state.n += 1\ndispatch Inc")
        #expect(session.run("reducer cart on Never : state.n = 0") == ["r2: cart on Never : state.n = 0"])
        #expect(session.run("reducer cart on * : state.n += 0").last?.hasPrefix("note: cart's 1 state was made") == true)
        #expect(session.run("reducer cart on Inc : state.n += 2").last?.hasPrefix("note: cart's 1 state was made") == true)
    }

    @Test func aPlainReplayWhoseStatesDifferSaysHowManyAndPointsAtVerify() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/counter.jsonl"
        DataflowSession().run("""
            record \(path)
            store app = {count: 0}
            reducer app on Add : state.count += action.by
            dispatch Add {by: 0}
            dispatch Add {by: 2}
            dispatch Add {by: 3}
            record stop
            """)
        let text = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: "state.count += action.by", with: "state.count += action.by * 2")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let lines = DataflowSession().run("replay \(path)")
        #expect(lines.last == "replayed 5 steps of \(path)")
        #expect(lines.dropLast().last
            == "warning: 2 of 3 recorded states differ from the replay's, the first after action #2 of app (line 8: dispatch Add {by: 2}); "
                + "'replay \(path) --verify' stops at the first difference and shows it")
        // A replay whose states are the recording's says nothing more.
        let same = directory.path + "/same.jsonl"
        DataflowSession().run("record \(same)\nstore app = {count: 0}\nreducer app on Add : state.count += 1\ndispatch Add\nrecord stop")
        #expect(DataflowSession().run("replay \(same)").filter { $0.hasPrefix("warning") }.isEmpty)
    }
}
