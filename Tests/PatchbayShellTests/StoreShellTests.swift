@_spi(Shell) @testable import PatchbayShell
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import Testing

// Stores through the shell: `store`, `reducer` (at, when, after), `dispatch`, `state`,
// `reducer list` / `reducer rm`, stores wired into the graph, `--json` results, completion and
// errors. `DataflowSession` is in DataflowShellTests.swift. The reports are checked as values;
// how they read is RenderingTests'.

extension DataflowSession {
    /// Runs one command that must fail and returns the whole error: the message, the command
    /// and the caret line. It checks that nothing else was printed.
    func failure(_ command: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let outcome = shell.execute(command)
        #expect(outcome.status == .failure, sourceLocation: sourceLocation)
        #expect(outcome.lines.count == 1, "printed \(outcome.lines.map(\.text))", sourceLocation: sourceLocation)
        return outcome.lines.last?.text ?? "(nothing printed)"
    }
}

/// A reducer as its line shows it: id, store, type, `at`, `when`, `after` and body.
private func fields(_ reducer: ReducerSummary) -> [String?] {
    [reducer.id, reducer.store, reducer.type, reducer.path, reducer.condition, reducer.delay.map { "\($0)" }, reducer.body]
}

/// The reducer `command` added or replaced, as its line shows it.
private func defined(_ session: DataflowSession, _ command: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String?] {
    fields(try session.report(command, as: ReducerDefined.self, sourceLocation: sourceLocation).summary)
}

/// The VISPER README's AppState: a user sub-state and a todo list.
private let appState = #"store app = {userState: {userName: "unknown"}, todoListState: {todos: []}}"#

@Suite("Shell stores: store and reducers")
struct StoreShellReducerTests {
    @Test func aStorePrintsItsInitialStateAndReducersGetIDsInOrder() throws {
        let session = DataflowSession()
        let made = try session.report("store app = {count: 0}", as: StoreMade.self)
        #expect(made.store == "app" && made.state.isIdentical(to: ["count": 0]))
        #expect(try defined(session, "reducer app on Inc : state.count += 1") == ["r1", "app", "Inc", nil, nil, nil, "state.count += 1"])
        #expect(try defined(session, "reducer app on Dec : state.count -= 1") == ["r2", "app", "Dec", nil, nil, nil, "state.count -= 1"])
        // Ids are shared by all stores; a new reducer takes the lowest free one.
        session.run("store other = {n: 0}")
        #expect(try defined(session, "reducer other on Inc : state.n += 1") == ["r3", "other", "Inc", nil, nil, nil, "state.n += 1"])
        #expect(try session.report("reducer rm r1", as: StoreHandlerRemoved.self).id == "r1")
        #expect(try defined(session, "reducer other on Inc : state.n += 2") == ["r1", "other", "Inc", nil, nil, nil, "state.n += 2"])
        #expect(try defined(session, "reducer other on Dec : state.n -= 2") == ["r4", "other", "Dec", nil, nil, nil, "state.n -= 2"])
    }

    @Test func aReducerShowsItsScopeGuardAndDelay() throws {
        let session = DataflowSession()
        session.run(appState)
        #expect(try defined(session, #"reducer app on SetUserName at userState when action.name != "" after 20 : state.userName = action.name"#)
            == ["r1", "app", "SetUserName", "userState", #"action.name != """#, "20", "state.userName = action.name"])
        #expect(try defined(session, "reducer app on * at todoListState.todos[0] : state.done = true")
            == ["r2", "app", "*", "todoListState.todos[0]", nil, nil, "state.done = true"])
    }

    @Test func reducersRunInRegistrationOrderEachOnThePreviousResult() throws {
        // (1 + 3) * 2 = 8; the other order would give 5. The third reducer sees 8.
        let session = DataflowSession()
        session.run("store app = {count: 1}")
        session.run("reducer app on Go : state.count += 3\nreducer app on Go : state.count = state.count * 2\nreducer app on Go : state.seen = state.count")
        expectStep(try session.step("dispatch app Go"), 1, "Go", [.at("count", from: 1, to: 8), .at("seen", to: 8)])
    }

    @Test func onlyTheReducersOfTheActionsTypeRun() throws {
        let session = DataflowSession()
        session.run("store app = {count: 0}\nreducer app on Inc : state.count += 1\nreducer app on Dec : state.count -= 1")
        expectStep(try session.step("dispatch app Dec"), 1, "Dec", [.at("count", from: 0, to: -1)])
        let other = try session.report("dispatch app Other", as: DispatchReport.self)
        #expect(other.warning == DispatchReport.UnhandledType(store: "app", type: "Other", closest: nil, hasReducers: true))
        guard case .step(let step, .none) = other.outcome else { Issue.record("\(other.outcome)"); return }
        expectStep(step, 2, "Other", [])
    }

    @Test func starReducersRunForEveryActionInTheirPlace() throws {
        let session = DataflowSession()
        session.run("store app = {count: 0, seen: []}")
        session.run("reducer app on * : state.seen = append(state.seen, state.count)\nreducer app on Inc : state.count += 1")
        session.run("reducer app on * : state.seen = append(state.seen, action.type)")
        // Changes are listed in the order the reducers made them.
        expectStep(try session.step("dispatch app Inc"), 1, "Inc", [.at("seen[0]", to: 0), .at("count", from: 0, to: 1), .at("seen[1]", to: "Inc")])
        expectStep(try session.step("dispatch app Unhandled"), 2, "Unhandled", [.at("seen[2]", to: 1), .at("seen[3]", to: "Unhandled")])
    }

    @Test func atScopesStateToASubTree() throws {
        // VISPER's reducer per sub-state: `state` is the sub-state, the rest is out of reach.
        let session = DataflowSession()
        session.run(appState)
        session.run("reducer app on SetUserName at userState : state.userName = action.name")
        session.run("reducer app on AddTodo at todoListState : state.todos = append(state.todos, {title: action.title, done: false})")
        session.run("reducer app on Toggle at todoListState.todos[0] : state.done = !state.done")
        expectStep(try session.step(#"dispatch app SetUserName {name: "Max"}"#), 1, "SetUserName", [.at("userState.userName", from: "unknown", to: "Max")])
        expectStep(try session.step(#"dispatch app AddTodo {title: "milk"}"#), 2, "AddTodo",
                   [.at("todoListState.todos[0]", to: ["title": "milk", "done": false])])
        expectStep(try session.step("dispatch app Toggle"), 3, "Toggle", [.at("todoListState.todos[0].done", from: false, to: true)])
        #expect(try session.value("state").isIdentical(to: ["userState": ["userName": "Max"], "todoListState": ["todos": [["title": "milk", "done": true]]]]))
    }

    @Test func atAMissingKeyStartsFromNullAndCreatesIt() throws {
        let session = DataflowSession()
        session.run("store app = {count: 0}\nreducer app on Dark at settings : state.dark = true")
        expectStep(try session.step("dispatch app Dark"), 1, "Dark", [.at("settings", to: ["dark": true])])
        #expect(try session.value("state").isIdentical(to: ["count": 0, "settings": ["dark": true]]))
    }

    @Test func whenGuardsAReducerAndSeesTheScopedStateAndTheAction() throws {
        let session = DataflowSession()
        session.run(appState)
        session.run(#"reducer app on SetUserName at userState when action.name != "" && state.userName != "admin" : state.userName = action.name"#)
        session.run("store counter = {n: 0}")  // not involved
        expectStep(try session.step(#"dispatch app SetUserName {name: ""}"#), 1, "SetUserName", [])
        expectStep(try session.step(#"dispatch app SetUserName {name: "admin"}"#), 2, "SetUserName", [.at("userState.userName", from: "unknown", to: "admin")])
        expectStep(try session.step(#"dispatch app SetUserName {name: "Max"}"#), 3, "SetUserName", [])
    }

    @Test func aGuardThatIsNotABoolFailsTheAction() throws {
        let session = DataflowSession()
        session.run("store app = {count: 0}\nreducer app on Inc when 1 : state.count += 1")
        let error = try session.onlyError("dispatch app Inc")
        #expect(error.message == "#1 Inc failed in r1 (app keeps its state; the action is kept, marked failed): the 'when' guard must be a bool, not an int in '1'")
        #expect(error.range == 9..<12)
        #expect(try session.value("state").isIdentical(to: ["count": 0]))
    }

    @Test func reducerListShowsEveryReducerOrOneStoresAndRmRemovesOne() throws {
        let session = DataflowSession()
        let none = try session.report("reducer list", as: ReducerList.self)
        #expect(none.reducers.isEmpty && none.hosted.isEmpty)
        session.run("store app = {count: 0}\nstore other = {n: 0}")
        session.run("reducer app on Inc : state.count += 1\nreducer other on Inc : state.n += 1\nreducer app on * when action.type != \"Inc\" : state.count = 0")
        let r1: [String?] = ["r1", "app", "Inc", nil, nil, nil, "state.count += 1"]
        let r2: [String?] = ["r2", "other", "Inc", nil, nil, nil, "state.n += 1"]
        let r3: [String?] = ["r3", "app", "*", nil, #"action.type != "Inc""#, nil, "state.count = 0"]
        #expect(try session.report("reducer list", as: ReducerList.self).reducers.map(fields) == [r1, r3, r2])
        #expect(try session.report("reducer list other", as: ReducerList.self).reducers.map(fields) == [r2])
        #expect(try session.report("reducer rm r1", as: StoreHandlerRemoved.self).id == "r1")
        #expect(try session.report("reducer list app", as: ReducerList.self).reducers.map(fields) == [r3])
        expectStep(try session.step("dispatch app Inc"), 1, "Inc", [])
    }

    @Test func removingAnUnknownReducerListsTheIDsThatExist() throws {
        let session = DataflowSession()
        session.run("store app = {count: 0}\nreducer app on Inc : state.count += 1\nreducer app on Dec : state.count -= 1")
        let error = try session.onlyError("reducer rm r9")
        #expect(error.message == "no reducer 'r9' (reducers: r1, r2)")
        #expect(error.range == 11..<13)
        #expect(try session.report("reducer list", as: ReducerList.self).reducers.map(fields) == [
            ["r1", "app", "Inc", nil, nil, nil, "state.count += 1"], ["r2", "app", "Dec", nil, nil, nil, "state.count -= 1"],
        ])
    }

    @Test func listingTheReducersOfAnUnknownStoreIsAnError() throws {
        let session = DataflowSession()
        session.run("store app = {count: 0}")
        let error = try session.onlyError("reducer list nope")
        #expect(error.message == "no node 'nope' (nodes: app)")
        #expect(error.range == 13..<17)
    }
}

@Suite("Shell stores: after and tick")
struct StoreShellDelayTests {
    /// Runs `tick`, which must set off `steps` and leave the clock at `now`.
    private func tick(_ session: DataflowSession, _ command: String, now: Int,
                      sourceLocation: SourceLocation = #_sourceLocation) throws -> [StoreStep<ValueChange>] {
        let reply = try #require(session.shell.reply(to: command), sourceLocation: sourceLocation)
        let clock = try #require(reply.report as? ClockReading, sourceLocation: sourceLocation)
        #expect(clock.now == now && clock.timers == nil, sourceLocation: sourceLocation)
        return reply.events.compactMap { if case .dispatched(let step) = $0 { step } else { nil } }
    }

    @Test func anAfterReducerAppliesAsAStepOfItsOwnWhenTheClockHasAdvanced() throws {
        let session = DataflowSession()
        session.run("store app = {count: 0}\nreducer app on Inc : state.count += 1\nreducer app on Inc after 10 : state.saved = state.count")
        expectStep(try session.step("dispatch app Inc"), 1, "Inc", [.at("count", from: 0, to: 1)])
        #expect(try tick(session, "tick 9", now: 9).isEmpty)
        #expect(try session.value("state").isIdentical(to: ["count": 1]))
        let first = try tick(session, "tick 1", now: 10)
        #expect(first.count == 1)
        if let step = first.first { expectStep(step, 2, "Inc", [.at("saved", to: 1)], after: 1) }
        // The delayed step took index 2: the next dispatch is #3.
        expectStep(try session.step("dispatch app Inc"), 3, "Inc", [.at("count", from: 1, to: 2)])
        let second = try tick(session, "tick 10", now: 20)
        #expect(second.count == 1)
        if let step = second.first { expectStep(step, 4, "Inc", [.at("saved", from: 1, to: 2)], after: 3) }
    }

    @Test func delayedReducersFireInTimeOrderEachOnTheStateOfItsTime() throws {
        let session = DataflowSession()
        session.run("store app = {log: []}")
        session.run(#"reducer app on Go after 30 : state.log = append(state.log, "slow")"#)
        session.run(#"reducer app on Go after 10 : state.log = append(state.log, "fast")"#)
        session.run("dispatch app Go")
        let steps = try tick(session, "tick 30", now: 30)
        #expect(steps.count == 2)
        guard steps.count == 2 else { return }
        expectStep(steps[0], 2, "Go", [.at("log[0]", to: "fast")], after: 1)
        expectStep(steps[1], 3, "Go", [.at("log[1]", to: "slow")], after: 1)
    }

    @Test func aFailingAfterReducerChangesNothingAndSaysSo() throws {
        let session = DataflowSession()
        session.run("store app = {count: 1}\nreducer app on Inc after 5 : state.count = state.count / 0")
        session.run("dispatch app Inc")
        let reply = try #require(session.shell.reply(to: "tick 5"))
        #expect((reply.report as? ClockReading)?.now == 5)
        guard reply.events.count == 2, case .dispatched(let step) = reply.events[0], case .error(let error) = reply.events[1] else {
            Issue.record("\(reply.events)")
            return
        }
        expectStep(step, 2, "Inc", [], after: 1, failure: "r1: division by zero in 'state.count / 0'")
        #expect(error.description == "app failed: r1: division by zero in 'state.count / 0'")
        #expect(try session.value("state").isIdentical(to: ["count": 1]))
        let other = try session.report("dispatch app Other", as: DispatchReport.self)
        #expect(other.warning == DispatchReport.UnhandledType(store: "app", type: "Other", closest: nil, hasReducers: true))
        guard case .step(let step, .none) = other.outcome else { Issue.record("\(other.outcome)"); return }
        expectStep(step, 3, "Other", [])
    }
}

@Suite("Shell stores: dispatch")
struct StoreShellDispatchTests {
    @Test func dispatchPrintsTheIndexTheTypeAndTheChanges() throws {
        let session = DataflowSession()
        session.run("store app = {items: []}")
        session.run("reducer app on AddTodo : state.items = append(state.items, {title: action.title, done: false})")
        session.run(#"dispatch app AddTodo {title: "tea"}"#)
        session.run(#"dispatch app AddTodo {title: "bread"}"#)
        let step = try session.step(#"dispatch app AddTodo {title: "milk"}"#)
        expectStep(step, 3, "AddTodo", [.at("items[2]", to: ["title": "milk", "done": false])])
        #expect(step.store == "app" && step.action.isIdentical(to: ["type": "AddTodo", "title": "milk"]))
    }

    @Test func removalsReplacementsAndLongValuesPrintShort() throws {
        // A value longer than the truncation (200 characters) keeps its start and counts the rest.
        let session = DataflowSession()
        let long = String(repeating: "0123456789", count: 25)
        session.run(#"store app = {items: ["a", "b"], name: "x"}"#)
        session.run("reducer app on Drop : state.items = [state.items[1]]")
        session.run(#"reducer app on Long : state.name = "\#(long)""#)
        expectStep(try session.step("dispatch app Drop"), 1, "Drop", [.at("items[0]", from: "a")])
        // How the long value is shortened is the point here: the line is checked as it reads.
        #expect(session.run("dispatch app Long") == [#"#2 Long  name: "x" → "\#(long.prefix(198))"… (52 more characters)"#])
    }

    @Test func thePayloadsFieldsJoinTheTypeWhichTheyCannotOverride() throws {
        let session = DataflowSession()
        session.run("store app = {last: null}\nreducer app on * : state.last = action")
        let step = try session.step(#"dispatch app Add {type: "Other", by: 2}"#)
        expectStep(step, 1, "Add", [.at("last", from: .null, to: ["type": "Add", "by": 2])])
    }

    @Test func theStoreMayBeLeftOutWhenThereIsOnlyOne() throws {
        let session = DataflowSession()
        session.run("store app = {count: 0}\nreducer app on Inc : state.count += action.by")
        let step = try session.step("dispatch Inc {by: 2}")
        expectStep(step, 1, "Inc", [.at("count", from: 0, to: 2)])
        #expect(step.store == "app")
    }

    @Test func withTwoStoresTheStoreMustBeNamed() throws {
        let session = DataflowSession()
        session.run("store app = {count: 0}\nstore other = {count: 0}\nreducer app on Inc : state.count += 1")
        let error = try session.onlyError("dispatch Inc")
        #expect(error.message == "there are several stores (app, other); name the one you mean, or select one with 'use STORE'")
        #expect(error.range == 9..<12)
        expectStep(try session.step("dispatch app Inc"), 1, "Inc", [.at("count", from: 0, to: 1)])
        let other = try session.report("dispatch other Inc", as: DispatchReport.self)
        #expect(other.warning == DispatchReport.UnhandledType(store: "other", type: "Inc", closest: nil, hasReducers: false))
        guard case .step(let step, .none) = other.outcome else { Issue.record("\(other.outcome)"); return }
        expectStep(step, 1, "Inc", [])
        #expect(step.store == "other")
    }

    @Test func aRemovedStoreNoLongerNamesTheStoreOfADispatch() throws {
        // With `app` gone, `dispatch app Go` is the action `app` with the payload `Go`.
        let session = DataflowSession()
        session.run("store app = {n: 0}\nstore other = {n: 0}")
        try expectUnhandledGo(session)
        session.run("rm app")
        let error = try session.onlyError("dispatch app Go")
        #expect(error.message == "unknown name 'Go'")
        #expect(error.range == 13..<15)
        session.run("store app = {n: 0}")
        try expectUnhandledGo(session)
    }

    /// `dispatch app Go` to a store without reducers: a warning, and a step that changes nothing.
    private func expectUnhandledGo(_ session: DataflowSession, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let dispatch = try session.report("dispatch app Go", as: DispatchReport.self, sourceLocation: sourceLocation)
        #expect(dispatch.warning == DispatchReport.UnhandledType(store: "app", type: "Go", closest: nil, hasReducers: false),
                sourceLocation: sourceLocation)
        guard case .step(let step, .none) = dispatch.outcome else { Issue.record("\(dispatch.outcome)", sourceLocation: sourceLocation); return }
        expectStep(step, 1, "Go", [], sourceLocation: sourceLocation)
    }

    @Test func withoutAStoreDispatchSaysHowToMakeOne() throws {
        let error = try DataflowSession().onlyError("dispatch Inc")
        #expect(error.message == "there is no store yet; create one with store NAME = EXPR")
        #expect(error.range == 9..<12)
    }

    @Test func aFailingReducerLeavesTheStateAsItWasAndUsesUpTheIndex() throws {
        // r1 runs, r2 fails: r1's change is dropped too. The error names the action's index and
        // the reducer; the next dispatch is #3.
        let session = DataflowSession()
        session.run("store app = {count: 0, log: []}")
        session.run("reducer app on Bad : state.count += 1\nreducer app on Bad : state.count = 1 / 0")
        session.run(#"reducer app on Ok : state.log = append(state.log, "ok")"#)
        session.run("dispatch app Ok")
        let error = try session.onlyError("dispatch app Bad")
        #expect(error.message == "#2 Bad failed in r2 (app keeps its state; the action is kept, marked failed): division by zero in '1 / 0'")
        #expect(error.range == 9..<12)
        #expect(try session.value("state").isIdentical(to: ["count": 0, "log": ["ok"]]))
        expectStep(try session.step("dispatch app Ok"), 3, "Ok", [.at("log[1]", to: "ok")])
    }

    @Test func aFailingReducerWithoutTheStoreNamedPointsAtTheType() throws {
        let session = DataflowSession()
        session.run("store app = {count: 0}\nreducer app on Bad at count[3] : state = 1")
        let error = try session.onlyError("dispatch Bad")
        #expect(error.message == "#1 Bad failed in r1 (app keeps its state; the action is kept, marked failed): at count[3]: cannot go into int in 'state = 1'")
        #expect(error.range == 9..<12)
    }

    @Test func aChangeOfNumberKindIsAChangeOfTheState() throws {
        // `1 == 1.0`, but the reducer did make a decimal: the change is listed and `state` shows it.
        let session = DataflowSession()
        session.run("store app = {avg: 1, xs: [2]}\nreducer app on Avg : state.avg = 1.0\nreducer app on Xs : state.xs = [2.0]")
        expectStep(try session.step("dispatch app Avg"), 1, "Avg", [.at("avg", from: 1, to: 1.0)])
        #expect(try session.value("state").isIdentical(to: ["avg": 1.0, "xs": [2]]))
        expectStep(try session.step("dispatch app Xs"), 2, "Xs", [.at("xs[0]", from: 2, to: 2.0)])
        #expect(try session.value("state").isIdentical(to: ["avg": 1.0, "xs": [2.0]]))
        expectStep(try session.step("dispatch app Avg"), 3, "Avg", [])
    }
}

@Suite("Shell stores: state")
struct StoreShellStateTests {
    @Test func stateShowsTheWholeStateOrOnePath() throws {
        let session = DataflowSession()
        session.run(#"store app = {user: {name: "Max"}, items: [{done: false}, {done: true}]}"#)
        let whole: Value = ["user": ["name": "Max"], "items": [["done": false], ["done": true]]]
        #expect(try session.value("state").isIdentical(to: whole))
        #expect(try session.value("state .user.name").isIdentical(to: "Max"))
        #expect(try session.value("state .items[1].done").isIdentical(to: true))
        #expect(try session.value("state app.items[0]").isIdentical(to: ["done": false]))
        #expect(try session.value("state app").isIdentical(to: whole))
        #expect(try session.value("state user").isIdentical(to: ["name": "Max"]))
    }

    @Test func withTwoStoresStateNamesTheStore() throws {
        let session = DataflowSession()
        session.run("store app = {count: 1}\nstore other = {n: 2}")
        #expect(try session.value("state other").isIdentical(to: ["n": 2]))
        #expect(try session.value("state app.count").isIdentical(to: 1))
        #expect(try session.value("state other.n").isIdentical(to: 2))
        let error = try session.onlyError("state .count")
        #expect(error.message == "there are several stores (app, other); name the one you mean, or select one with 'use STORE'")
        #expect(error.range == 0..<12)
    }

    @Test func aBadPathIsAnErrorUnderThePath() throws {
        let session = DataflowSession()
        session.run("store app = {count: 0, items: [1, 2]}")
        let errors: [(command: String, message: String, range: Range<Int>)] = [
            ("state app.nope", "no key 'nope' (keys: count, items) in 'state.nope'; use ?. or ?? to read optional data", 9..<14),
            ("state .items[5]", "index 5 out of range (count 2) in 'state.items[5]'", 6..<15),
            ("state count.x", "cannot read .x of an int in 'state.count.x'", 6..<13),
            ("state .", "expected a key name after '.', found the end of the input", 7..<7),
        ]
        for (command, message, range) in errors {
            let error = try session.onlyError(command)
            #expect(error.message == message, "\(command)")
            #expect(error.range == range, "\(command)")
        }
    }

    @Test func withoutAStoreStateSaysHowToMakeOne() throws {
        let error = try DataflowSession().onlyError("state")
        #expect(error.message == "there is no store yet; create one with store NAME = EXPR")
        #expect(error.range == 0..<5)
    }
}

@Suite("Shell stores: wired into the graph")
struct StoreShellWiringTests {
    @Test func aDispatchFromAWireIsQueuedSoAListenerSeesEveryStateInOrder() throws {
        // The store's action goes out to `relay`, whose value comes back as B after A. A probe on
        // app.state sees s0, sA, sAB: never sAB first. The command's own action is printed first,
        // then what it set off, in order: the wire's dispatch names the action it came from.
        let session = DataflowSession()
        session.run(#"store app = {log: []}"#)
        session.run(#"reducer app on A : state.log = append(state.log, "A")"#)
        session.run(#"reducer app on B : state.log = append(state.log, "B")"#)
        session.run(#"var relay = {type: "none"}"#)
        session.run("wire app.action -> relay.set")
        #expect(session.run(#"wire relay.value -> app.dispatch when $.type == "A" : {type: "B"}"#) == [
            #"wired relay.value -> app.dispatch when $.type == "A" : {type: "B"}"#,
        ])
        #expect(session.run("probe app.state") == ["app.state = {log: []}  (txn 1)"])
        #expect(session.run("dispatch app A") == [
            #"#1 A  log[0]: + "A""#,
            #"app.state = {log: ["A"]}  (txn 2)"#,
            #"#2 B (from #1)  log[1]: + "B""#,
            #"app.state = {log: ["A", "B"]}  (txn 3)"#,
        ])
        #expect(try session.value("state").isIdentical(to: ["log": ["A", "B"]]))
    }

    @Test func aWireCanDispatchIntoAStore() {
        let session = DataflowSession()
        session.run("store app = {count: 0}\nreducer app on Tap : state.count += action.n\nsignal taps")
        session.run(#"wire taps.out -> app.dispatch : {type: "Tap", n: $}"#)
        #expect(session.run("send taps 2\nsend taps 3") == ["#1 Tap  count: 0 → 2", "#2 Tap  count: 2 → 5"])
    }

    @Test func aWireFromTheStoresStateToItsDispatchIsAllowed() throws {
        // Not a cycle of instantaneous edges: a dispatch is queued.
        let session = DataflowSession()
        session.run("store app = {count: 0}\nreducer app on Inc : state.count += 1")
        #expect(session.run(#"wire app.state -> app.dispatch when $.count > 0 && $.count < 3 : {type: "Inc"}"#) == [
            #"wired app.state -> app.dispatch when $.count > 0 && $.count < 3 : {type: "Inc"}"#,
        ])
        #expect(session.run("dispatch app Inc") == ["#1 Inc  count: 0 → 1", "#2 Inc (from #1)  count: 1 → 2", "#3 Inc (from #2)  count: 2 → 3"])
        #expect(try session.value("state").isIdentical(to: ["count": 3]))
    }

    @Test func aRunawayLoopStopsAfterOneHundredFollowUpsWithOneError() throws {
        let session = DataflowSession()
        session.run("store app = {count: 0}\nreducer app on Inc : state.count += 1")
        session.run(#"wire app.state -> app.dispatch when $.count > 0 : {type: "Inc"}"#)
        let outcome = session.outcome("dispatch app Inc")
        #expect(outcome.status == .failure)
        let errors = outcome.lines.filter { $0.stream == .error }.map(\.text)
        #expect(errors == ["""
            error: did not settle after 100 follow-up transactions (writes from callbacks); ports involved: app.dispatch
              dispatch app Inc
              ^
            """])
        // The command failed as a whole: the actions of the loop were taken back.
        let output = outcome.lines.filter { $0.stream == .output }.map(\.text)
        #expect(output == ["the actions the command made were taken back: app is as before it"])
        // The shell goes on, from the state before the command.
        #expect(session.run("unwire app.dispatch\nstate\nhistory\n= 1 + 1") == ["unwired app.dispatch", "{count: 0}", ">  #0 (initial state)", "2"])
        expectStep(try session.step("dispatch app Inc"), 1, "Inc", [.at("count", from: 0, to: 1)])
    }

    @Test func anActionWithoutATypeFromAWireIsAnErrorThatChangesNothing() {
        // The write that carried it succeeds; the store reports the bad action once and
        // keeps its state and its count.
        let session = DataflowSession()
        session.run(#"store app = {count: 0}\#nreducer app on Inc : state.count += 1\#nvar x = {kind: "none"}"#)
        #expect(session.run("wire x.value -> app.dispatch") == [  // the replay of x's value is an action too
            #"error: app failed: an action is an object with a string type, such as {type: "AddTodo"}, not {kind: "none"}"#,
            "wired x.value -> app.dispatch",
        ])
        for (value, shown) in [(#"{kind: "Inc"}"#, #"{kind: "Inc"}"#), ("5", "5"), ("{type: 3}", "{type: 3}")] {
            let outcome = session.outcome("set x = \(value)")
            #expect(outcome.status == .success)
            #expect(outcome.lines.map(\.text) == [
                "error: app failed: an action is an object with a string type, such as {type: \"AddTodo\"}, not \(shown)",
            ])
        }
        #expect(session.run(#"state\#nset x = {type: "Inc"}"#) == ["{count: 0}", "#1 Inc  count: 0 → 1"])
    }
}

@Suite("Shell stores: transactions")
struct StoreShellTransactionTests {
    @Test func aDispatchInATransactionWaitsForTheCommitAndIsThenPrinted() throws {
        let session = DataflowSession()
        session.run("store app = {count: 0}\nreducer app on Inc : state.count += 1\nbegin")
        #expect(session.run("dispatch app Inc\ndispatch Inc\nstate") == [
            "Inc waits for the transaction to commit", "Inc waits for the transaction to commit", "{count: 0}",
        ])
        #expect(session.run("commit") == ["#1 Inc  count: 0 → 1", "#2 Inc  count: 1 → 2"])
        #expect(try session.value("state").isIdentical(to: ["count": 2]))
    }

    @Test func anAbortedDispatchNeverHappened() {
        let session = DataflowSession()
        session.run("store app = {count: 0}\nreducer app on Inc : state.count += 1\nbegin\ndispatch app Inc")
        #expect(session.run("abort") == ["aborted: the transaction's writes are dropped"])
        #expect(session.run("state\ndispatch app Inc") == ["{count: 0}", "#1 Inc  count: 0 → 1"])
    }

    @Test func aReducerThatFailsAtTheCommitIsReported() {
        // Not swallowed: the failed step and the store's error are printed, the state stays.
        let session = DataflowSession()
        session.run("store app = {count: 0}\nreducer app on Bad : state.count = 1 / 0\nbegin\ndispatch app Bad")
        #expect(session.run("commit") == [
            "#1 Bad  failed: r1: division by zero in '1 / 0'",
            "error: app failed: #1 Bad failed in r1 (app keeps its state; the action is kept, marked failed): division by zero in '1 / 0'",
        ])
        #expect(session.run("state\ndispatch app Other") == ["{count: 0}", "warning: no reducer of app handles 'Other'", "#2 Other  (no changes)"])
    }

    @Test func aReducerThatFailsOnAnActionFromAWireIsReported() throws {
        let session = DataflowSession()
        session.run("store app = {count: 0}\nreducer app on Bad : state.count = 1 / 0\nsignal s")
        session.run(#"wire s.out -> app.dispatch : {type: "Bad"}"#)
        let outcome = session.outcome("send s 1")
        #expect(outcome.status == .success)
        #expect(outcome.lines.map(\.text) == [
            "#1 Bad  failed: r1: division by zero in '1 / 0'",
            "error: app failed: #1 Bad failed in r1 (app keeps its state; the action is kept, marked failed): division by zero in '1 / 0'",
        ])
        #expect(try session.value("state").isIdentical(to: ["count": 0]))
    }
}

@Suite("Shell stores: --json")
struct StoreShellJSONTests {
    @Test func dispatchGivesStoreIndexActionAndChanges() {
        let session = DataflowSession(json: true)
        session.run("store app = {count: 0}\nreducer app on Inc : state.count += 1")
        #expect(session.run("dispatch app Inc") == [
            #"{"ok":true,"command":"dispatch app Inc","result":{"store":"app","index":1,"action":{"type":"Inc"},"changes":[{"path":"count","op":"replace","old":0,"new":1}]}}"#,
        ])
    }

    @Test func addedAndRemovedValuesHaveNullOnTheMissingSide() {
        let session = DataflowSession(json: true)
        session.run("store app = {items: [1, 2]}\nreducer app on Pop : state.items = [state.items[0]]\nreducer app on Push : state.items = append(state.items, action.x)")
        #expect(session.run("dispatch app Pop") == [
            #"{"ok":true,"command":"dispatch app Pop","result":{"store":"app","index":1,"action":{"type":"Pop"},"changes":[{"path":"items[1]","op":"remove","old":2,"new":null}]}}"#,
        ])
        #expect(session.run(#"dispatch app Push {x: {"a b": 1.5}}"#) == [
            #"{"ok":true,"command":"dispatch app Push {x: {\"a b\": 1.5}}","result":{"store":"app","index":2,"action":{"type":"Push","x":{"a b":1.5}},"changes":[{"path":"items[1]","op":"add","old":null,"new":{"a b":1.5}}]}}"#,
        ])
    }

    @Test func storeStateAndReducerResults() {
        let session = DataflowSession(json: true)
        #expect(session.run("store app = {count: 0}") == [
            #"{"ok":true,"command":"store app = {count: 0}","result":{"store":"app","state":{"count":0}}}"#,
        ])
        #expect(session.run("reducer app on Inc at count when state < 5 after 10 : state += 1") == [
            #"{"ok":true,"command":"reducer app on Inc at count when state < 5 after 10 : state += 1","result":{"id":"r1","store":"app","type":"Inc","at":"count","when":"state < 5","after":10,"body":"state += 1"}}"#,
        ])
        #expect(session.run("state .count") == [#"{"ok":true,"command":"state .count","result":0}"#])
        #expect(session.run("reducer rm r1") == [#"{"ok":true,"command":"reducer rm r1","result":{"removed":"r1"}}"#])
        #expect(session.run("reducer list") == [#"{"ok":true,"command":"reducer list","result":[]}"#])
    }

    @Test func aFailingReducerIsAnErrorWithItsColumn() {
        let session = DataflowSession(json: true)
        session.run("store app = {count: 0}\nreducer app on Bad : state.count = 1 / 0")
        #expect(session.run("dispatch app Bad") == [
            ##"{"ok":false,"command":"dispatch app Bad","error":{"message":"#1 Bad failed in r1 (app keeps its state; the action is kept, marked failed): division by zero in '1 / 0'","line":1,"column":10}}"##,
        ])
    }

    @Test func aDispatchFromAWireIsAnEvent() {
        let session = DataflowSession(json: true)
        session.run("store app = {count: 0}\nreducer app on Tap : state.count += 1\nsignal taps")
        session.run(#"wire taps.out -> app.dispatch : {type: "Tap"}"#)
        #expect(session.run("send taps 1") == [
            #"{"event":"dispatch","store":"app","index":1,"action":{"type":"Tap"},"changes":[{"path":"count","op":"replace","old":0,"new":1}]}"#,
            #"{"ok":true,"command":"send taps 1","result":null}"#,
        ])
    }
}

@Suite("Shell stores: completion")
struct StoreShellCompletionTests {
    private func session() -> DataflowSession {
        let session = DataflowSession()
        session.run("store app = {count: 0}\nstore archive = {n: 0}\nvar apple = 1")
        session.run("reducer app on AddTodo : state.count += 1\nreducer app on Archive : state.count = 0\nreducer app on * : state.count += 0")
        session.run("reducer archive on Append : state.n += 1")
        return session
    }

    @Test func storeNamesCompleteAfterDispatchStateAndReducer() {
        let shell = session().shell
        #expect(shell.complete("dispatch ar", cursor: 11).candidates == ["archive"])
        #expect(shell.complete("state a", cursor: 7).candidates == ["app", "archive"])
        #expect(shell.complete("state ap", cursor: 8).candidates == ["app"])
        #expect(shell.complete("reducer a", cursor: 9).candidates == ["app", "archive"])
        #expect(shell.complete("reducer list a", cursor: 14).candidates == ["app", "archive"])
        #expect(shell.complete("reducer ", cursor: 8).candidates == ["app", "archive", "list", "r1", "r2", "r3", "r4", "rm"])
    }

    @Test func dispatchAlsoOffersTheActionTypesOfEveryStore() {
        // With the store left out, the first word may be an action type.
        let shell = session().shell
        #expect(shell.complete("dispatch A", cursor: 10).candidates == ["AddTodo", "Append", "Archive"])
        #expect(shell.complete("dispatch ", cursor: 9).candidates == ["AddTodo", "Append", "Archive", "app", "archive"])
    }

    @Test func afterAStoreDispatchOffersTheTypesItsReducersHandle() {
        // Not `*`, and not the other store's types.
        let shell = session().shell
        let completion = shell.complete("dispatch app ", cursor: 13)
        #expect(completion.candidates == ["AddTodo", "Archive"])
        #expect(completion.range == 13..<13)
        #expect(shell.complete("dispatch app Ad", cursor: 15).candidates == ["AddTodo"])
        #expect(shell.complete("dispatch archive A", cursor: 18).candidates == ["Append"])
        #expect(shell.complete("reducer app on A", cursor: 16).candidates == ["AddTodo", "Archive"])
    }

    @Test func reducerRmOffersTheReducerIDs() {
        let shell = session().shell
        #expect(shell.complete("reducer rm r", cursor: 12).candidates == ["r1", "r2", "r3", "r4"])
    }
}

@Suite("Shell stores: bad input")
struct StoreShellBadInputTests {
    /// A store with one reducer and one action, to check that a bad command changes nothing.
    private func session() -> DataflowSession {
        let session = DataflowSession()
        session.run("store app = {count: 0, items: [1, 2]}\nreducer app on Inc : state.count += action.by\ndispatch app Inc {by: 1}")
        return session
    }

    /// Nothing changed: the reducers, the state, the next reducer id and the next index.
    private func expectUnchanged(_ session: DataflowSession, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reducers = try session.report("reducer list", as: ReducerList.self, sourceLocation: sourceLocation).reducers
        #expect(reducers.map(fields) == [["r1", "app", "Inc", nil, nil, nil, "state.count += action.by"]], sourceLocation: sourceLocation)
        #expect(try session.value("state", sourceLocation: sourceLocation).isIdentical(to: ["count": 1, "items": [1, 2]]),
                sourceLocation: sourceLocation)
        // A reducer for a type the history never had leaves its states as they are: no note
        // (the report is the reducer's alone, not a StaleHistoryNoted).
        #expect(try defined(session, "reducer app on Dec : state.count -= 1", sourceLocation: sourceLocation)
                == ["r2", "app", "Dec", nil, nil, nil, "state.count -= 1"], sourceLocation: sourceLocation)
        expectStep(try session.step("dispatch app Inc {by: 1}", sourceLocation: sourceLocation), 2, "Inc", [.at("count", from: 1, to: 2)],
                   sourceLocation: sourceLocation)
    }

    private let usage = "usage: reducer [ID =] STORE on TYPE [at PATH] [when EXPR] [after MS] : STATEMENTS | reducer ID : STATEMENTS | reducer list [STORE] | reducer rm ID (see 'help reducer')"

    @Test func aReducerWithoutOn() throws {
        let session = session()
        try session.expectError("reducer app Inc : state.count = 1", "expected 'on' and the action type, found 'Inc'; \(usage)", at: 12..<15)
        try expectUnchanged(session)
    }

    @Test func aReducerWithoutTheColon() throws {
        let session = session()
        try session.expectError("reducer app on Inc state.count = 1", "expected ':' and the statements (or at, when, after), found 'state.count'; \(usage)", at: 19..<30)
        try expectUnchanged(session)
    }

    @Test func aReducerWithABadPath() throws {
        let session = session()
        try session.expectError("reducer app on Inc at 3x : state = 1", "expected a path such as user.name, found '3x'; \(usage)", at: 22..<24)
        try session.expectError("reducer app on Inc at items[-1] : state = 1", "an index is not negative; \(usage)", at: 28..<30)
        try expectUnchanged(session)
    }

    @Test func aReducerWithANegativeDelay() throws {
        let session = session()
        try session.expectError("reducer app on Inc after -5 : state = 0", "after -5: the delay must be between 0 and 4611686018427387903 ms, the longest wait of the virtual clock; \(usage)", at: 25..<27)
        try expectUnchanged(session)
    }

    @Test func aReducerWithADelayPastTheLongestWaitIsAnErrorAtTheNumber() throws {
        let session = session()
        try session.expectError("reducer app on Inc after 4611686018427387904 : state = 0", "after 4611686018427387904: the delay must be between 0 and 4611686018427387903 ms, the longest wait of the virtual clock; \(usage)", at: 25..<44)
        try expectUnchanged(session)
    }

    @Test func aReducerOnAnUnknownStore() throws {
        let session = session()
        try session.expectError("reducer nope on Inc : state = 1", "no node 'nope' (nodes: app)", at: 8..<12)
        try expectUnchanged(session)
    }

    @Test func aPayloadThatIsNotAnObject() throws {
        let session = session()
        try session.expectError("dispatch app Inc 5", "the action's fields must be an object, such as {by: 2}, not int", at: 17..<18)
        try expectUnchanged(session)
    }

    @Test func aPayloadThatFailsToEvaluate() throws {
        let session = session()
        try session.expectError("dispatch app Inc {by: 1 / 0}", "division by zero in '1 / 0'", at: 22..<27)
        try expectUnchanged(session)
    }

    @Test func aStoreNameThatIsTaken() throws {
        let session = session()
        try session.expectError("store app = {count: 5}", "'app' is already a node (store); rm it first or pick another name", at: 6..<9)
        try expectUnchanged(session)
    }
}
