import Foundation
@_spi(Shell) import PatchbayShell
import Testing

/// Issue 16: output people can read. One truncation policy for every command, the tree form of
/// `state`, coloured changes, the settings (`set` and the rc file), `history --chart`, and
/// the shell saying when output is long (the terminal side pages it).
@Suite("Readable output: truncation, trees, colours and settings")
struct ReadableOutputTests {
    /// Runs `commands` in one shell with `options`; the output of the last one.
    private func last(_ commands: [String], options: ShellOptions = ShellOptions()) -> CommandOutcome {
        let shell = Shell.scratch(options)
        var outcome = CommandOutcome(status: .empty, lines: [])
        for command in commands { outcome = shell.execute(command) }
        return outcome
    }

    private func text(_ outcome: CommandOutcome) -> [String] {
        outcome.lines.filter { $0.stream == .output }.map(\.text)
    }

    @Test func everyCommandElidesALongValueWithACountOfWhatWasLeftOut() {
        let setup = ["store app = {items: range(10000), name: 'Max'}", "reducer app on Add : state.items = append(state.items, 1)",
                     "dispatch app Add"]
        for command in ["nodes", "state", "jump 0", "show app.state", "= range(10000)"] {
            let lines = text(last(setup + [command]))
            let longest = lines.map(\.count).max() ?? 0
            #expect(longest < ShellSettings.standardTruncation + 80, "\(command) printed a line of \(longest) characters")
            #expect(lines.joined().contains(" more]"), "\(command) did not say what it left out: \(lines)")
        }
        // What was left out is counted: 10000 elements less those shown.
        let line = text(last(setup + ["= range(10000)"]))[0]
        let shown = line.split(separator: ",").count - 1
        #expect(line.hasSuffix("… \(10000 - shown) more]"), "\(line)")
    }

    @Test func aValueThatFitsPrintsWholeInEveryCommand() {
        // `jump` used to cut at 60 characters while `state` printed everything.
        let name = String(repeating: "x", count: 120)
        let lines = text(last(["store app = {name: '\(name)'}", "reducer app on A : state.n = 1", "dispatch app A", "jump 0"]))
        #expect(lines == ["app at #0 of 1: {name: \"\(name)\"}"])
    }

    @Test func aLongStringKeepsItsStartAndCountsTheRest() {
        let lines = text(last(["set truncate 20", "= '\(String(repeating: "ab", count: 50))'"]))
        // The quotes count: 18 characters, then what is left of the 100.
        #expect(lines == ["\"ababababababababab\"… (82 more characters)"])
    }

    @Test func objectsElideTheirKeys() {
        let lines = text(last(["set truncate 20", "= {alpha: 1, beta: 2, gamma: 3, delta: 4, epsilon: 5}"]))
        #expect(lines == ["{alpha: 1, beta: 2, gamma: 3, … 2 more keys}"])
    }

    @Test func truncateOffPrintsEverythingAndJSONIsNeverCut() {
        let whole = text(last(["set truncate off", "= range(1000)"]))[0]
        #expect(!whole.contains("…") && whole.hasSuffix("999]"))
        let json = text(last(["= range(1000)"], options: ShellOptions(json: true)))[0]
        #expect(!json.contains("…") && json.contains("999]"))
    }

    @Test func stateTreeIndentsWhatDoesNotFitTheWidth() {
        let options = ShellOptions(width: 30)
        let lines = text(last(["store app = {count: 2, user: {name: 'Max', tags: ['a', 'b']}, items: [{title: 'milk', done: false}]}",
                               "state app --tree"], options: options))
        #expect(lines == [
            "{",
            "  count: 2,",
            "  user: {",
            "    name: \"Max\",",
            "    tags: [\"a\", \"b\"]",
            "  },",
            "  items: [",
            "    {",
            "      title: \"milk\",",
            "      done: false",
            "    }",
            "  ]",
            "}",
        ])
        #expect(text(last(["store app = {user: {name: 'Max'}}", "state --pretty app.user"], options: options)) == ["{name: \"Max\"}"])
        #expect(text(last(["store app = {user: {name: 'Max'}}", "state app user.name --tree"])) == ["\"Max\""])
        // Numbers fill their lines.
        let numbers = text(last(["store app = {xs: range(30)}", "state app.xs --tree"], options: options))
        #expect(numbers.first == "[" && numbers.last == "]" && numbers.count > 3, "\(numbers)")
        #expect(numbers.allSatisfy { $0.count <= 30 })
        let elements = numbers.dropFirst().dropLast().flatMap { $0.split(whereSeparator: { $0 == "," || $0 == " " }) }
        #expect(elements == (0..<30).map { "\($0)"[...] })
    }

    @Test func aTreeNeverElidesAContainerToFitItOnOneLine() {
        // Cut to 20 characters, the whole state would fit a line of 40: the tree breaks it up instead.
        let lines = text(last(["store app = {count: 19, user: {name: 'Max', tags: ['admin', 'editor']}}", "set truncate 20",
                               "state app --tree"], options: ShellOptions(width: 40)))
        #expect(lines == ["{", "  count: 19,", "  user: {", "    name: \"Max\",", "    tags: [\"admin\", \"editor\"]", "  }", "}"])
        // A string longer than the line still elides.
        #expect(text(last(["set truncate 10", "store app = {s: '\(String(repeating: "x", count: 100))'}", "state app --tree"]))
                == ["{", "  s: \"xxxxxxxx\"… (92 more characters)", "}"])
    }

    @Test func stateTreeInJSONIsTheValue() {
        let line = text(last(["store app = {a: [1, 2]}", "state app --tree"], options: ShellOptions(json: true)))[0]
        #expect(line == #"{"ok":true,"command":"state app --tree","result":{"a":[1,2]}}"#)
    }

    @Test func changesAreColouredOnATerminalOnly() {
        let setup = ["store app = {gone: 1, kept: 1}", "reducer app on Go : state.kept = 2; delete state.gone; state.added = 3"]
        let coloured = text(last(setup + ["dispatch app Go"], options: ShellOptions(color: true)))[0]
        #expect(coloured.contains("\u{1B}[33mkept: 1 → 2\u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[31mgone: - 1\u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[32madded: + 3\u{1B}[0m"))
        let diff = text(last(setup + ["dispatch app Go", "diff"], options: ShellOptions(color: true)))
        #expect(diff.contains("\u{1B}[32madded: + 3\u{1B}[0m"))
        for plain in [ShellOptions(color: false), ShellOptions(json: true, color: true)] {
            #expect(!text(last(setup + ["dispatch app Go"], options: plain))[0].contains("\u{1B}"))
        }
        #expect(!text(last(setup + ["set color off", "dispatch app Go"], options: ShellOptions(color: true)))[0].contains("\u{1B}"))
    }

    @Test func diffPathKeepsTheChangesAtAPath() {
        let setup = ["store app = {count: 0, user: {name: 'x', age: 1}}", "reducer app on A : state.count += 1; state.user.name = 'y'",
                     "dispatch app A"]
        #expect(text(last(setup + ["diff 0 1 --path user"])) == [#"user.name: "x" → "y""#])
        #expect(text(last(setup + ["diff --path count"])) == ["count: 0 → 1"])
        #expect(text(last(setup + ["diff app 1 --path user.age"])) == ["#0 → #1: no differences at user.age"])
        let json = text(last(setup + ["diff --path user"], options: ShellOptions(json: true)))[0]
        #expect(json.contains(#""result":[{"path":"user.name","op":"replace","old":"x","new":"y"}]"#), "\(json)")
        let outcome = last(setup + ["diff 0 1 user"])
        #expect(outcome.status == .failure)
        #expect(outcome.lines.first { $0.stream == .error }?.text.contains("unexpected 'user' (after the steps or branches: --path P)") == true)
    }

    @Test func setListsShowsAndChangesTheSettings() {
        #expect(text(last(["set"])) == ["width    auto  (80 columns)", "pager    on  (no pager here: only an interactive terminal pages, without --no-pager)", "color    on", "truncate 200",
                                     "identity id"])
        #expect(text(last(["set width 100"])) == ["width    100"])
        #expect(text(last(["set pager off"], options: ShellOptions(height: 24))) == ["pager    off"])
        #expect(text(last(["set truncate 50", "set truncate"])) == ["truncate 50"])
        let json = text(last(["set pager off", "set"], options: ShellOptions(json: true)))[0]
        #expect(json == #"{"ok":true,"command":"set","result":{"width":"auto","pager":false,"color":true,"truncate":200,"identity":"id"}}"#)
    }

    @Test func setWidthWrapsHelp() {
        let lines = text(last(["set width 40", "help"]))
        #expect(lines == text(last(["help"], options: ShellOptions(width: 40))))
        #expect(lines != text(last(["help"])))
    }

    @Test func aBadSettingIsAOneLineErrorAndChangesNothing() {
        let shell = Shell.scratch()
        for (command, message) in [("set truncate 5", "truncate takes a number of characters from 10 up, or off (never cut), not '5'"),
                                   ("set width wide", "width takes a number of columns from 20 to 1000, or auto (the terminal's), not 'wide'"),
                                   ("set pager maybe", "pager takes on or off, not 'maybe'"),
                                   ("set colour grey", "color takes on or off, not 'grey'"),
                                   ("set widht 100", "no setting 'widht': did you mean 'width'?")] {
            let outcome = shell.execute(command)
            #expect(outcome.status == .failure)
            let error = outcome.lines.first { $0.stream == .error }?.text ?? ""
            #expect(error.contains(message), "\(error)")
        }
        #expect(shell.options.settings == ShellSettings())
    }

    @Test func setColorOnSaysWhenTheOutputCannotTakeColour() {
        #expect(text(last(["set color on"])) == ["color    on",
                                                 "note: the output is not a terminal that takes colour (or NO_COLOR is set): it stays plain"])
        #expect(text(last(["set color on"], options: ShellOptions(color: true))) == ["color    on"])
    }

    @Test func setOfAVariableStillSetsIt() {
        #expect(text(last(["var width = 1", "set width = 5", "= width"])) == ["5"])
    }

    @Test func settingsAreNotRecorded() throws {
        let directory = TemporaryDirectory()
        let file = directory.path + "/session.jsonl"
        let shell = Shell.scratch()
        for command in ["record \(file)", "set width 100", "= 1", "set truncate off", "record stop"] {
            #expect(shell.execute(command).status == .success)
        }
        let recorded = try String(contentsOfFile: file, encoding: .utf8)
        #expect(recorded.contains(#""text":"= 1""#))
        #expect(!recorded.contains("set "), "\(recorded)")
    }

    @Test func theRCFileAppliesItsGoodLinesAndNamesItsBadOnes() {
        let text = "# my settings\nwidth 100\nset pager off\ncolour off\ntruncate lots\nbogus 1\n\ntruncate 300\n"
        let (settings, problems) = ShellSettings().applying(configuration: text)
        #expect(settings == ShellSettings(width: 100, pager: false, color: false, truncate: 300))
        #expect(problems.count == 2)
        #expect(problems[0].hasPrefix("5: truncate takes"))
        #expect(problems[1].hasPrefix("6: no setting 'bogus'"))
    }

    @Test func outputTallerThanTheTerminalIsLong() {
        let options = ShellOptions(height: 10)
        #expect(last(["help"], options: options).isLong)
        #expect(!last(["= 1"], options: options).isLong)
        // A line wider than the terminal takes several rows.
        #expect(last(["set truncate off", "= range(400)"], options: ShellOptions(width: 40, height: 10)).isLong)
        // Never long without a terminal, or in JSON.
        #expect(!last(["help"]).isLong)
        #expect(!last(["help"], options: ShellOptions(json: true, height: 10)).isLong)
    }
}

@Suite("history --chart")
struct HistoryChartTests {
    private func run(_ commands: [String], options: ShellOptions = ShellOptions()) -> CommandOutcome {
        let shell = Shell.scratch(options)
        var outcome = CommandOutcome(status: .empty, lines: [])
        for command in commands { outcome = shell.execute(command) }
        return outcome
    }

    private let setup = ["store app = {count: 0, name: 'x'}", "reducer app on Add : state.count += action.by",
                         "reducer app on Name : state.name = action.name",
                         "dispatch app Add {by: 1}", "dispatch app Add {by: 2}", "dispatch app Add {by: -3}", "dispatch app Add {by: 7}"]

    @Test func aNumericPathPlotsWithAxesAndExtremes() {
        let lines = run(setup + ["history --chart count"]).lines.map(\.text)
        #expect(lines.first == "app.count from #0 to #4")
        #expect(lines[1].hasPrefix("7┤"))
        #expect(lines[8].hasPrefix("0┤"))
        #expect(lines[2...7].allSatisfy { $0.hasPrefix(" │") })
        // Five steps, drawn three columns wide each: a tick every other step, numbered below,
        // and the current step (#4) marked.
        #expect(lines[9] == " └┬─────┬─────▲──")
        #expect(lines[10] == "  #0    #2    #4")
        #expect(lines.last == "min 0 at #0, max 7 at #4; ▲ #4 (current): 7")
        // The last step is full height, the first (the minimum) a sliver.
        let rows = lines[1...8].map { Array($0.dropFirst(2)) }
        #expect(rows.allSatisfy { $0.count == 15 })
        #expect(rows.allSatisfy { $0[12...].allSatisfy { $0 == "█" } })
        #expect(rows[7][0...2] == ["▁", "▁", "▁"] && rows[0][0] == " ")
        // 3 of 7 is 27 eighths of 64: three full rows and a three-eighths block on the fourth.
        #expect(rows.map { $0[6] } == [" ", " ", " ", " ", "▃", "█", "█", "█"])
    }

    @Test func fromAndToNarrowTheSteps() {
        let lines = run(setup + ["history app --chart count --from 2 --to 3"]).lines.map(\.text)
        #expect(lines.first == "app.count from #2 to #3")
        #expect(lines.last == "min 0 at #3, max 3 at #2")
    }

    @Test func aNarrowTerminalGetsASparkline() {
        let lines = run(setup + ["history --chart count"], options: ShellOptions(width: 30)).lines.map(\.text)
        #expect(lines == ["app.count from #0 to #4", "▁▁▃▁█", "    ▲", "min 0 at #0, max 7 at #4; ▲ #4 (current): 7"])
        #expect(run(setup + ["history --chart count --spark"]).lines.map(\.text) == lines)
    }

    @Test func aPathThatIsNotANumberSaysWhereAndWhat() {
        let outcome = run(setup + ["dispatch app Name {name: 3}", "dispatch app Add {by: 1}", "history --chart name"])
        #expect(outcome.status == .failure)
        let error = outcome.lines.first { $0.stream == .error }?.text ?? ""
        #expect(error.contains("app.name is a string at #0 (\"x\"), not a number"), "\(error)")
        #expect(error.contains("  history --chart name\n                  ^~~~"), "\(error)")
    }

    @Test func badOptionsAreErrors() {
        for (command, message) in [("history --chart count --from 9", "app has steps #0 to #4, not #9"),
                                   ("history --chart count --from 3 --to 1", "--from must not come after --to"),
                                   ("history --spark", "--spark goes with --chart PATH"),
                                   ("history --chart count --last 2", "--chart goes without --last, --type, --not, --grep, --failed, --skipped and --path"),
                                   ("history --chart missing", "app has no number at missing from #0 to #4")] {
            let outcome = run(setup + [command])
            #expect(outcome.status == .failure, "\(command)")
            #expect(outcome.lines.first { $0.stream == .error }?.text.contains(message) == true, "\(command): \(outcome.lines)")
        }
    }

    @Test func jsonGivesThePoints() {
        let line = run(setup + ["history --chart count --from 3"], options: ShellOptions(json: true)).lines[0].text
        #expect(line == #"{"ok":true,"command":"history --chart count --from 3","result":{"store":"app","path":"count","from":3,"to":4,"current":4,"#
                + #""points":[{"index":3,"value":0},{"index":4,"value":7}]}}"#)
    }
}
