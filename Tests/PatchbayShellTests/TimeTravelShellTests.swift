@_spi(Shell) import PatchbayShell
import Testing

// Time travel through the shell: history, jump, diff, skip/unskip, blame, find, branch/checkout and
// history commit/revert/sweep, with their edge cases.

/// A counter store with three actions: count 0 → 2 → 5 → 4.
private func counter() -> DataflowSession {
    let session = DataflowSession()
    session.run("""
        store app = {count: 0, log: []}
        reducer app on Add : state.count += action.by
        reducer app on Add : state.log = append(state.log, action.by)
        reducer app on Boom : state.count = 1 / 0
        dispatch app Add {by: 2}
        dispatch app Add {by: 3}
        dispatch app Add {by: -1}
        """)
    return session
}

@Suite("Time travel: history and jump")
struct HistoryJumpShellTests {
    @Test func historyListsEveryActionWithItsChangedPathsAndMarksTheCurrentOne() {
        let session = counter()
        #expect(session.run("history") == [
            "   #0 (initial state)",
            "   #1 Add {by: 2}  count, log[0]",
            "   #2 Add {by: 3}  count, log[1]",
            ">  #3 Add {by: -1}  count, log[2]",
        ])
    }

    @Test func historyMarksFailedAndSkippedActions() {
        let session = counter()
        session.run("dispatch app Boom")
        session.run("skip 2")
        #expect(session.run("history --last 3") == [
            " ~ #2 Add {by: 3}  (skipped)",
            "   #3 Add {by: -1}  count, log[1]",
            ">! #4 Boom  failed: r3: division by zero in '1 / 0'",
        ])
    }

    @Test func historyFiltersByTypeAndPath() {
        let session = counter()
        session.run("dispatch app Other")
        #expect(session.run("history --type Other") == ["1 of 4 actions matches", ">  #4 Other  (no changes)"])
        #expect(session.run("history --path log[1]") == ["1 of 4 actions matches", "   #2 Add {by: 3}  count, log[1]"])
        #expect(session.error("history --path user") == "error: no path 'user' in app's states (keys: count, log)")
    }

    @Test func jumpMakesAStateCurrentAndWiredNodesFollow() {
        let session = counter()
        session.run("derive doubled = app.state.count * 2")
        #expect(session.run("jump 1") == ["app at #1 of 3: {count: 2, log: [2]}"])
        #expect(session.run("= doubled") == ["4"])
        #expect(session.run("state") == ["{count: 2, log: [2]}"])
        #expect(session.run("jump +1") == ["app at #2 of 3: {count: 5, log: [2, 3]}"])
        #expect(session.run("jump -2") == ["app at #0 of 3: {count: 0, log: []}"])
        #expect(session.run("jump end") == ["app at #3 of 3: {count: 4, log: [2, 3, -1]}"])
        #expect(session.run("= doubled") == ["8"])
    }

    @Test func aJumpOutOfRangeIsAnErrorAndMovesNothing() {
        let session = counter()
        #expect(session.error("jump 9").hasPrefix("error: "))
        #expect(session.error("jump -4").hasPrefix("error: "))
        #expect(session.run("state .count") == ["4"])
        #expect(session.run("history --last 1") == [">  #3 Add {by: -1}  count, log[2]"])
    }

    @Test func diffShowsTheCurrentStepOrAnyTwoStates() {
        let session = counter()
        #expect(session.run("diff") == ["count: 5 → 4", "log[2]: + -1"])
        #expect(session.run("diff 1") == ["count: 0 → 2", "log[0]: + 2"])
        #expect(session.run("diff 0 3") == ["count: 0 → 4", "log[0]: + 2", "log[1]: + 3", "log[2]: + -1"])
        #expect(session.run("diff 2 2") == ["#2 → #2: no differences"])
    }
}

@Suite("Time travel: skip, blame, find")
struct SkipBlameFindShellTests {
    @Test func skipRecomputesLaterStatesAndReportsHowManyChanged() {
        let session = counter()
        #expect(session.run("skip 1") == ["skipped #1: 3 states changed"])
        #expect(session.run("state") == ["{count: 2, log: [3, -1]}"])
        #expect(session.run("unskip 1") == ["unskipped #1: 3 states changed"])
        #expect(session.run("state") == ["{count: 4, log: [2, 3, -1]}"])
    }

    @Test func skippingAFailedActionChangesNoState() {
        let session = counter()
        session.run("dispatch app Boom")
        #expect(session.run("skip 4") == ["skipped #4: 0 states changed"])
        #expect(session.error("skip 4").contains("already"))
        #expect(session.error("unskip 2").contains("not skipped"))
    }

    @Test func blameListsEveryActionThatChangedAPath() {
        let session = counter()
        #expect(session.run("blame count") == ["#1 Add {by: 2}  0 → 2", "#2 Add {by: 3}  2 → 5", "#3 Add {by: -1}  5 → 4"])
        #expect(session.run("blame log[1]") == ["#2 Add {by: 3}  nothing → 3"])
        #expect(session.run("blame user.name") == ["error: no path 'user.name' in app's states (keys: count, log)\n  blame user.name\n        ^~~~~~~~~"])
    }

    /// A path may start as `state` takes it after a store: with a dot, or with an index.
    @Test func pathsMayStartWithADotOrAnIndex() {
        let session = counter()
        #expect(session.run("blame app .log[1]") == ["#2 Add {by: 3}  nothing → 3"])
        #expect(session.run("state app .count") == ["4"])
        #expect(session.run("history app --path .log[1]") == session.run("history app --path log[1]"))
        #expect(session.run("diff 1 2 --path .count") == session.run("diff 1 2 --path count"))
        session.run("store row = [1]")
        session.run("reducer row on Set : state[0] = action.to")
        session.run("dispatch row Set {to: 5}")
        #expect(session.run("blame row [0]") == ["#1 Set {to: 5}  1 → 5"])
        #expect(session.run("history row --chart [0] --spark").first == "row[0] from #0 to #1")
        #expect(session.error("blame app .").contains("expected a path such as user.name, found '.'"))
    }

    @Test func findListsTheStatesWhereAConditionHolds() {
        let session = counter()
        #expect(session.run("find state.count > 3") == ["#2 Add {by: 3}", "#3 Add {by: -1}"])
        #expect(session.run("find action.by < 0") == ["#3 Add {by: -1}"])
        #expect(session.run("find state.count == 0") == ["#0 (initial state)"])
        #expect(session.run("find state.count > 100") == ["no state matches"])
    }

    @Test func aFindConditionThatIsNotABoolIsAnErrorAtTheCondition() {
        let session = counter()
        #expect(session.run("find state.count + 1") == [
            "error: find's condition (at #0) must be a bool, not an int in 'state.count + 1'\n  find state.count + 1\n       ^~~~~~~~~~~~~~~",
        ])
    }
}

@Suite("Time travel: branches and rewrites")
struct BranchShellTests {
    @Test func dispatchingAfterAJumpStartsABranchAndCheckoutGoesBack() {
        let session = counter()
        session.run("jump 1")
        #expect(session.run("dispatch app Add {by: 10}") == [
            "#2 Add  count: 2 → 12; log[1]: + 10", "new branch b1 from main at #1: main keeps its 3 actions ('checkout app main' goes back)",
        ])
        #expect(session.run("branch") == ["  main  3 actions", "* b1  2 actions, from main at #1"])
        #expect(session.run("checkout main") == ["app on main at #3: {count: 4, log: [2, 3, -1]}"])
        #expect(session.run("history --last 1") == [
            "on branch main", ">  #3 Add {by: -1}  count, log[2]",
        ])
        #expect(session.run("checkout b1") == ["app on b1 at #2: {count: 12, log: [2, 10]}"])
        #expect(session.error("checkout nope").hasPrefix("error: "))
    }

    @Test func commitSquashesTheHistoryIntoTheInitialState() {
        let session = counter()
        session.run("jump 2")
        #expect(session.run("history commit") == ["committed: the current state is the initial state now (3 actions squashed)"])
        #expect(session.run("history") == [">  #0 (initial state)"])
        #expect(session.run("state") == ["{count: 5, log: [2, 3]}"])
        #expect(session.run("dispatch app Add {by: 1}") == ["#1 Add  count: 5 → 6; log[2]: + 1"])
    }

    @Test func revertDropsEveryAction() {
        let session = counter()
        #expect(session.run("history revert") == ["reverted to the initial state (3 actions dropped)"])
        #expect(session.run("state") == ["{count: 0, log: []}"])
        #expect(session.run("dispatch app Add {by: 1}") == ["#1 Add  count: 0 → 1; log[0]: + 1"])
    }

    @Test func sweepDropsSkippedActions() {
        let session = counter()
        session.run("skip 2")
        #expect(session.run("history sweep") == ["swept 1 skipped action"])
        #expect(session.run("history") == [
            "   #0 (initial state)", "   #1 Add {by: 2}  count, log[0]", ">  #2 Add {by: -1}  count, log[1]",
        ])
        #expect(session.run("state") == ["{count: 1, log: [2, -1]}"])
    }

    @Test func aStoreMustBeNamedWhenThereAreSeveral() {
        let session = counter()
        session.run("store other = {n: 0}")
        #expect(session.error("history").hasPrefix("error: "))
        #expect(session.run("history other") == [">  #0 (initial state)"])
        #expect(session.run("jump app 0") == ["app at #0 of 3: {count: 0, log: []}"])
    }
}

@Suite("Time travel: JSON results and errors")
struct TimeTravelJSONTests {
    @Test func historyAndBlameResultsHaveTheSpecsFields() {
        let session = DataflowSession(json: true)
        session.run("store app = {n: 0}\nreducer app on Inc : state.n += 1\ndispatch app Inc")
        #expect(session.run("history") == [
            #"{"ok":true,"command":"history","result":[{"index":1,"action":{"type":"Inc"},"changes":[{"path":"n","op":"replace","old":0,"new":1}],"skipped":false,"failed":false,"current":true}]}"#,
        ])
        #expect(session.run("blame n") == [
            #"{"ok":true,"command":"blame n","result":[{"index":1,"action":{"type":"Inc"},"old":0,"new":1}]}"#,
        ])
        #expect(session.run("diff 0 1") == [
            #"{"ok":true,"command":"diff 0 1","result":[{"path":"n","op":"replace","old":0,"new":1}]}"#,
        ])
    }

    @Test func badArgumentsAreOneLineErrorsWithACaret() {
        let session = counter()
        let outcome = session.outcome("jump abc")
        #expect(outcome.status == .failure)
        // A name where a step goes is taken for a store misnamed.
        #expect(outcome.lines.map(\.text) == ["error: no store 'abc' (stores: app)\n  jump abc\n       ^~~"])
        #expect(session.error("jump +x").contains("expected a step: N, +K, -K or end"))
        #expect(session.error("history --last -1").contains("--last takes a count"))
        #expect(session.error("history --color red").contains("unexpected '--color'"))
        #expect(session.error("find state.count >").hasPrefix("error: "))
        #expect(session.run("state .count") == ["4"])
    }
}

@Suite("Stores reduce in place")
struct InPlaceReductionTests {
    @Test func aStoresOwnStateCannotBeReadThroughItsPortWhileItReduces() {
        let session = DataflowSession()
        session.run("store app = {n: 1}\nreducer app on Copy : state.m = app.state.n")
        #expect(session.error("dispatch app Copy").contains("app.state is being reduced: inside app's reducers, read `state`"))
        #expect(session.run("state") == ["{n: 1}"])
        #expect(session.run("= app.state.n") == ["1"])
    }

    @Test func aFailingLaterReducerPutsRemovedKeysBackInTheirPlace() {
        let session = DataflowSession()
        session.run("store app = {a: 1, b: 2, c: 3}\nreducer app on Go : delete state.b\nreducer app on Go : state.a = 1 / 0")
        #expect(session.error("dispatch app Go").hasPrefix("error: "))
        #expect(session.run("state") == ["{a: 1, b: 2, c: 3}"])
    }
}

@Suite("Time travel: causes")
struct HistoryCauseTests {
    @Test func historyNamesTheActionThatDispatchedAnother() {
        let session = DataflowSession()
        session.run("""
            store app = {log: []}
            reducer app on * : state.log = append(state.log, action.type)
            var relay = {type: "none"}
            wire app.action -> relay.set
            wire relay.value -> app.dispatch when $.type == "A" : {type: "B"}
            dispatch app A
            """)
        #expect(session.run("history --last 2") == ["   #0 (initial state)", "   #1 A  log[0]", ">  #2 B  log[1]  (dispatched by #1)"])
    }
}
