@_spi(Shell) @testable import PatchbayShell
@_spi(Shell) import PatchbayCore
import Testing

// `history` filters as Redux DevTools' action filter has them (issue 16): --grep, --not,
// --failed, --skipped, --from/--to, with --type, --path and --last; they combine with AND.

/// A store with six actions of every kind:
///
///        #0 (initial state)
///        #1 Add {by: 2}  count, log[0]
///        #2 Rename {name: "Milk Bar"}  name
///      ! #3 Boom  failed: r3: division by zero in '1 / 0'
///      ~ #4 Add {by: 3}  (skipped)
///        #5 Tick  (no changes)
///     >  #6 Rename {name: "milk shop"}  name
private func store(json: Bool = false) -> DataflowSession {
    let session = DataflowSession(json: json)
    session.run("""
        store app = {count: 0, log: [], name: ""}
        reducer app on Add : state.count += action.by
        reducer app on Add : state.log = append(state.log, action.by)
        reducer app on Boom : state.count = 1 / 0
        reducer app on Rename : state.name = action.name
        dispatch app Add {by: 2}
        dispatch app Rename {name: "Milk Bar"}
        dispatch app Boom
        dispatch app Add {by: 3}
        dispatch app Tick
        dispatch app Rename {name: "milk shop"}
        skip 4
        """)
    return session
}

/// The fixture's actions as their history lines show them: the action, the paths it changed,
/// whether it is skipped, why it failed.
private let fixture: [Int: (action: Value, paths: [String], skipped: Bool, failure: String?)] = [
    1: (["type": "Add", "by": 2], ["count", "log[0]"], false, nil),
    2: (["type": "Rename", "name": "Milk Bar"], ["name"], false, nil),
    3: (["type": "Boom"], [], false, "r3: division by zero in '1 / 0'"),
    4: (["type": "Add", "by": 3], [], true, nil),
    5: (["type": "Tick"], [], false, nil),
    6: (["type": "Rename", "name": "milk shop"], ["name"], false, nil),
]

/// Runs `command`, a `history` of the fixture, and checks the listing as values: the entries by
/// index, each as the fixture has it, #6 current; whether #0 is shown; and, with a filter or a
/// range, how many actions matched of how many searched, and the range.
private func expectListing(_ session: DataflowSession, _ command: String, _ indices: [Int], initial: Bool = false,
                           matched: Int? = nil, of searched: Int? = nil, span: (Int, Int)? = nil,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
    let history = try session.report(command, as: HistoryListing.self, sourceLocation: sourceLocation)
    #expect(history.entries.map(\.index) == indices, sourceLocation: sourceLocation)
    #expect(history.showsInitialState == initial && history.current == 6 && history.branch == nil, sourceLocation: sourceLocation)
    for entry in history.entries {
        let expected = try #require(fixture[entry.index], sourceLocation: sourceLocation)
        #expect(entry.action.isIdentical(to: expected.action) && entry.changes.map(\.pathText) == expected.paths
                && entry.skipped == expected.skipped && entry.failure == expected.failure, "#\(entry.index)", sourceLocation: sourceLocation)
    }
    #expect(history.filtering == (matched != nil), sourceLocation: sourceLocation)
    if let matched { #expect(history.matched == matched && history.searched == searched, sourceLocation: sourceLocation) }
    #expect(history.span?.from == span?.0 && history.span?.to == span?.1, sourceLocation: sourceLocation)
    #expect(history.lastGiven == command.contains("--last"), sourceLocation: sourceLocation)
}


@Suite("Time travel: history filters")
struct HistoryFilterShellTests {
    @Test func withoutAFilterTheListIsAsBefore() throws {
        let session = store()
        try expectListing(session, "history", [1, 2, 3, 4, 5, 6], initial: true)
        try expectListing(session, "history --last 2", [5, 6])
    }

    @Test func grepLooksAtTypeAndPayloadIgnoringCase() throws {
        let session = store()
        try expectListing(session, "history --grep milk", [2, 6], matched: 2, of: 6)
        try expectListing(session, "history --grep ADD", [1, 4], matched: 2, of: 6)
        try expectListing(session, "history --grep 'by: 3'", [4], matched: 1, of: 6)
        try expectListing(session, "history --grep nowhere", [], matched: 0, of: 6)
    }

    @Test func notLeavesOutATypeAndMayRepeat() throws {
        let session = store()
        try expectListing(session, "history --not Rename", [1, 3, 4, 5], matched: 4, of: 6)
        try expectListing(session, "history --not Rename --not Tick --not Add", [3], matched: 1, of: 6)
    }

    @Test func failedAndSkippedKeepThoseActions() throws {
        let session = store()
        try expectListing(session, "history --failed", [3], matched: 1, of: 6)
        try expectListing(session, "history --skipped", [4], matched: 1, of: 6)
        // Filters combine with AND: no action is both.
        try expectListing(session, "history --failed --skipped", [], matched: 0, of: 6)
    }

    @Test func fromAndToTakeStepsAsNumbersHashNumbersOrEnd() throws {
        let session = store()
        try expectListing(session, "history --from 2 --to 4", [2, 3, 4], matched: 3, of: 3, span: (2, 4))
        try expectListing(session, "history --from #5 --to end", [5, 6], matched: 2, of: 2, span: (5, 6))
        try expectListing(session, "history --to #1", [1], initial: true, matched: 1, of: 1, span: (0, 1))
        try expectListing(session, "history --from end", [6], matched: 1, of: 1, span: (6, 6))
        try expectListing(session, "history --to 0", [], initial: true, matched: 0, of: 0, span: (0, 0))
    }

    @Test func filtersCombine() throws {
        let session = store()
        try expectListing(session, "history --grep milk --from 3", [6], matched: 1, of: 4, span: (3, 6))
        try expectListing(session, "history --type Add --path log", [1], matched: 1, of: 6)
        try expectListing(session, "history --not Tick --grep a --to 5", [1, 2, 4], matched: 3, of: 5, span: (0, 5))
        try expectListing(session, "history --skipped --type Add --grep 3", [4], matched: 1, of: 6)
        try expectListing(session, "history --failed --not Boom", [], matched: 0, of: 6)
    }

    @Test func lastListsTheLastThatMatch() throws {
        let session = store()
        try expectListing(session, "history --not Rename --last 2", [4, 5], matched: 4, of: 6)
        try expectListing(session, "history --last 1 --grep milk --to 5", [2], matched: 1, of: 5, span: (0, 5))
        try expectListing(session, "history --grep a --last 0", [], matched: 4, of: 6)
    }

    @Test func aLongFilteredListSaysHowToSeeTheRest() {
        let session = DataflowSession()
        session.run("store app = {n: 0}\nreducer app on Inc : state.n += 1")
        for _ in 0..<205 { session.run("dispatch app Inc") }
        session.run("dispatch app Other")
        let lines = session.run("history --type Inc")
        #expect(lines.first == "205 of 206 actions match (the last 200 shown; use --last N)")
        #expect(lines.count == 201)
        #expect(lines[1] == "   #6 Inc  n")
        #expect(lines.last == "   #205 Inc  n")
    }

    @Test func typeAndPathSayHowManyMatchedToo() throws {
        let session = store()
        try expectListing(session, "history --type Rename", [2, 6], matched: 2, of: 6)
        // A path no state has is an error naming what is there.
        #expect(session.error("history --path user") == "error: no path 'user' in app's states (keys: count, log, name)")
        try expectListing(session, "history --path count --type Rename", [], matched: 0, of: 6)
    }

    @Test func badStepsAreOneLineErrorsAtTheirColumn() throws {
        let session = store()
        let outcome = session.outcome("history --from 9")
        #expect(outcome.status == .failure)
        let synopsis = "history [STORE] [--last N] [--type T] [--not T]... [--grep TEXT] [--failed] [--skipped] [--path P] [--from A] [--to B] [--trace] | "
            + "history [STORE] --chart PATH [--from A] [--to B] [--spark] | history commit | revert | sweep [STORE] [--force] | history recompute [STORE] | "
            + "history minimize [STORE] [--fails | --diverges] [--budget N] [--to FILE [--force]] [--until EXPR] | history router"
        #expect(outcome.lines.map(\.text) == [
            "error: app has steps #0 to #6, not #9; usage: \(synopsis) (see 'help history')\n  history --from 9\n                 ^",
        ])
        #expect(session.error("history --to #7").contains("app has steps #0 to #6, not #7"))
        #expect(session.error("history --from 5 --to 2").contains("--from must not come after --to (#5 > #2)"))
        #expect(session.error("history --from end --to #3").contains("--from must not come after --to (#6 > #3)"))
        #expect(session.error("history --from -1").contains("--from takes a step that is not negative"))
        #expect(session.error("history --to x").contains("expected a step after --to: N, #N or end, found 'x'"))
        #expect(session.error("history --from # 3").contains("expected a step after --from: N, #N or end, found '#'"))
        #expect(session.error("history --from").contains("missing a step after --from"))
        let caret = session.outcome("history --from 5 --to 2").lines.map(\.text).first ?? ""
        #expect(caret.hasSuffix("\n  history --from 5 --to 2\n                 ^~~~~~~~"), "\(caret)")
        try expectListing(session, "history --last 1", [6])
    }

    @Test func badFilterOptionsAreErrors() throws {
        let session = store()
        #expect(session.error("history --grep").contains("missing the text to look for, after --grep"))
        #expect(session.error("history --grep --failed").contains("expected the text to look for, after --grep, found '--failed'"))
        #expect(session.error("history --grep ''").contains("--grep takes a text that is not empty"))
        #expect(session.error("history --not").contains("missing an action type, after --not"))
        #expect(session.error("history --type Add --type Tick").contains("--type is given twice"))
        #expect(session.error("history --failed --failed").contains("--failed is given twice"))
        #expect(session.error("history --chart count --grep a").contains("--chart goes without --last, --type, --not, --grep"))
        #expect(session.error("history --spark").contains("--spark goes with --chart PATH"))
        #expect(session.error("history --color red").contains("unexpected '--color' (options: --last N, --type T, --not T, --grep TEXT"))
        #expect(try session.value("state").isIdentical(to: ["count": 2, "log": [2], "name": "milk shop"]))
    }

    @Test func aChartTakesTheSameSteps() {
        let session = store()
        #expect(session.run("history --chart count --from #1 --to end --spark").first == "app.count from #1 to #6")
        #expect(session.error("history --chart count --from end --to 2").contains("--from must not come after --to (#6 > #2)"))
    }

    /// Filtered or not, the result is the array of the steps; the count line is
    /// for people.
    @Test func jsonIsTheArrayOfTheMatchingSteps() {
        let session = store(json: true)
        #expect(session.run("history --failed --from 2") == [
            #"{"ok":true,"command":"history --failed --from 2","result":[{"index":3,"action":{"type":"Boom"},"changes":[],"skipped":false,"failed":true,"current":false,"failure":"r3: division by zero in '1 / 0'"}]}"#,
        ])
        #expect(session.run("history --last 1") == [
            #"{"ok":true,"command":"history --last 1","result":[{"index":6,"action":{"type":"Rename","name":"milk shop"},"changes":[{"path":"name","op":"replace","old":"Milk Bar","new":"milk shop"}],"skipped":false,"failed":false,"current":true}]}"#,
        ])
        // JSON lists every match: no page limit.
        let line = session.run("history --grep a --last 2").first ?? ""
        #expect(line.hasPrefix(#"{"ok":true,"command":"history --grep a --last 2","result":[{"index":4,"#), "\(line)")
    }

    @Test func aStepWrittenWithAHashIsNotAComment() {
        var assembler = InputAssembler()
        #expect(assembler.add("history --from #3 --to end # the rest") == "history --from #3 --to end ")
        #expect(assembler.add("#3 is a comment at the start of a line") == "")
        #expect(assembler.add("= 1 # one") == "= 1 ")
    }
}

/// `jump`, `diff` and `history --last` on a large state with a long history print what they
/// printed when they formatted, compared and read everything (issue 16): the work is cut to what
/// is shown, not the output.
@Suite("Time travel: output on a large state")
struct LargeStateTimeTravelShellTests {
    static let keys = 1_000
    static let actions = 1_100

    /// The store `app` of `keys` keys at 0, and `actions` actions, action `i` setting key
    /// `k(37 i mod keys)` to `i`.
    static func session() -> DataflowSession {
        let session = DataflowSession()
        session.run("store app = {" + (0..<keys).map { "k\($0): 0" }.joined(separator: ", ") + "}")
        session.run("reducer app on Set : state[action.key] = action.value")
        for index in 1...actions { session.run("dispatch app Set {key: 'k\(index * 37 % keys)', value: \(index)}") }
        return session
    }

    @Test func theLastFewActionsAreTheEndOfTheWholeList() {
        let session = Self.session()
        let whole = session.run("history --last \(Self.actions)")
        #expect(whole.count == Self.actions + 1)
        #expect(whole.first == "   #0 (initial state)")
        for count in [0, 1, 10, 1_023, 1_024, 1_025] {
            #expect(session.run("history --last \(count)") == Array(whole.suffix(count)), "--last \(count)")
        }
        #expect(session.run("history --last 2") == ["   #1099 Set {key: \"k663\", value: 1099}  k663", ">  #1100 Set {key: \"k700\", value: 1100}  k700"])
    }

    /// The values of state `index`, key by key.
    static func state(_ index: Int) -> [Int] {
        var values = Array(repeating: 0, count: keys)
        if index > 0 { for action in 1...index { values[action * 37 % keys] = action } }
        return values
    }

    /// What `jump` prints for state `index`: the state cut after 200 characters.
    static func jumpLine(_ index: Int) -> String {
        let members = state(index).enumerated().map { "k\($0): \($1)" }
        var line = "app at #\(index) of \(actions): {"
        var written = 1
        for (position, member) in members.enumerated() {
            if position > 0 {
                if written >= 200 {
                    line += ", … \(keys - position) more keys"
                    break
                }
                line += ", "
                written += 2
            }
            line += member
            written += member.count
        }
        return line + "}"
    }

    /// What `diff a b` prints: each key whose value differs, in key order.
    static func diffLines(_ a: Int, _ b: Int) -> [String] {
        let (old, new) = (state(a), state(b))
        let lines = (0..<keys).filter { old[$0] != new[$0] }.map { "k\($0): \(old[$0]) → \(new[$0])" }
        return lines.isEmpty ? ["#\(a) → #\(b): no differences"] : lines
    }

    @Test func aJumpShowsTheStateElidedAsBefore() {
        let session = Self.session()
        for index in [2, 600, 1_100, 0] {
            #expect(session.run("jump \(index)") == [Self.jumpLine(index)])
        }
        session.run("set truncate off")
        #expect((session.run("jump 3").first?.count ?? 0) > 8 * Self.keys)
    }

    @Test func diffShowsWhatChangedAsAWholeComparisonDoes() throws {
        let session = Self.session()
        #expect(try session.report("diff", as: StateDiff.self).changes.isIdentical(to: [.at("k700", from: 100, to: 1100)]))
        #expect(try session.report("diff 500", as: StateDiff.self).changes.isIdentical(to: [.at("k500", from: 0, to: 500)]))
        for (a, b) in [(1, 3), (3, 1), (499, 500), (0, 1_100), (1_100, 0), (90, 1_090), (1_050, 1_100), (7, 7)] {
            #expect(session.run("diff \(a) \(b)") == Self.diffLines(a, b), "diff \(a) \(b)")
        }
        session.run("jump 600")
        #expect(session.run("diff") == Self.diffLines(599, 600))
        #expect(session.run("diff 600 602") == Self.diffLines(600, 602))
        #expect(session.run("diff 602 600") == Self.diffLines(602, 600))
    }
}
