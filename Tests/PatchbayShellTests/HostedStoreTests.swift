import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory
@_spi(Shell) @testable import PatchbayShell
import Testing

// An app's stores hosted in the shell: the app's Swift reducers run behind every command of
// stores, time travel and sessions, exactly as shell reducers do.

/// A counter whose reducer is order-dependent (`double`), so that recomputing a history
/// through the Swift code shows in the states.
struct Tally: Codable, Equatable {
    var total = 0
    var log: [String] = []
}

/// TCA-style actions: an enum with associated values.
enum TallyAction: Codable, Equatable {
    case add(amount: Int)
    case double
    case note(String)
}

/// ReSwift/VISPER-style actions: one struct per action type.
protocol WalletAction {}
struct Deposit: WalletAction, Codable { var amount: Int }
struct Withdraw: WalletAction, Codable { var amount: Int }
struct Wallet: Codable, Equatable { var balance = 0 }

enum HostedFixtures {
    /// `double` doubles, unless `doublingAdds` (a changed reducer, for verification).
    static func tallyReducer(doublingAdds: Int? = nil) -> Reducer<Tally, TallyAction> {
        Reducer { state, action in
            switch action {
            case .add(let amount): state.total += amount
            case .double: state.total = doublingAdds.map { state.total + $0 } ?? state.total * 2
            case .note(let text): state.log.append(text)
            }
        }
    }

    static func tally(doublingAdds: Int? = nil, middleware: [Middleware<Tally, TallyAction>] = []) -> HostedStore {
        HostedStore("tally", initialState: Tally(), reducer: tallyReducer(doublingAdds: doublingAdds), middleware: middleware)
    }

    static func wallet() -> HostedStore {
        HostedStore("wallet", initialState: Wallet(), reducer: Reducer(reSwift: { (action: any WalletAction, state: Wallet?) in
            var state = state ?? Wallet()
            switch action {
            case let deposit as Deposit: state.balance += deposit.amount
            case let withdraw as Withdraw: state.balance -= withdraw.amount
            default: break
            }
            return state
        }), actions: .types([ActionType(Deposit.self), ActionType(Withdraw.self)]))
    }

    static func session(_ stores: [HostedStore] = [tally()], json: Bool = false) throws -> DataflowSession {
        let session = DataflowSession(json: json)
        try session.shell.host(stores)
        return session
    }
}

@Suite("Hosted stores: the app's reducers in the shell")
struct HostedStoreTests {
    @Test func dispatchRunsTheSwiftReducer() throws {
        let session = try HostedFixtures.session()
        expectStep(try session.step("dispatch tally add {amount: 3}"), 1, "add", [.at("total", from: 0, to: 3)])
        expectStep(try session.step(#"dispatch tally note {_0: "hi"}"#), 2, "note", [.at("log[0]", to: "hi")])
        expectStep(try session.step("dispatch tally double"), 3, "double", [.at("total", from: 3, to: 6)])
        #expect(try session.value("state tally").isIdentical(to: ["total": 6, "log": ["hi"]]))
        #expect(session.run("history tally").count == 4)
    }

    @Test func structActionsMapByTheirTypeName() throws {
        let session = try HostedFixtures.session([HostedFixtures.wallet()])
        session.run("dispatch wallet Deposit {amount: 10}\ndispatch wallet Withdraw {amount: 4}")
        #expect(try session.value("state wallet").isIdentical(to: ["balance": 6]))
    }

    @Test func anUnknownActionTypeIsAnErrorWithASuggestionAndChangesNothing() throws {
        let session = try HostedFixtures.session([HostedFixtures.wallet()])
        let outcome = session.outcome("dispatch wallet Deposti {amount: 1}")
        #expect(outcome.status == .failure)
        let text = outcome.lines.map(\.text).joined(separator: "\n")
        #expect(text.contains("'Deposti'"))
        #expect(text.contains("did you mean 'Deposit'?"))
        #expect(text.contains("dispatch wallet Deposti {amount: 1}\n                  ^~~~~~~"))
        #expect(try session.value("state wallet").isIdentical(to: ["balance": 0]))
        try session.expectNoActions("history wallet")
    }

    @Test func aFieldThatDoesNotDecodeNamesTheFieldAndTheType() throws {
        let session = try HostedFixtures.session()
        let outcome = session.outcome(#"dispatch tally add {amount: "3"}"#)
        #expect(outcome.status == .failure)
        let text = outcome.lines.map(\.text).joined(separator: "\n")
        #expect(text.contains("error: add.amount: expected an integer, found string"))
        #expect(text.contains(#"dispatch tally add {amount: "3"}"# + "\n                     ^~~~~~~~~~~~~"))
        #expect(try session.value("state tally").isIdentical(to: ["total": 0, "log": []]))
    }

    @Test func skipRecomputesThroughTheSwiftReducer() throws {
        let session = try HostedFixtures.session()
        session.run("dispatch tally add {amount: 1}\ndispatch tally add {amount: 10}\ndispatch tally double")
        #expect(try session.value("state tally").isIdentical(to: ["total": 22, "log": []]))
        try session.expectSkip("skip tally 1", 1, skipped: true, changing: 3)
        #expect(try session.value("state tally").isIdentical(to: ["total": 20, "log": []]))
        try session.expectSkip("unskip tally 1", 1, skipped: false, changing: 3)
        #expect(try session.value("state tally").isIdentical(to: ["total": 22, "log": []]))
    }

    @Test func aDispatchAfterAJumpStartsABranch() throws {
        let session = try HostedFixtures.session()
        session.run("dispatch tally add {amount: 1}\ndispatch tally add {amount: 10}")
        session.run("jump tally 1")
        #expect(session.run("dispatch tally double") == [
            "#2 double  total: 1 → 2", "new branch b1 from main at #1: main keeps its 2 actions ('checkout tally main' goes back)",
        ])
        #expect(try session.value("state tally").isIdentical(to: ["total": 2, "log": []]))
        let branches = session.run("branch tally").joined(separator: "\n")
        #expect(branches.contains("main"))
        #expect(session.run("checkout tally main").first?.contains("tally on main at #2") == true)
        #expect(try session.value("state tally").isIdentical(to: ["total": 11, "log": []]))
        // The typed state decodes again after time travel: the next action reduces from it.
        expectStep(try session.step("dispatch tally double"), 3, "double", [.at("total", from: 11, to: 22)])
    }

    @Test func blameFindAndDiffWorkOnHostedStores() throws {
        let session = try HostedFixtures.session()
        session.run("dispatch tally add {amount: 2}\ndispatch tally double\ndispatch tally note {_0: \"x\"}")
        try session.expectBlamed("blame tally total", [1, 2], [["type": "add", "amount": 2], ["type": "double"]], old: [0, 2], new: [2, 4])
        try session.expectFound("find tally state.total > 3", [2, 3], [["type": "double"], ["type": "note", "_0": "x"]])
        #expect(try session.report("diff tally 1 3", as: StateDiff.self).changes.isIdentical(to: [.at("total", from: 2, to: 4), .at("log[0]", to: "x")]))
    }

    @Test func historyRewritesWorkOnHostedStores() throws {
        let session = try HostedFixtures.session()
        session.run("dispatch tally add {amount: 1}\ndispatch tally add {amount: 10}\ndispatch tally double")
        session.run("skip tally 2")
        #expect(session.run("history sweep tally").first?.contains("1") == true)
        #expect(try session.value("state tally").isIdentical(to: ["total": 2, "log": []]))
        session.run("history commit tally")
        try session.expectNoActions("history tally")
        // The committed state is the new start: the app's reducer goes on from it.
        expectStep(try session.step("dispatch tally double"), 1, "double", [.at("total", from: 2, to: 4)])
        session.run("history revert tally")
        #expect(try session.value("state tally").isIdentical(to: ["total": 2, "log": []]))
    }

    @Test func theShellCannotAddAReducerToAHostedStore() throws {
        let session = try HostedFixtures.session()
        #expect(session.error("reducer tally on add : state.total = 0").contains("tally is hosted: its reducer is the app's Swift code"))
    }

    @Test func wiresGoIntoAndOutOfAHostedStore() throws {
        let session = try HostedFixtures.session()
        session.run("var seen = 0")
        session.run("wire tally.state -> seen.set : $.total")
        session.run("signal taps")
        session.run("wire taps.out -> tally.dispatch : {type: \"add\", amount: $}")
        #expect(session.run("send taps 5") == ["#1 add  total: 0 → 5"])
        #expect(try session.value("state tally").isIdentical(to: ["total": 5, "log": []]))
        #expect(session.run("show seen").first?.contains("5") == true)
    }

    @Test func aMiddlewareCanDropAnActionOrDispatchMore() throws {
        let middleware = Middleware<Tally, TallyAction> { action, context in
            if case .add(let amount) = action, amount < 0 { return nil }
            if case .double = action, context.state.total > 100 { context.dispatch(.note("big")) }
            return action
        }
        let session = try HostedFixtures.session([HostedFixtures.tally(middleware: [middleware])])
        #expect(session.run("dispatch tally add {amount: -1}") == ["add was dropped by a middleware: nothing changed"])
        session.run("dispatch tally add {amount: 101}")
        // The action first, then what it caused, which names it.
        #expect(session.run("dispatch tally double") == ["#2 double  total: 101 → 202", #"#3 note (from #2)  log[0]: + "big""#])
        #expect(try session.value("state tally").isIdentical(to: ["total": 202, "log": ["big"]]))
        #expect(session.run("history tally").last?.contains("(dispatched by #2)") == true)
    }

    /// A history holds the actions as the middleware let them through: recomputing it (a skip,
    /// `history recompute`) runs the reducer only. Before, the middleware ran again and scaled
    /// every amount a second time.
    @Test func recomputingAHistoryDoesNotRunTheMiddlewareAgain() throws {
        let tenfold = Middleware<Tally, TallyAction> { action, _ in
            if case .add(let amount) = action { return .add(amount: amount * 10) }
            return action
        }
        let session = try HostedFixtures.session([HostedFixtures.tally(middleware: [tenfold])])
        session.run("dispatch tally add {amount: 1}\ndispatch tally add {amount: 2}")
        #expect(try session.value("state tally").isIdentical(to: ["total": 30, "log": []]))
        #expect(session.run("history recompute tally").first?.hasPrefix("recomputed") == true)
        #expect(try session.value("state tally").isIdentical(to: ["total": 30, "log": []]))
        session.run("skip tally 1")
        #expect(try session.value("state tally").isIdentical(to: ["total": 20, "log": []]))
    }

    @Test func resetBringsTheAppsStoresBackInTheirInitialStates() throws {
        let session = try HostedFixtures.session()
        session.run("dispatch tally add {amount: 3}")
        #expect(session.run("reset") == ["reset: everything defined in this session is gone; the app's stores are back in their initial states"])
        #expect(try session.value("state tally").isIdentical(to: ["total": 0, "log": []]))
        expectStep(try session.step("dispatch tally add {amount: 1}"), 1, "add", [.at("total", from: 0, to: 1)])
    }

    @Test func saveLeavesHostedStoresToTheApp() throws {
        let session = try HostedFixtures.session()
        let directory = TemporaryDirectory()
        session.run("dispatch tally add {amount: 3}")
        session.run("save \(directory.path)/s.pb")
        let saved = try String(contentsOfFile: directory.path + "/s.pb", encoding: .utf8)
        #expect(!saved.contains("store tally"))
        #expect(saved.contains("# tally is hosted by the app"))
    }
}

@Suite("Hosted stores: recordings verified against the app's code")
struct HostedStoreRecordingTests {
    /// Records `script` in a shell hosting `tally()` into FILE; returns its path.
    static func record(_ script: String, in directory: TemporaryDirectory) throws -> String {
        let path = directory.path + "/tally.jsonl"
        let session = try HostedFixtures.session()
        session.run("record \(path)")
        session.run(script)
        session.run("record stop")
        return path
    }

    @Test func aRecordingVerifiesAgainstTheSameReducer() throws {
        let directory = TemporaryDirectory()
        let path = try Self.record("dispatch tally add {amount: 1}\ndispatch tally add {amount: 10}\ndispatch tally double\nskip tally 1", in: directory)
        let session = try HostedFixtures.session()
        #expect(session.run("replay \(path) --verify").last == "verified 4 steps of \(path): every effect matches the recording")
        #expect(try session.value("state tally").isIdentical(to: ["total": 20, "log": []]))
    }

    @Test func aChangedReducerIsCaughtAtTheExactStep() throws {
        let directory = TemporaryDirectory()
        let path = try Self.record("dispatch tally add {amount: 1}\ndispatch tally add {amount: 10}\ndispatch tally double", in: directory)
        let session = try HostedFixtures.session([HostedFixtures.tally(doublingAdds: 1)])
        let lines = session.run("replay \(path) --verify")
        #expect(lines.contains("  total: 22 → 12"))
        #expect(lines.joined(separator: "\n").contains(
            ": dispatch tally double): the state after action #3 of tally differs from the recording"))
        // The test API finds the same step.
        let error = try #require(throws: RecordedSessionError.self) {
            try RecordedSession(path: path).verify(HostedFixtures.tallyReducer(doublingAdds: 1), store: "tally")
        }
        #expect(error.description.hasPrefix("action #3 of tally (line "))
        #expect(error.description.contains(": double) leaves a state other than the recording's"))
        #expect(error.description.contains("  total: 22 → 12"))
    }

    @Test func anAppsRecordingReplaysThroughTheHostedReducer() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/app.jsonl"
        let store = Store(initialState: Tally(), reducer: HostedFixtures.tallyReducer())
        let recorder = try Recorder(store: store, path: path, storeName: "tally", detail: .everyChange)
        store.dispatch(.add(amount: 2))
        store.dispatch(.note("x"))
        store.dispatch(.double)
        recorder.stop()

        let session = try HostedFixtures.session()
        #expect(session.run("replay \(path) --verify").last == "verified 3 steps of \(path): every effect matches the recording")
        #expect(try session.value("state tally").isIdentical(to: ["total": 4, "log": ["x"]]))

        let changed = try HostedFixtures.session([HostedFixtures.tally(doublingAdds: 1)])
        let lines = changed.run("replay \(path) --verify")
        #expect(lines.contains("  total: 4 → 3"))
        #expect(lines.joined(separator: "\n").contains("replay diverged at step 3 (line 5: dispatch tally double)"))
    }

    @Test func anAppsRecordingOfActionsAndCheckpointsVerifiesAtItsCheckpoints() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/app.jsonl"
        let store = Store(initialState: Tally(), reducer: HostedFixtures.tallyReducer())
        let recorder = try Recorder(store: store, path: path, storeName: "tally", checkpointInterval: 2)
        for action in [TallyAction.add(amount: 2), .note("x"), .double, .add(amount: 1), .double] { store.dispatch(action) }
        recorder.stop()

        let session = try HostedFixtures.session()
        #expect(session.run("replay \(path) --verify").last == "verified 5 steps of \(path): every effect matches the recording")
        #expect(try session.value("state tally").isIdentical(to: ["total": 10, "log": ["x"]]))
        #expect(try RecordedSession(path: path).verify(HostedFixtures.tallyReducer(), store: "tally") == 5)

        // A reducer whose double adds one: the states match at checkpoint #2, and differ at #4,
        // whose actions since #2 (#3 double, #4 add) both change the total.
        let changed = try HostedFixtures.session([HostedFixtures.tally(doublingAdds: 1)])
        let lines = changed.run("replay \(path) --verify").joined(separator: "\n")
        #expect(lines.contains("  total: 5 → 4"), "\(lines)")
        #expect(lines.contains("replay diverged at step 4"), "\(lines)")
        let error = try #require(throws: RecordedSessionError.self) {
            try RecordedSession(path: path).verify(HostedFixtures.tallyReducer(doublingAdds: 1), store: "tally")
        }
        guard case .diverged(let divergence) = error else {
            Issue.record("expected a divergence, got \(error)")
            return
        }
        #expect(divergence.index == 4)
        #expect(divergence.lastMatched == 2)
        #expect(divergence.touchingSteps == [3, 4])
    }

    @Test func historyRecomputeFindsTheChangesOfTheStepsACheckpointRecordingLeavesOut() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/app.jsonl"
        let store = Store(initialState: Tally(), reducer: HostedFixtures.tallyReducer())
        let recorder = try Recorder(store: store, path: path, storeName: "tally", checkpointInterval: 3)
        for action in [TallyAction.add(amount: 2), .note("x"), .double, .add(amount: 1)] { store.dispatch(action) }
        recorder.stop()

        let session = try HostedFixtures.session()
        session.run("inspect \(path)")
        #expect(session.run("history tally") == [
            "   #0 (initial state)", "   #1 add {amount: 2}  (change not recorded)", "   #2 note {_0: \"x\"}  (change not recorded)",
            "   #3 double  total, log[0] (since the last recorded state)", ">  #4 add {amount: 1}  total (since the last recorded state)",
        ])
        // The same reducer: no recorded state changes, and every step gets its own changes.
        #expect(session.run("history recompute tally") == ["recomputed 4 actions of tally with its reducers as they are now: 0 states changed"])
        #expect(session.run("history tally") == [
            "   #0 (initial state)", "   #1 add {amount: 2}  total", "   #2 note {_0: \"x\"}  log[0]", "   #3 double  total",
            ">  #4 add {amount: 1}  total",
        ])
    }

    @Test func aCheckpointThatDiffersFromTheReplayedStateShowsTheDiffOrTheDivergenceInJSON() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/app.jsonl"
        let store = Store(initialState: Tally(), reducer: HostedFixtures.tallyReducer())
        // States every second action, the actions between without their changes: a checkpoint
        // is checked against the reducer only (with patches before it, an edited one would
        // contradict them, which is damage).
        let recorder = try Recorder(store: store, path: path, storeName: "tally", detail: .checkpoints, checkpointInterval: 2)
        for _ in 0..<4 { store.dispatch(.add(amount: 1)) }
        recorder.stop()
        // Someone edits the first checkpoint: its log is not what the actions made.
        var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        let checkpoint = try #require(lines.firstIndex { $0.contains(#""kind":"checkpoint""#) })
        lines[checkpoint] = lines[checkpoint].replacingOccurrences(of: #""log":[]"#, with: #""log":["edited"]"#)
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)

        let printed = try HostedFixtures.session().run("replay \(path) --verify")
        #expect(printed.contains(#"  log[0]: - "edited""#), "\(printed)")
        #expect(printed.last?.contains("differs from the recording (recorded → now, above)") == true)
        let json = try HostedFixtures.session(json: true).run("replay \(path) --verify")
        #expect(json.count == 1, "\(json)")
        #expect(json.first?.contains(#""diff":[{"path":"log[0]","op":"remove","old":"edited","new":null}]"#) == true, "\(json)")
    }

    @Test func anInspectedAppRecordingIsRecomputedByTheHostedReducer() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/app.jsonl"
        let store = Store(initialState: Tally(), reducer: HostedFixtures.tallyReducer())
        let recorder = try Recorder(store: store, path: path, storeName: "tally", detail: .everyChange)
        store.dispatch(.add(amount: 1))
        store.dispatch(.add(amount: 10))
        store.dispatch(.double)
        recorder.stop()

        let session = try HostedFixtures.session()
        session.run("inspect \(path)")
        #expect(try session.value("state tally").isIdentical(to: ["total": 22, "log": []]))
        try session.expectSkip("skip tally 2", 2, skipped: true, changing: 2)
        #expect(try session.value("state tally").isIdentical(to: ["total": 2, "log": []]))
    }

    @Test func exportAndImportOfDevToolsWorkOnHostedStores() throws {
        let directory = TemporaryDirectory()
        let session = try HostedFixtures.session()
        session.run("dispatch tally add {amount: 4}\ndispatch tally double")
        #expect(session.run("export devtools tally \(directory.path)/t.json") == ["exported 2 actions of tally to \(directory.path)/t.json"])
        let other = try HostedFixtures.session()
        other.run("import devtools \(directory.path)/t.json tally")
        #expect(try other.value("state tally").isIdentical(to: ["total": 8, "log": []]))
        expectStep(try other.step("dispatch tally add {amount: 1}"), 3, "add", [.at("total", from: 8, to: 9)])

        // The file holds the actions as the middleware let them through: a store with the app's
        // middleware would see them a second time, so the import is refused and changes nothing.
        let passing = Middleware<Tally, TallyAction> { action, _ in action }
        let guarded = try HostedFixtures.session([HostedFixtures.tally(middleware: [passing])])
        let refused = guarded.run("import devtools \(directory.path)/t.json tally")
        #expect(refused.first?.contains("tally has the app's middleware, which would see the imported actions a second time") == true)
        #expect(guarded.run("state tally\nhistory tally") == ["{total: 0, log: []}", ">  #0 (initial state)"])
    }
}

@Suite("history recompute")
struct HistoryRecomputeTests {
    @Test func aChangedShellReducerRecomputesTheWholeHistory() throws {
        let session = DataflowSession()
        session.run("store app = {n: 0}\nreducer app on Add : state.n += action.by")
        session.run("dispatch app Add {by: 1}\ndispatch app Add {by: 10}\ndispatch app Other\nskip app 2")
        #expect(session.run("history recompute app") == ["recomputed 3 actions of app with its reducers as they are now: 0 states changed"])
        // The reducer changes: Add now adds twice as much.
        session.run("reducer rm r1\nreducer app on Add : state.n += action.by * 2")
        #expect(session.run("history recompute") == [
            "recomputed 3 actions of app with its reducers as they are now: 3 states changed, the first at #1:", "n: 1 → 2",
        ])
        #expect(try session.value("state").isIdentical(to: ["n": 2]))
        // The skipped action stays skipped; unskipping it runs the new reducer.
        try session.expectSkip("unskip 2", 2, skipped: false, changing: 2)
        #expect(try session.value("state").isIdentical(to: ["n": 22]))
    }

    @Test func aRecomputeIsRecordedSoThatInspectAndReplayAgree() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/recompute.jsonl"
        let session = DataflowSession()
        session.run("record \(path)\nstore app = {n: 0}\nreducer app on Add : state.n += action.by")
        session.run("dispatch app Add {by: 1}\ndispatch app Add {by: 10}\nreducer rm r1\nreducer app on Add : state.n -= action.by")
        session.run("history recompute\njump 1\nrecord stop")
        let live = session.run("history app") + session.run("state")
        let inspector = DataflowSession()
        inspector.run("inspect \(path)")
        #expect(inspector.run("history app") + inspector.run("state") == live)
        let replayer = DataflowSession()
        #expect(replayer.run("replay \(path) --verify").last?.hasPrefix("verified") == true)
        #expect(replayer.run("history app") + replayer.run("state") == live)
    }

    @Test func aHostedStoreRecomputesThroughTheAppsReducer() throws {
        let session = try HostedFixtures.session()
        session.run("dispatch tally add {amount: 1}\ndispatch tally double")
        #expect(session.run("history recompute tally") == ["recomputed 2 actions of tally with its reducers as they are now: 0 states changed"])
    }

    @Test func aStoreWithoutReducersCannotRecompute() {
        let session = DataflowSession()
        session.run("store app = {n: 0}")
        #expect(session.error("history recompute app").contains("app has no reducers"))
    }
}

/// The app's state before it had `log`: recordings made with it do not decode as `Tally`.
struct TallyBefore: Codable { var total = 0 }
/// The app's actions before `double` replaced `triple`.
enum TallyActionBefore: Codable { case add(amount: Int), triple }

/// Files made with other types than the hosted store's: they open, but the app's reducer is never
/// run over what it cannot decode, and a command that would do it refuses and changes nothing.
@Suite("Hosted stores: recordings and imports made with other types")
struct HostedStoreForeignTypesTests {
    static func recordBefore(in directory: TemporaryDirectory) throws -> String {
        let path = directory.path + "/before.jsonl"
        let store = Store(initialState: TallyBefore(), reducer: Reducer { (state: inout TallyBefore, action: TallyActionBefore) in
            if case .add(let amount) = action { state.total += amount }
        })
        let recorder = try Recorder(store: store, path: path, storeName: "tally", detail: .everyChange)
        for amount in [1, 10, 100] { store.dispatch(.add(amount: amount)) }
        recorder.stop()
        return path
    }

    /// Before, `skip` said "2 states changed" and `history recompute` "3 states changed" while
    /// every step became "failed: the state does not decode as Tally" and the recorded states were
    /// gone; `inspect` said nothing and `replay` failed at every step.
    @Test func statesThatDoNotDecodeInspectWithAWarningAndNothingRecomputesThem() throws {
        let directory = TemporaryDirectory()
        let path = try Self.recordBefore(in: directory)
        let session = try HostedFixtures.session()
        let inspected = session.run("inspect \(path)")
        #expect(inspected.count == 2, "\(inspected)")
        #expect(inspected.last?.hasPrefix("warning: line 2: the recorded state of tally does not decode as Tally, the app's state (log") == true)
        #expect(inspected.last?.contains("the app's reducer cannot run on them: skip, unskip and history recompute refuse") == true)
        let history = session.run("history tally")
        #expect(history.count == 4)

        let skip = session.error("skip tally 2")
        #expect(skip.hasPrefix("error: action 3 of tally (add) cannot run through its reducer again: the state does not decode as Tally: log"), "\(skip)")
        #expect(skip.hasSuffix("; nothing changed"))
        let recompute = session.error("history recompute tally")
        #expect(recompute.hasPrefix("error: action 1 of tally (add) cannot run through its reducer again: the state does not decode as Tally"))
        #expect(session.run("history tally") == history)
        #expect(try session.value("state tally").isIdentical(to: ["total": 111]))
        // Time travel over the recorded states still works; the reducer refuses them one line at a time.
        try session.expectJump("jump tally 1", "tally", 1, of: 3, ["total": 1])
        #expect(session.error("dispatch tally double").hasPrefix("error: the state does not decode as Tally"))
        #expect(session.run("history tally").count == 4)

        // A replay would run the reducer on them: it is refused before the session starts over.
        let replayer = try HostedFixtures.session()
        replayer.run("dispatch tally add {amount: 5}")
        let refusal = replayer.error("replay \(path) --force --verify")
        #expect(refusal.hasPrefix("error: \(path): line 2: the recorded state of tally does not decode as Tally, the app's state (log"), "\(refusal)")
        #expect(refusal.hasSuffix("so the app's reducer cannot replay it; open it with 'inspect \(path)'"))
        #expect(try replayer.value("state tally").isIdentical(to: ["total": 5, "log": []]))
        #expect(replayer.run("history tally").count == 2)
    }

    /// Before, the steps after the skipped one were marked failed ("no action type 'triple'")
    /// and the count of changed states was printed as a success.
    @Test func actionsThatDoNotDecodeAreNamedAndNeverRunAgain() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/actions.jsonl"
        let store = Store(initialState: Tally(), reducer: Reducer { (state: inout Tally, action: TallyActionBefore) in
            switch action {
            case .add(let amount): state.total += amount
            case .triple: state.total *= 3
            }
        })
        let recorder = try Recorder(store: store, path: path, storeName: "tally", detail: .everyChange)
        store.dispatch(.add(amount: 1))
        store.dispatch(.triple)
        store.dispatch(.add(amount: 2))
        recorder.stop()

        let session = try HostedFixtures.session()
        let inspected = session.run("inspect \(path)")
        #expect(inspected.last?.hasPrefix("warning: line 4: action #2 of tally does not decode as one of the app's actions (") == true, "\(inspected)")
        #expect(inspected.last?.contains("'triple'") == true)
        let history = session.run("history tally")
        let skip = session.error("skip tally 1")
        #expect(skip.hasPrefix("error: action 2 of tally (triple) cannot run through its reducer again: "), "\(skip)")
        #expect(skip.contains("'triple'"))
        #expect(session.error("history recompute tally").hasPrefix("error: action 2 of tally (triple) cannot run through its reducer again: "))
        #expect(session.run("history tally") == history)
        #expect(try session.value("state tally").isIdentical(to: ["total": 5, "log": []]))
        // Skipping the action that does not decode runs only those that do.
        #expect(session.outcome("skip tally 2").status == .success)
        #expect(try session.value("state tally").isIdentical(to: ["total": 3, "log": []]))
    }

    /// A recording through reflection says, as the recorder promises, that it cannot be replayed;
    /// under a hosted store's name, that its states do not decode, and `skip` refuses.
    @Test func aRecordingThroughReflectionUnderAHostedNameSaysWhatItCannotDo() throws {
        final class Handle { var id = 1 }
        struct Reflected { var total = 0; var handle = Handle() }
        let directory = TemporaryDirectory()
        let path = directory.path + "/reflected.jsonl"
        let recorder = try Recorder<Reflected, TallyAction>(path: path, storeName: "tally", reflecting: Reflected(), detail: .everyChange)
        recorder.record(.add(amount: 1), state: Reflected(total: 1))
        recorder.record(.add(amount: 2), state: Reflected(total: 3))
        recorder.stop()

        let session = try HostedFixtures.session()
        let inspected = session.run("inspect \(path)")
        try #require(inspected.count == 3, "\(inspected)")
        #expect(inspected[1] == "warning: \(path) was recorded through reflection (a state that is not Codable): it inspects fully, "
            + "but it cannot be replayed, and no reducer can recompute its states")
        #expect(inspected[2].hasPrefix("warning: line 2: the recorded state of tally does not decode as Tally"))
        let history = session.run("history tally")
        #expect(session.error("skip tally 1").hasPrefix("error: action 2 of tally (add) cannot run through its reducer again: "))
        #expect(session.run("history tally") == history)
    }

    /// Before, a preloadedState without `log` was imported and every later dispatch failed, and
    /// an action that did not decode printed "(1 failed)" with the error never shown.
    @Test func anImportThatDoesNotDecodeIsRefusedNamingWhatAndChangesNothing() throws {
        let directory = TemporaryDirectory()
        let state = directory.write("state.json", #"{"payload": "[{\"type\":\"add\",\"amount\":1}]", "preloadedState": "{\"total\":0}"}"#)
        let actions = directory.write("actions.json",
            #"{"payload": "[{\"type\":\"add\",\"amount\":1},{\"type\":\"triple\"},{\"type\":\"double\"}]", "preloadedState": "{\"total\":0,\"log\":[]}"}"#)
        let session = try HostedFixtures.session()
        session.run("dispatch tally add {amount: 4}")
        let before = session.run("history tally") + session.run("state tally")

        let badState = session.error("import devtools \(state) tally --force")
        #expect(badState.hasPrefix("error: \(state): the file's preloadedState does not decode as Tally, the state of the app's store tally: log"), "\(badState)")
        #expect(badState.hasSuffix("; nothing was imported"))
        let badAction = session.error("import devtools \(actions) tally --force")
        #expect(badAction.hasPrefix("error: \(actions): action 2 (triple) does not decode as one of the actions of the app's store tally: "), "\(badAction)")
        #expect(badAction.contains("'triple'"))
        #expect(badAction.hasSuffix("; nothing was imported"))
        #expect(session.run("history tally") + session.run("state tally") == before)
        expectStep(try session.step("dispatch tally double"), 2, "double", [.at("total", from: 4, to: 8)])
    }

    /// Before, any dispatch made `inspect` refuse with "this one holds 1 node; 'save FILE' or
    /// 'reset' first", and `save` leaves the hosted store out; a committed history (no steps, a
    /// state that is not the initial one) was dropped without a word.
    @Test func aFreshSessionIsRefusedOnlyWhenAHostedStoreHoldsSomethingAndSaysHowToKeepIt() throws {
        let directory = TemporaryDirectory()
        let other = try HostedStoreRecordingTests.record("dispatch tally add {amount: 1}", in: directory)
        let session = try HostedFixtures.session()
        #expect(session.outcome("inspect \(other)").status == .success)
        session.run("reset")
        session.run("dispatch tally add {amount: 2}\ndispatch tally double")
        let refusal = session.error("inspect \(other)")
        #expect(refusal == "error: inspect: it starts a fresh session, where the app's stores start again at their initial states, and this one "
            + "holds the history of tally (2 steps); 'record FILE' then 'record stop' keeps it all ('replay FILE' brings it back), or add --force")
        session.run("var seen = 1")
        #expect(session.error("replay \(other)").contains("this one holds 1 node and the history of tally (2 steps); 'record FILE' then"))

        // What the refusal advises keeps it.
        let kept = session.run("history tally") + session.run("state tally")
        session.run("record \(directory.path)/keep.jsonl\nrecord stop")
        session.run("replay \(directory.path)/keep.jsonl --force")
        #expect(session.run("history tally") + session.run("state tally") == kept)
        #expect(session.run("show seen").first?.contains("1") == true)

        // A committed history has no steps, but its state is not the app's initial one.
        session.run("reset\ndispatch tally add {amount: 3}\nhistory commit tally")
        #expect(session.error("inspect \(other)").contains("this one holds a state of tally other than its initial state;"))
        session.run("reset")
        #expect(session.outcome("inspect \(other)").status == .success)
    }
}
