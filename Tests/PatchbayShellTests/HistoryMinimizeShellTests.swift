import Foundation
@_spi(Shell) @testable import PatchbayCore
@_spi(Shell) @testable import PatchbayGraph
@_spi(Shell) @testable import PatchbayHistory
@_spi(Shell) @testable import PatchbayShell
import PatchbayTestSupport
import Testing

/// `history minimize`: a history shrunk to the actions that make it fail, on a store whose
/// `Fire` fails once both `ArmA` and `ArmB` ran, among `Noise`.
@Suite("history minimize")
struct HistoryMinimizeShellTests {
    static let definitions = [
        "store app = {a: false, b: false, n: 0}",
        "reducer app on Noise : state.n += action.k",
        "reducer app on ArmA : state.a = true",
        "reducer app on ArmB : state.b = true",
        "reducer app on Fire when state.a && state.b : state.n = 1 / 0",
    ]

    /// A shell with the store and its reducers.
    static func shell() -> Shell {
        let shell = Shell.scratch()
        for line in definitions { #expect(shell.reply(to: line)?.error == nil, "\(line)") }
        return shell
    }

    /// A seeded history of `count` actions: `Noise` and a `Fire` now and then, with one `ArmA`
    /// and one `ArmB` at random places; the indices (1-based) of the arms and of the fires.
    static func randomHistory(count: Int, seed: UInt64) -> (shell: Shell, armA: Int, armB: Int, fires: [Int]) {
        var random = SplitMix64(seed: seed)
        let shell = shell()
        let arms = (1...count).shuffled(using: &random).prefix(2)
        var fires: [Int] = []
        for index in 1...count {
            let command: String
            if index == arms.first {
                command = "dispatch app ArmA"
            } else if index == arms.last {
                command = "dispatch app ArmB"
            } else if Int.random(in: 0..<20, using: &random) == 0 {
                command = "dispatch app Fire"
                fires.append(index)
            } else {
                command = "dispatch app Noise {k: \(Int.random(in: 1...9, using: &random))}"
            }
            _ = shell.reply(to: command)
        }
        return (shell, arms.first!, arms.last!, fires)
    }

    /// The store's history and state, to compare before and after a command.
    static func snapshot(_ shell: Shell) throws -> (entries: [StoreStep<ValueChange>], current: Int, state: Value, branches: Int) {
        let history = try shell.histories.history(of: "app").history
        let entries = history.count == 0 ? [] : try history.entries(1...history.count)
        return (entries, history.current, try shell.graph.storeState("app"), history.branches.count)
    }

    static func expectUnchanged(_ shell: Shell, since before: (entries: [StoreStep<ValueChange>], current: Int, state: Value, branches: Int),
                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        let after = try snapshot(shell)
        #expect(after.entries == before.entries, sourceLocation: sourceLocation)
        #expect(after.current == before.current, sourceLocation: sourceLocation)
        #expect(after.state == before.state, sourceLocation: sourceLocation)
        #expect(after.branches == before.branches, sourceLocation: sourceLocation)
    }

    /// Whether dispatching `actions` to a fresh store fails at some step.
    static func fails(_ actions: [Value]) -> Bool {
        let shell = shell()
        return actions.contains { action in shell.reply(to: "dispatch app " + Shell.dispatchable(action))?.error != nil }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func aSeededHistoryShrinksToTheThreeActionsThatMakeItFail(seed: UInt64) throws {
        let (shell, armA, armB, fires) = Self.randomHistory(count: 300, seed: seed)
        let firing = fires.filter { $0 > max(armA, armB) }
        try #require(!firing.isEmpty, "the seed arms both before a fire")
        let before = try Self.snapshot(shell)
        let minimized = try shell.report("history minimize app", as: MinimizedHistory.self)
        let kept = minimized.steps.map(\.index)
        #expect(kept.count == 3)
        #expect(kept.contains(armA) && kept.contains(armB))
        #expect(kept.last.map(firing.contains) == true, "the last is a fire after both arms: \(kept)")
        #expect(minimized.isMinimal)
        #expect(minimized.runs <= 2_000)
        #expect(minimized.actions == 300)
        #expect(minimized.steps.last?.fails == true)
        #expect(minimized.steps.last?.failure?.contains("division by zero") == true)
        #expect(minimized.steps.first?.changes.isEmpty == false, "each arm shows what it changes")
        try Self.expectUnchanged(shell, since: before)

        // 1-minimal, checked by dispatching in a fresh store: all of them fail, any two pass.
        let actions = minimized.steps.map(\.action)
        #expect(Self.fails(actions))
        for removed in actions.indices {
            var without = actions
            without.remove(at: removed)
            #expect(!Self.fails(without), "without #\(kept[removed]) it passes")
        }
    }

    @Test func aBudgetThatRunsOutShowsTheSmallestFailingSequenceFoundAndSaysItMayNotBeMinimal() throws {
        let (shell, armA, armB, _) = Self.randomHistory(count: 300, seed: 1)
        let before = try Self.snapshot(shell)
        let minimized = try shell.report("history minimize app --budget 4", as: MinimizedHistory.self)
        #expect(!minimized.isMinimal)
        #expect(minimized.runs == 4)
        #expect(minimized.budget == 4)
        let kept = minimized.steps.map(\.index)
        #expect(kept.contains(armA) && kept.contains(armB))
        #expect(kept.count < 300)
        #expect(Self.fails(minimized.steps.map(\.action)))
        #expect(minimized.lines(in: OutputStyle(limit: nil, color: false, width: 0)).first?.contains("may not be minimal") == true)
        try Self.expectUnchanged(shell, since: before)
    }

    @Test func ctrlCStopsItAndNothingChanges() throws {
        let (shell, _, _, _) = Self.randomHistory(count: 300, seed: 2)
        let before = try Self.snapshot(shell)
        let interruption = Interruption()
        shell.progressDelay = .zero
        var shown: [String?] = []
        shell.progressHandler = { line in
            shown.append(line)
            if line != nil { interruption.request() }
        }
        let reply = interruption.during { shell.reply(to: "history minimize app") }
        #expect(reply?.error?.reason == .interrupted)
        #expect(shown.first??.hasPrefix("history minimize: ") == true, "\(shown)")
        #expect(shown.first??.hasSuffix(" of 2000 runs (Ctrl-C stops)") == true, "\(shown)")
        try Self.expectUnchanged(shell, since: before)
    }

    @Test func untilShrinksToTheActionsThatMakeTheConditionHold() throws {
        let (shell, armA, armB, _) = Self.randomHistory(count: 200, seed: 3)
        let before = try Self.snapshot(shell)
        let minimized = try shell.report("history minimize app --until state.a && state.b", as: MinimizedHistory.self)
        #expect(minimized.steps.map(\.index) == [armA, armB].sorted())
        #expect(minimized.criterion == .until("state.a && state.b"))
        #expect(minimized.isMinimal)
        try Self.expectUnchanged(shell, since: before)
    }

    @Test func divergesFindsTheStepThatTheReducersNowChangeAndWhatItMet() throws {
        let shell = Shell.scratch()
        for line in ["store app = {v: 0}", "reducer app on Set : state.v = action.v"]
            + [1, 2, 5, 13, 4].map({ "dispatch app Set {v: \($0)}" }) {
            #expect(shell.reply(to: line)?.error == nil, "\(line)")
        }
        // Unchanged reducers do what they recorded.
        let unchanged = try shell.shellError("history minimize app --diverges")
        #expect(unchanged.message.contains("the history does not fail: nothing to minimize"), "\(unchanged.message)")

        #expect(shell.reply(to: "reducer app on Set when action.v == 13 : state.v = 0")?.error == nil)
        let before = try Self.snapshot(shell)
        let minimized = try shell.report("history minimize app --diverges", as: MinimizedHistory.self)
        // #4 recorded v: 5 → 13 and now makes 0: it needs #3, which set 5, to meet what it met.
        #expect(minimized.steps.map(\.index) == [3, 4])
        #expect(minimized.steps.last?.recorded?.map(\.new) == [.int(13)])
        #expect(minimized.steps.last?.changes.map(\.new) == [.int(0)])
        #expect(minimized.isMinimal)
        try Self.expectUnchanged(shell, since: before)
    }

    @Test func itWritesTheKeptActionsAsARecordingThatReplayVerifies() throws {
        let (shell, _, _, _) = Self.randomHistory(count: 300, seed: 1)
        let directory = TemporaryDirectory()
        let path = directory.path + "/smallest.jsonl"
        let minimized = try shell.report("history minimize app --to \(path)", as: MinimizedHistory.self)
        #expect(minimized.file == path)
        let fresh = Shell.scratch()
        let replayed = try fresh.report("replay \(path) --verify", as: ReplayFinished.self)
        #expect(replayed.verified)
        let history = try fresh.histories.history(of: "app").history
        #expect(try history.entries(1...history.count).map(\.action) == minimized.steps.map(\.action))

        // An existing file is refused without --force, at its name, before the search.
        let refused = try shell.shellError("history minimize app --to \(path)")
        #expect(refused.message.contains("the file exists; add --force"), "\(refused.message)")
        #expect(refused.range == "history minimize app --to ".utf8.count..<"history minimize app --to \(path)".utf8.count)
        #expect(try shell.report("history minimize app --to \(path) --force", as: MinimizedHistory.self).file == path)
    }

    @Test func itsJSONHoldsTheKeptActionsAndTheRuns() throws {
        let (shell, armA, armB, _) = Self.randomHistory(count: 100, seed: 1)
        let json = try shell.report("history minimize app --until state.a && state.b", as: MinimizedHistory.self).json
        #expect(json["store"] == "app")
        #expect(json["failure"] == "until")
        #expect(json["minimal"] == true)
        guard case .array(let kept)? = json["kept"] else { Issue.record("no kept array: \(json)"); return }
        #expect(kept.map { $0["index"] } == [armA, armB].sorted().map { .int($0) })
    }

    @Test(arguments: [
        ("history minimize cart", "cart"),
        ("history minimize app --until state.n >", ""),
        ("history minimize app --until state.n", "state.n"),
        ("history minimize app --budget 1", "1"),
        ("history minimize app --until stat.n > 1", "stat"),
        ("history minimize app --force", "--force"),
        ("history minimize app --fails --diverges", "--diverges"),
        ("history minimize app --sideways", "--sideways"),
    ])
    func badInputIsAOneLineErrorAtItsColumn(command: String, pointsAt: String) throws {
        let shell = Self.shell()
        _ = shell.reply(to: "dispatch app Noise {k: 1}")
        let error = try shell.shellError(command)
        #expect(!error.message.contains("\n"), "\(error.message)")
        if !pointsAt.isEmpty {
            let start = try #require(command.range(of: pointsAt, options: .backwards)).lowerBound.utf16Offset(in: command)
            #expect(error.range.lowerBound == start, "\(command): \(error.message) at \(error.range)")
        }
    }

    @Test func aHistoryThatDoesNotFailHasNothingToMinimize() throws {
        let shell = Self.shell()
        let empty = try shell.shellError("history minimize app")
        #expect(empty.message.contains("the history does not fail: nothing to minimize"), "\(empty.message)")
        for line in ["dispatch app Noise {k: 1}", "dispatch app ArmA", "dispatch app Fire"] { _ = shell.reply(to: line) }
        let passing = try shell.shellError("history minimize app")
        #expect(passing.message.contains("the history does not fail: nothing to minimize"), "\(passing.message)")
        let already = try shell.shellError("history minimize app --until state.n == 0")
        #expect(already.message.contains("already holds in app's initial state"), "\(already.message)")
    }
}

/// `history minimize` on an app's store: the app's Swift reducer runs each try.
@Suite("history minimize: hosted stores")
struct HostedHistoryMinimizeTests {
    @Test func untilShrinksAHostedStoresHistoryThroughTheAppsReducer() throws {
        let session = try HostedFixtures.session()
        for command in ["dispatch tally add {amount: 3}", #"dispatch tally note {_0: "hi"}"#, "dispatch tally add {amount: 1}",
                        "dispatch tally double", "dispatch tally add {amount: 2}"] {
            _ = try session.step(command)
        }
        let history = try session.shell.histories.history(of: "tally").history
        let before = try history.entries(1...history.count)
        let minimized = try session.shell.report("history minimize tally --until state.total >= 8", as: MinimizedHistory.self)
        // (3 + 1) * 2 or 3 * 2 + 2: three actions either way, none of them the note.
        #expect(minimized.steps.count == 3)
        #expect(minimized.steps.allSatisfy { $0.action["type"] != "note" })
        #expect(minimized.isMinimal)
        #expect(try history.entries(1...history.count) == before)
        #expect(try session.value("state tally").isIdentical(to: ["total": 10, "log": ["hi"]]))
    }

    @Test func divergesFindsTheStepThatAChangedAppReducerNoLongerAgreesWith() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/tally.jsonl"
        let recorded = try HostedFixtures.session()
        recorded.run("record \(path)")
        for command in ["dispatch tally add {amount: 3}", #"dispatch tally note {_0: "hi"}"#, "dispatch tally add {amount: 1}",
                        "dispatch tally double", "dispatch tally add {amount: 2}"] {
            _ = try recorded.step(command)
        }
        recorded.run("record stop")

        // The app rebuilt with `double` adding 1: its recording no longer agrees at #4.
        let rebuilt = try HostedFixtures.session([HostedFixtures.tally(doublingAdds: 1)])
        _ = try rebuilt.shell.report("inspect \(path)", as: Inspected.self)
        let minimized = try rebuilt.shell.report("history minimize tally --diverges", as: MinimizedHistory.self)
        // #4 met total 4, which #1 and #3 make.
        #expect(minimized.steps.map(\.index) == [1, 3, 4])
        #expect(minimized.steps.last?.recorded?.map(\.new) == [.int(8)])
        #expect(minimized.steps.last?.changes.map(\.new) == [.int(5)])
    }
}
