@_spi(Shell) import PatchbayHistory
@_spi(Shell) import PatchbayGraph
@_spi(Shell) @testable import PatchbayShell
@_spi(Shell) import PatchbayCore
import Testing

// Time travel through the shell: history, jump, diff, skip/unskip, blame, find, branch/checkout and
// history commit/revert/sweep, with their edge cases. The reports are checked as values; how they
// read is RenderingTests'.

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

/// `{type: "Add", by: N}`, the counter's action.
private func add(_ by: Int) -> Value { ["type": "Add", "by": .int(by)] }

/// The paths each entry of a history changed, as its line names them.
private func changedPaths(_ history: HistoryListing) -> [[String]] {
    history.entries.map { $0.changes.map(\.pathText) }
}

/// Whether `actions` are `expected`, as written (see `Value.isIdentical(to:)`).
private func same(_ actions: [Value], _ expected: [Value]) -> Bool {
    Value.array(actions).isIdentical(to: .array(expected))
}

@Suite("Time travel: history and jump")
struct HistoryJumpShellTests {
    @Test func historyListsEveryActionWithItsChangedPathsAndMarksTheCurrentOne() throws {
        let session = counter()
        let history = try session.report("history", as: HistoryListing.self)
        #expect(history.showsInitialState && history.branch == nil && !history.filtering)
        #expect(history.entries.map(\.index) == [1, 2, 3])
        #expect(history.current == 3)
        #expect(same(history.entries.map(\.action), [add(2), add(3), add(-1)]))
        #expect(changedPaths(history) == [["count", "log[0]"], ["count", "log[1]"], ["count", "log[2]"]])
        #expect(history.entries.allSatisfy { !$0.skipped && $0.failure == nil && $0.cause == nil })
    }

    @Test func historyMarksFailedAndSkippedActions() throws {
        let session = counter()
        session.run("dispatch app Boom")
        session.run("skip 2")
        let history = try session.report("history --last 3", as: HistoryListing.self)
        #expect(!history.showsInitialState && history.lastGiven && !history.filtering)
        #expect(history.entries.map(\.index) == [2, 3, 4])
        #expect(history.current == 4)
        #expect(same(history.entries.map(\.action), [add(3), add(-1), ["type": "Boom"]]))
        #expect(history.entries.map(\.skipped) == [true, false, false])
        #expect(history.entries.map(\.failure) == [nil, nil, "r3: division by zero in '1 / 0'"])
        #expect(changedPaths(history) == [[], ["count", "log[1]"], []])
    }

    @Test func historyFiltersByTypeAndPath() throws {
        let session = counter()
        session.run("dispatch app Other")
        let byType = try session.report("history --type Other", as: HistoryListing.self)
        #expect(byType.filtering && byType.matched == 1 && byType.searched == 4 && byType.span == nil)
        #expect(byType.entries.map(\.index) == [4] && byType.current == 4 && !byType.showsInitialState)
        #expect(same(byType.entries.map(\.action), [["type": "Other"]]) && changedPaths(byType) == [[]])
        let byPath = try session.report("history --path log[1]", as: HistoryListing.self)
        #expect(byPath.filtering && byPath.matched == 1 && byPath.searched == 4)
        #expect(byPath.entries.map(\.index) == [2] && byPath.current == 4)
        #expect(same(byPath.entries.map(\.action), [add(3)]) && changedPaths(byPath) == [["count", "log[1]"]])
        #expect(try session.shellError("history --path user").reason == .notFound("no path 'user' in app's states (keys: count, log)"))
    }

    @Test func jumpMakesAStateCurrentAndWiredNodesFollow() throws {
        let session = counter()
        session.run("derive doubled = app.state.count * 2")
        let steps: [(command: String, index: Int, state: Value)] = [
            ("jump 1", 1, ["count": 2, "log": [2]]),
            ("jump +1", 2, ["count": 5, "log": [2, 3]]),
            ("jump -2", 0, ["count": 0, "log": []]),
            ("jump end", 3, ["count": 4, "log": [2, 3, -1]]),
        ]
        for (number, step) in steps.enumerated() {
            let jump = try session.report(step.command, as: StoreAtStep.self)
            #expect(jump.store == "app" && jump.index == step.index && jump.move == .jump(count: 3), "\(step.command)")
            #expect(jump.state.isIdentical(to: step.state), "\(step.command): \(jump.state)")
            if number == 0 {
                #expect(try session.value("= doubled").isIdentical(to: 4))
                #expect(try session.value("state").isIdentical(to: ["count": 2, "log": [2]]))
            }
        }
        #expect(try session.value("= doubled").isIdentical(to: 8))
    }

    @Test func aJumpOutOfRangeIsAnErrorAndMovesNothing() throws {
        let session = counter()
        #expect(session.error("jump 9").hasPrefix("error: "))
        #expect(session.error("jump -4").hasPrefix("error: "))
        #expect(try session.value("state .count").isIdentical(to: 4))
        let history = try session.report("history --last 1", as: HistoryListing.self)
        #expect(history.entries.map(\.index) == [3] && history.current == 3 && changedPaths(history) == [["count", "log[2]"]])
    }

    @Test func diffShowsTheCurrentStepOrAnyTwoStates() throws {
        let session = counter()
        let diffs: [(command: String, changes: [ValueChange])] = [
            ("diff", [.at([.key("count")], from: 5, to: 4), .at([.key("log"), .index(2)], to: -1)]),
            ("diff 1", [.at([.key("count")], from: 0, to: 2), .at([.key("log"), .index(0)], to: 2)]),
            ("diff 0 3", [.at([.key("count")], from: 0, to: 4), .at([.key("log"), .index(0)], to: 2),
                          .at([.key("log"), .index(1)], to: 3), .at([.key("log"), .index(2)], to: -1)]),
            ("diff 2 2", []),
        ]
        for (command, changes) in diffs {
            let diff = try session.report(command, as: StateDiff.self)
            #expect(diff.changes.isIdentical(to: changes), "\(command): \(diff.changes)")
            #expect(diff.presented == nil && diff.path == nil)
        }
        let none = try session.report("diff 2 2", as: StateDiff.self)
        #expect(none.from == "#2" && none.to == "#2")
    }
}

@Suite("Time travel: skip, blame, find")
struct SkipBlameFindShellTests {
    @Test func skipRecomputesLaterStatesAndReportsHowManyChanged() throws {
        let session = counter()
        let skip = try session.report("skip 1", as: SkipToggled.self)
        #expect(skip.index == 1 && skip.skipped && skip.changedStates == 3)
        #expect(try session.value("state").isIdentical(to: ["count": 2, "log": [3, -1]]))
        let unskip = try session.report("unskip 1", as: SkipToggled.self)
        #expect(unskip.index == 1 && !unskip.skipped && unskip.changedStates == 3)
        #expect(try session.value("state").isIdentical(to: ["count": 4, "log": [2, 3, -1]]))
    }

    @Test func skippingAFailedActionChangesNoState() throws {
        let session = counter()
        session.run("dispatch app Boom")
        let skip = try session.report("skip 4", as: SkipToggled.self)
        #expect(skip.index == 4 && skip.skipped && skip.changedStates == 0)
        #expect(session.error("skip 4").contains("already"))
        #expect(session.error("unskip 2").contains("not skipped"))
    }

    @Test func blameListsEveryActionThatChangedAPath() throws {
        let session = counter()
        let count = try session.report("blame count", as: BlameListing.self)
        #expect(count.path == [.key("count")] && count.hiddenBefore == 0 && count.hiddenAfter == 0)
        #expect(count.blames.map(\.index) == [1, 2, 3])
        #expect(same(count.blames.map(\.action), [add(2), add(3), add(-1)]))
        #expect(same(count.blames.compactMap(\.old), [0, 2, 5]) && same(count.blames.compactMap(\.new), [2, 5, 4]))
        let log = try session.report("blame log[1]", as: BlameListing.self)
        #expect(log.blames.map(\.index) == [2] && same(log.blames.map(\.action), [add(3)]))
        #expect(log.blames.map(\.old) == [nil] && same(log.blames.compactMap(\.new), [3]))
        let missing = try session.shellError("blame user.name")
        #expect(missing.reason == .notFound("no path 'user.name' in app's states (keys: count, log)"))
        #expect(missing.range == 6..<15)
    }

    /// A path may start as `state` takes it after a store: with a dot, or with an index.
    @Test func pathsMayStartWithADotOrAnIndex() throws {
        let session = counter()
        let blame = try session.report("blame app .log[1]", as: BlameListing.self)
        #expect(blame.path == [.key("log"), .index(1)] && blame.blames.map(\.index) == [2])
        #expect(blame.blames.map(\.old) == [nil] && same(blame.blames.compactMap(\.new), [3]))
        #expect(try session.value("state app .count").isIdentical(to: 4))
        #expect(session.run("history app --path .log[1]") == session.run("history app --path log[1]"))
        #expect(session.run("diff 1 2 --path .count") == session.run("diff 1 2 --path count"))
        session.run("store row = [1]")
        session.run("reducer row on Set : state[0] = action.to")
        session.run("dispatch row Set {to: 5}")
        let row = try session.report("blame row [0]", as: BlameListing.self)
        #expect(row.path == [.index(0)] && row.blames.map(\.index) == [1])
        #expect(same(row.blames.map(\.action), [["type": "Set", "to": 5]]))
        #expect(same(row.blames.compactMap(\.old), [1]) && same(row.blames.compactMap(\.new), [5]))
        #expect(session.run("history row --chart [0] --spark").first == "row[0] from #0 to #1")
        #expect(session.error("blame app .").contains("expected a path such as user.name, found '.'"))
    }

    @Test func findListsTheStatesWhereAConditionHolds() throws {
        let session = counter()
        let finds: [(command: String, indices: [Int], actions: [Value?])] = [
            ("find state.count > 3", [2, 3], [add(3), add(-1)]),
            ("find action.by < 0", [3], [add(-1)]),
            ("find state.count == 0", [0], [nil]),
            ("find state.count > 100", [], []),
        ]
        for (command, indices, actions) in finds {
            let found = try session.report(command, as: FoundStates.self)
            #expect(found.matches.map(\.index) == indices, "\(command)")
            #expect(found.matches.count == actions.count)
            #expect(zip(found.matches.map(\.action), actions).allSatisfy { found, expected in
                switch (found, expected) {
                case (nil, nil): true
                case (let found?, let expected?): found.isIdentical(to: expected)
                default: false
                }
            }, "\(command)")
            #expect(found.hiddenBefore == 0 && found.hiddenAfter == 0)
        }
    }

    @Test func aFindConditionThatIsNotABoolIsAnErrorAtTheCondition() throws {
        let session = counter()
        let error = try session.shellError("find state.count + 1")
        #expect(error.message == "find's condition (at #0) must be a bool, not an int in 'state.count + 1'")
        #expect(error.range == 5..<20)
    }
}

@Suite("Time travel: branches and rewrites")
struct BranchShellTests {
    @Test func dispatchingAfterAJumpStartsABranchAndCheckoutGoesBack() throws {
        let session = counter()
        session.run("jump 1")
        let dispatch = try session.report("dispatch app Add {by: 10}", as: DispatchReport.self)
        guard case .step(let step, let fork) = dispatch.outcome else { Issue.record("\(dispatch.outcome)"); return }
        #expect(step.store == "app" && step.index == 2 && step.action.isIdentical(to: add(10)))
        #expect(step.changes.isIdentical(to: [.at([.key("count")], from: 2, to: 12), .at([.key("log"), .index(1)], to: 10)]))
        #expect(fork == DispatchReport.Fork(store: "app", branch: "b1", from: "main", at: 1, count: 3))
        #expect(dispatch.warning == nil)
        let branches = try session.report("branch", as: BranchListing.self).branches
        #expect(branches.map(\.name) == ["main", "b1"] && branches.map(\.count) == [3, 2] && branches.map(\.isCurrent) == [false, true])
        #expect(branches.map(\.forkedFrom) == [nil, "main"] && branches.map(\.forkIndex) == [nil, 1])
        let main = try session.report("checkout main", as: StoreAtStep.self)
        #expect(main.store == "app" && main.index == 3 && main.move == .checkout(branch: "main"))
        #expect(main.state.isIdentical(to: ["count": 4, "log": [2, 3, -1]]))
        let history = try session.report("history --last 1", as: HistoryListing.self)
        #expect(history.branch?.name == "main" && history.branch?.forkedFrom == nil)
        #expect(history.entries.map(\.index) == [3] && history.current == 3 && changedPaths(history) == [["count", "log[2]"]])
        #expect(same(history.entries.map(\.action), [add(-1)]))
        let b1 = try session.report("checkout b1", as: StoreAtStep.self)
        #expect(b1.index == 2 && b1.move == .checkout(branch: "b1") && b1.state.isIdentical(to: ["count": 12, "log": [2, 10]]))
        #expect(session.error("checkout nope").hasPrefix("error: "))
    }

    @Test func commitSquashesTheHistoryIntoTheInitialState() throws {
        let session = counter()
        session.run("jump 2")
        #expect(try session.report("history commit", as: HistoryRewritten.self) == .committed(3))
        let history = try session.report("history", as: HistoryListing.self)
        #expect(history.entries.isEmpty && history.showsInitialState && history.current == 0)
        #expect(try session.value("state").isIdentical(to: ["count": 5, "log": [2, 3]]))
        try expectStep(session, "dispatch app Add {by: 1}", index: 1, [.at([.key("count")], from: 5, to: 6), .at([.key("log"), .index(2)], to: 1)])
    }

    @Test func revertDropsEveryAction() throws {
        let session = counter()
        #expect(try session.report("history revert", as: HistoryRewritten.self) == .reverted(3))
        #expect(try session.value("state").isIdentical(to: ["count": 0, "log": []]))
        try expectStep(session, "dispatch app Add {by: 1}", index: 1, [.at([.key("count")], from: 0, to: 1), .at([.key("log"), .index(0)], to: 1)])
    }

    @Test func sweepDropsSkippedActions() throws {
        let session = counter()
        session.run("skip 2")
        #expect(try session.report("history sweep", as: HistoryRewritten.self) == .swept(1))
        let history = try session.report("history", as: HistoryListing.self)
        #expect(history.showsInitialState && history.entries.map(\.index) == [1, 2] && history.current == 2)
        #expect(same(history.entries.map(\.action), [add(2), add(-1)]))
        #expect(changedPaths(history) == [["count", "log[0]"], ["count", "log[1]"]])
        #expect(try session.value("state").isIdentical(to: ["count": 1, "log": [2, -1]]))
    }

    @Test func aStoreMustBeNamedWhenThereAreSeveral() throws {
        let session = counter()
        session.run("store other = {n: 0}")
        #expect(session.error("history").hasPrefix("error: "))
        let other = try session.report("history other", as: HistoryListing.self)
        #expect(other.store == "other" && other.entries.isEmpty && other.showsInitialState && other.current == 0)
        let jump = try session.report("jump app 0", as: StoreAtStep.self)
        #expect(jump.store == "app" && jump.index == 0 && jump.move == .jump(count: 3) && jump.state.isIdentical(to: ["count": 0, "log": []]))
    }

    /// Dispatches `command`, which must make step `index` of `app` with `changes` (an `Add {by: 1}`).
    private func expectStep(_ session: DataflowSession, _ command: String, index: Int, _ changes: [ValueChange],
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        let dispatch = try session.report(command, as: DispatchReport.self, sourceLocation: sourceLocation)
        guard case .step(let step, .none) = dispatch.outcome else { Issue.record("\(dispatch.outcome)", sourceLocation: sourceLocation); return }
        #expect(step.index == index && step.action.isIdentical(to: add(1)), sourceLocation: sourceLocation)
        #expect(step.changes.isIdentical(to: changes), "\(step.changes)", sourceLocation: sourceLocation)
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

    @Test func badArgumentsAreOneLineErrorsWithACaret() throws {
        let session = counter()
        // A name where a step goes is taken for a store misnamed.
        let error = try session.shellError("jump abc")
        #expect(error.message == "no store 'abc' (stores: app)")
        #expect(error.range == 5..<8)
        #expect(session.error("jump +x").contains("expected a step: N, +K, -K or end"))
        #expect(session.error("history --last -1").contains("--last takes a count"))
        #expect(session.error("history --color red").contains("unexpected '--color'"))
        #expect(session.error("find state.count >").hasPrefix("error: "))
        #expect(try session.value("state .count").isIdentical(to: 4))
    }
}

@Suite("Stores reduce in place")
struct InPlaceReductionTests {
    @Test func aStoresOwnStateCannotBeReadThroughItsPortWhileItReduces() throws {
        let session = DataflowSession()
        session.run("store app = {n: 1}\nreducer app on Copy : state.m = app.state.n")
        #expect(session.error("dispatch app Copy").contains("app.state is being reduced: inside app's reducers, read `state`"))
        #expect(try session.value("state").isIdentical(to: ["n": 1]))
        #expect(try session.value("= app.state.n").isIdentical(to: 1))
    }

    @Test func aFailingLaterReducerPutsRemovedKeysBackInTheirPlace() throws {
        let session = DataflowSession()
        session.run("store app = {a: 1, b: 2, c: 3}\nreducer app on Go : delete state.b\nreducer app on Go : state.a = 1 / 0")
        #expect(session.error("dispatch app Go").hasPrefix("error: "))
        #expect(try session.value("state").isIdentical(to: ["a": 1, "b": 2, "c": 3]))
    }
}

@Suite("Time travel: causes")
struct HistoryCauseTests {
    @Test func historyNamesTheActionThatDispatchedAnother() throws {
        let session = DataflowSession()
        session.run("""
            store app = {log: []}
            reducer app on * : state.log = append(state.log, action.type)
            var relay = {type: "none"}
            wire app.action -> relay.set
            wire relay.value -> app.dispatch when $.type == "A" : {type: "B"}
            dispatch app A
            """)
        let history = try session.report("history --last 2", as: HistoryListing.self)
        #expect(history.showsInitialState && history.entries.map(\.index) == [1, 2] && history.current == 2)
        #expect(same(history.entries.map(\.action), [["type": "A"], ["type": "B"]]))
        #expect(changedPaths(history) == [["log[0]"], ["log[1]"]])
        #expect(history.entries.map(\.cause) == [nil, 1])
    }
}
