@_spi(Shell) import PatchbayHistory
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayCore
@_spi(Shell) @testable import PatchbayShell
import Testing

// Reading a history as a newcomer does (issue 25): `find` and `blame` bounded like `history`,
// typos answered with the closest name instead of an empty list, `diff` between two branches,
// the chart's step ticks and current step, and `help` for every form it lists.

/// A store `app` with `count` actions `Inc`, each adding 1 to `n`.
private func counted(_ count: Int, json: Bool = false) -> DataflowSession {
    let session = DataflowSession(json: json)
    session.run("store app = {n: 0}\nreducer app on Inc : state.n += 1")
    for _ in 0..<count { _ = session.shell.execute("dispatch Inc") }
    return session
}

/// A cart with two items added and one removed.
private func cart() -> DataflowSession {
    let session = DataflowSession()
    session.run("""
        store cart = {items: [], total: 0}
        reducer cart on AddItem : state.items = append(state.items, action.name); state.total += action.price
        reducer cart on RemoveItem : state.items = removeAt(state.items, 0)
        dispatch AddItem {name: "tea", price: 2}
        dispatch AddItem {name: "milk", price: 3}
        dispatch RemoveItem
        """)
    return session
}

@Suite("find and blame are bounded like history")
struct BoundedFindBlameTests {
    @Test func findShowsTheLast200MatchesAndCountsTheRest() {
        let lines = counted(250).run("find state.n > 0")
        #expect(lines.count == 201)
        #expect(lines.first == "(50 earlier matches not shown; use --first N or --last N)")
        #expect(lines[1] == "#51 Inc")
        #expect(lines.last == "#250 Inc")
    }

    @Test func findTakesFirstOrLast() throws {
        let session = counted(250)
        try expectFound(session, "find --last 2 state.n > 0", [249, 250], before: 248)
        try expectFound(session, "find --first 2 state.n > 0", [1, 2], after: 248)
        try expectFound(session, "find app --first 300 state.n == 3", [3])
        try expectFound(session, "find --last 0 state.n > 0", [], before: 250)
        #expect(session.run("find --last 249 state.n > 0").first == "(1 earlier match not shown)")
        #expect(session.run("blame --first 249 n").last == "(1 later change not shown)")
    }

    @Test func blameShowsTheLast200ChangesAndCountsTheRest() throws {
        let session = counted(250)
        let lines = session.run("blame n")
        #expect(lines.count == 201)
        #expect(lines.first == "(50 earlier changes not shown; use --first N or --last N)")
        #expect(lines.last == "#250 Inc  249 → 250")
        try expectBlamed(session, "blame n --last 1", [250], before: 249)
        try expectBlamed(session, "blame --first 1 n", [1], after: 249)
        try expectBlamed(session, "blame app n --first 1", [1], after: 249)
    }

    @Test func jsonGivesEveryMatchUnlessBounded() {
        let session = counted(250, json: true)
        let find = session.run("find state.n > 0")
        #expect(find.count == 1)
        #expect(find.first?.contains("250]") == true)
        #expect(session.run("find --first 2 state.n > 0") == [#"{"ok":true,"command":"find --first 2 state.n > 0","result":[1,2]}"#])
        #expect(session.run("blame n --last 1") == [
            #"{"ok":true,"command":"blame n --last 1","result":[{"index":250,"action":{"type":"Inc"},"old":249,"new":250}]}"#,
        ])
    }

    @Test func badBoundsAreErrorsAtTheirColumn() throws {
        let session = counted(3)
        #expect(session.run("find --first 1 --last 1 state.n > 0") == [
            "error: give --first or --last, not both; usage: find [STORE] [--first N | --last N] EXPR (see 'help find')"
                + "\n  find --first 1 --last 1 state.n > 0\n                 ^~~~~~",
        ])
        #expect(session.error("blame n --last -1").contains("--last takes a count that is not negative"))
        #expect(session.error("blame n --first").contains("how many changes, after --first"))
        #expect(session.error("find --last x state.n > 0").contains("how many matches, after --last"))
        #expect(try session.value("state").isIdentical(to: ["n": 3]))
    }

    @Test func findAndBlameStopAtCtrlC() {
        for command in ["find state.n > 0", "blame n"] {
            let session = counted(300)
            let interruption = Interruption()
            let outcome = interruption.during { () -> CommandOutcome in
                interruption.request()
                return session.shell.execute(command)
            }
            #expect(outcome.status == .failure, "\(command)")
            #expect(outcome.lines.first?.text.hasPrefix("error: interrupted; nothing changed") == true, "\(command): \(outcome.lines.map(\.text))")
        }
    }
}

@Suite("Typos get suggestions, not empty results")
struct TypoSuggestionShellTests {
    @Test func blameOfAPathNoStateHasNamesTheClosest() throws {
        let session = cart()
        try session.expectError("blame totl", "no path 'totl' in cart's states; did you mean 'total'?", at: 6..<10)
        #expect(session.error("blame cart totl") == "error: no path 'totl' in cart's states; did you mean 'total'?")
        #expect(session.error("blame user.name") == "error: no path 'user.name' in cart's states (keys: items, total)")
        // A path that exists only for a while is blamed as before.
        let item = try session.report("blame items[1]", as: BlameListing.self).blames
        #expect(item.map(\.index) == [2, 3])
        #expect(Value.array(item.map(\.action)).isIdentical(to: [["type": "AddItem", "name": "milk", "price": 3], ["type": "RemoveItem"]]))
        #expect(item.map(\.old) == [nil, "milk"] && item.map(\.new) == ["milk", nil])
        let total = try session.report("blame total", as: BlameListing.self).blames
        #expect(total.map(\.index) == [1, 2])
        #expect(Value.array(total.map(\.action)).isIdentical(to: [["type": "AddItem", "name": "tea", "price": 2], ["type": "AddItem", "name": "milk", "price": 3]]))
        #expect(Value.array(total.compactMap(\.old)).isIdentical(to: [0, 2]) && Value.array(total.compactMap(\.new)).isIdentical(to: [2, 5]))
    }

    @Test func historyPathAndTypeNameTheClosest() throws {
        let session = cart()
        try session.expectError("history --path totl", "no path 'totl' in cart's states; did you mean 'total'?", at: 15..<19)
        try session.expectError("history --type Removeitem", "no action type 'Removeitem' in cart's history; did you mean 'RemoveItem'?", at: 15..<25)
        #expect(session.error("history --not AddIte") == "error: no action type 'AddIte' in cart's history; did you mean 'AddItem'?")
        // A type a reducer handles, never dispatched, matches nothing, as before.
        session.run("reducer cart on Clear : state.items = []")
        let clear = try session.report("history --type Clear", as: HistoryListing.self)
        #expect(clear.entries.isEmpty && clear.filtering && clear.matched == 0 && clear.searched == 3 && !clear.showsInitialState)
    }

    @Test func stateOfAMisspeltKeySuggestsTheClosest() {
        let session = cart()
        let error = session.error("state cart.totl")
        #expect(error.contains("no key 'totl'"), "\(error)")
        #expect(error.contains("did you mean 'total'?"), "\(error)")
    }

    @Test func aStoreThatIsNotThereIsNamedNotAParserError() throws {
        let session = DataflowSession()
        session.run("store app = {n: 0}\nreducer app on Inc : state.n += 1\ndispatch Inc")
        try session.expectError("history cart", "no store 'cart' (stores: app)", at: 8..<12)
        #expect(session.error("history cart --last 2") == "error: no store 'cart' (stores: app)")
        #expect(session.error("history ap") == "error: no store 'ap'; did you mean 'app'? (stores: app)")
        #expect(session.error("jump cart 1") == "error: no store 'cart' (stores: app)")
        #expect(session.error("diff cart 1") == "error: no store 'cart' (stores: app)")
        #expect(session.error("branch cart") == "error: no store 'cart' (stores: app)")
        #expect(session.error("blame cart n") == "error: no store 'cart' (stores: app)")
        #expect(try session.value("state").isIdentical(to: ["n": 1]))
    }
}

@Suite("diff between branches; the chart's ticks and current step")
struct BranchDiffAndChartTests {
    /// `app` with three Inc on main, then back to #1 and two Add {by: 10} on b1.
    private func branched() -> DataflowSession {
        let session = counted(3)
        session.run("reducer app on Add : state.n += action.by\njump 1\ndispatch Add {by: 10}\ndispatch Add {by: 10}")
        return session
    }

    @Test func diffComparesTwoBranchesCurrentStates() throws {
        let session = branched()
        try expectBranches(session)
        try expectDiff(session, "diff main b1", "main", "b1", [.at("n", from: 3, to: 21)])
        try expectDiff(session, "diff app b1 main", "b1", "main", [.at("n", from: 21, to: 3)])
        try expectDiff(session, "diff main main", "main", "main", [])
        try expectDiff(session, "diff main b1 --path n", "main", "b1", [.at("n", from: 3, to: 21)], path: [.key("n")])
        // A branch with a step number is no form of diff.
        try session.expectError("diff main nope", "app has no branch 'nope': its branches are main, b1", at: 10..<14)
        #expect(session.error("diff app main 2").contains("compare steps (diff 2 5) or branches (diff main b1), not a branch with a step"))
        // Nothing moved.
        #expect(try session.value("state").isIdentical(to: ["n": 21]))
        try expectBranches(session)
    }

    @Test func diffOfBranchesInJSONIsTheChanges() {
        let session = counted(3, json: true)
        session.run("jump 1\ndispatch Inc")
        #expect(session.run("diff main b1") == [#"{"ok":true,"command":"diff main b1","result":[{"path":"n","op":"replace","old":3,"new":2}]}"#])
    }

    @Test func theChartHasStepTicksAndMarksTheCurrentStep() throws {
        let session = counted(40)
        session.shell.options.width = 80
        session.run("jump 20")
        let lines = session.run("history --chart n")
        let axis = try #require(lines.first { $0.contains("└") })
        let labels = try #require(lines.firstIndex(of: axis).map { lines[$0 + 1] })
        #expect(axis.contains("┬"), "\(lines)")
        #expect(axis.contains("▲"), "\(lines)")
        // The current step's marker stands above its label's column, as every tick does.
        let marker = try #require(axis.firstIndex(of: "▲")).utf16Offset(in: axis)
        #expect(labels.dropFirst(marker).hasPrefix("#20"), "\(lines)")
        #expect(labels.contains("#0") && labels.contains("#10"), "\(labels)")
        #expect(lines.last?.hasSuffix("▲ #20 (current): 20") == true, "\(lines)")
        let spark = session.run("history --chart n --spark")
        #expect(spark.last?.hasSuffix("▲ #20 (current): 20") == true, "\(spark)")
        #expect(spark.contains { $0.contains("▲") && !$0.contains("current") }, "\(spark)")
    }

    @Test func theChartInJSONSaysTheCurrentStep() {
        let session = counted(3, json: true)
        session.run("jump 2")
        #expect(session.run("history --chart n").first?.contains(#""current":2"#) == true)
    }
}

@Suite("help for every form help lists")
struct HelpFormsTests {
    @Test func helpPatchTypesShowsThatForm() {
        let session = DataflowSession()
        let lines = session.run("help patch types")
        #expect(lines.first?.hasPrefix("error") == false, "\(lines)")
        #expect(lines.contains { $0.contains("patch types") }, "\(lines)")
        // A patch type's own help stays.
        #expect(session.run("help patch counter").first?.hasPrefix("error") == false)
    }

    @Test func everyFormOfEveryCommandHasHelp() {
        let session = DataflowSession()
        var checked = 0
        for info in CommandCatalog.commands {
            for word in Help.subcommands(of: info.name) {
                let outcome = session.shell.execute("help \(info.name) \(word)")
                #expect(outcome.status != .failure, "help \(info.name) \(word): \(outcome.lines.map(\.text))")
                checked += 1
            }
            #expect(session.shell.execute("help \(info.name)").status != .failure, "help \(info.name)")
        }
        for topic in ["functions", "values"] {
            #expect(session.shell.execute("help \(topic)").status != .failure)
        }
        #expect(checked > 20)
    }
}

/// Runs a `find` and checks the matches it shows by step, each an `Inc`, and how many it leaves out before and after.
private func expectFound(_ session: DataflowSession, _ command: String, _ indices: [Int], before: Int = 0, after: Int = 0,
                         sourceLocation: SourceLocation = #_sourceLocation) throws {
    let found = try session.report(command, as: FoundStates.self, sourceLocation: sourceLocation)
    #expect(found.matches.map(\.index) == indices, sourceLocation: sourceLocation)
    #expect(found.matches.allSatisfy { $0.action?.isIdentical(to: ["type": "Inc"]) == true }, sourceLocation: sourceLocation)
    #expect(found.hiddenBefore == before && found.hiddenAfter == after && found.boundGiven, sourceLocation: sourceLocation)
}

/// Runs a `blame` of `n`, which goes up by one an `Inc`, and checks the changes it shows by step and how many it
/// leaves out before and after.
private func expectBlamed(_ session: DataflowSession, _ command: String, _ indices: [Int], before: Int = 0, after: Int = 0,
                          sourceLocation: SourceLocation = #_sourceLocation) throws {
    let blame = try session.report(command, as: BlameListing.self, sourceLocation: sourceLocation)
    #expect(blame.blames.map(\.index) == indices, sourceLocation: sourceLocation)
    #expect(blame.blames.allSatisfy { $0.action.isIdentical(to: ["type": "Inc"]) && $0.old?.isIdentical(to: .int($0.index - 1)) == true
        && $0.new?.isIdentical(to: .int($0.index)) == true }, sourceLocation: sourceLocation)
    #expect(blame.hiddenBefore == before && blame.hiddenAfter == after && blame.boundGiven, sourceLocation: sourceLocation)
}

/// Checks `branch`: main and b1 of 3 actions each, b1 current, forked from main at #1.
private func expectBranches(_ session: DataflowSession, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let branches = try session.report("branch", as: BranchListing.self, sourceLocation: sourceLocation).branches
    #expect(branches.map(\.name) == ["main", "b1"] && branches.map(\.count) == [3, 3] && branches.map(\.isCurrent) == [false, true],
            sourceLocation: sourceLocation)
    #expect(branches.map(\.forkedFrom) == [nil, "main"] && branches.map(\.forkIndex) == [nil, 1], sourceLocation: sourceLocation)
}

/// Runs a `diff` of two branches and checks what it compared and the changes.
private func expectDiff(_ session: DataflowSession, _ command: String, _ from: String, _ to: String, _ changes: [ValueChange],
                        path: [ValueChange.PathComponent]? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let diff = try session.report(command, as: StateDiff.self, sourceLocation: sourceLocation)
    #expect(diff.from == from && diff.to == to && diff.path == path, sourceLocation: sourceLocation)
    #expect(diff.changes.isIdentical(to: changes), "\(diff.changes)", sourceLocation: sourceLocation)
}
