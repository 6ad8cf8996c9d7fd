@_spi(Shell) import PatchbayShell
import Testing

@Suite("Running commands")
struct ShellExecutionTests {
    @Test func anExpressionPrintsItsValueAsALiteral() {
        let shell = Shell.scratch()
        #expect(shell.execute("= 1 + 2").lines == [OutputLine("3")])
        #expect(shell.execute("= {count: 2, user: {name: 'Max'}}").lines == [OutputLine("{count: 2, user: {name: \"Max\"}}")])
    }

    @Test func blankLinesAndCommentsAreNotCommands() {
        let shell = Shell.scratch()
        #expect(shell.execute("   ").status == .empty)
        #expect(shell.execute("").status == .empty)
    }

    @Test func anErrorIsOneLineWithTheInputAndACaret() {
        let outcome = Shell.scratch().execute("= 10 / 0")
        #expect(outcome.status == .failure)
        #expect(outcome.lines == [OutputLine("error: division by zero in '10 / 0'\n  = 10 / 0\n    ^~~~~~", to: .error)])
    }

    @Test func aScriptErrorNamesTheFileLineAndColumn() {
        let outcome = Shell.scratch().execute("= [1,\n  2 +]", at: SourceOrigin(name: "demo.pb", line: 7))
        #expect(outcome.lines.first?.text.hasPrefix("demo.pb:8:6: error: expected a value, found ']'\n    2 +]\n       ^") == true)
    }

    @Test func colourIsOnlyUsedWhenAskedFor() {
        let plain = Shell.scratch().execute("= x").lines[0].text
        let coloured = Shell.scratch(ShellOptions(color: true)).execute("= x").lines[0].text
        #expect(!plain.contains("\u{1B}["))
        #expect(coloured.contains("\u{1B}[1;31merror:\u{1B}[0m"))
    }

    @Test func anUnknownCommandSuggestsTheClosestOne() {
        let outcome = Shell.scratch().execute("lod demo.pb")
        #expect(outcome.lines[0].text.hasPrefix("error: unknown command 'lod'; did you mean 'load'?"))
    }

    @Test func anUnknownWordWithNoCloseCommandPointsToHelp() {
        let outcome = Shell.scratch().execute("frobnicate")
        #expect(outcome.lines[0].text.hasPrefix("error: unknown command 'frobnicate'; type 'help' for the list"))
    }

    @Test func controlCharactersAreNeverEchoedRaw() {
        let outcome = Shell.scratch().execute("\u{01}\u{02}garbage\u{1B}[2J")
        #expect(outcome.status == .failure)
        #expect(!outcome.lines[0].text.contains("\u{1B}"))
        #expect(!outcome.lines[0].text.contains("\u{01}"))
    }

    @Test func extraArgumentsAreAUsageError() {
        let outcome = Shell.scratch().execute("reset now")
        #expect(outcome.lines[0].text.hasPrefix("error: unexpected 'now'; usage: reset (see 'help reset')\n  reset now\n        ^~~"))
    }

    @Test func quitEndsTheSession() {
        let shell = Shell.scratch()
        #expect(!shell.hasQuit)
        #expect(shell.execute("exit").status == .success)
        #expect(shell.hasQuit)
    }
}

@Suite("JSON output")
struct JSONOutputTests {
    @Test func aResultIsOneLine() {
        let shell = Shell.scratch(ShellOptions(json: true))
        #expect(shell.execute("= {a: [1, 2.0, 'x']}").lines == [
            OutputLine(#"{"ok":true,"command":"= {a: [1, 2.0, 'x']}","result":{"a":[1,2.0,"x"]}}"#)
        ])
    }

    @Test func anErrorIsOneLineWithItsLineAndColumn() {
        let shell = Shell.scratch(ShellOptions(json: true))
        let outcome = shell.execute("= [1,\n  len(2)]", at: SourceOrigin(name: "x.pb", line: 3))
        #expect(outcome.lines == [
            OutputLine(#"{"ok":false,"command":"= [1,\n  len(2)]","error":{"message":"len: takes a string, an array or an object, not int in 'len(2)'","line":4,"column":3}}"#)
        ])
    }

    @Test func commandsWithoutAValueGiveNull() {
        let shell = Shell.scratch(ShellOptions(json: true))
        #expect(shell.execute("quit").lines == [OutputLine(#"{"ok":true,"command":"quit","result":null}"#)])
    }
}

@Suite("Help")
struct HelpTests {
    @Test func helpListsEveryCommandWithItsSynopsis() {
        let lines = Shell.scratch().execute("help").lines.map(\.text)
        for synopsis in ["= EXPR", "help [COMMAND [SUBCOMMAND] | functions | values | patch TYPE]", "load FILE", "reset", "quit | exit"] {
            #expect(lines.contains { $0 == "  " + synopsis || $0.hasPrefix("  " + synopsis + " ") })
        }
    }

    @Test(arguments: ["load", "=", "help", "reset", "quit", "exit"])
    func helpForACommandShowsItsSyntaxAndAnExample(command: String) {
        let lines = Shell.scratch().execute("help \(command)").lines.map(\.text)
        #expect(lines.count >= 4)
        #expect(lines.contains("Example:"))
    }

    @Test func helpFunctionsListsEveryFunction() {
        let text = Shell.scratch().execute("help functions").lines.map(\.text).joined(separator: "\n")
        for name in ["len(", "map(", "reduce(", "sortBy(", "range(", "type("] { #expect(text.contains(name)) }
    }

    @Test func anUnknownTopicSuggestsOne() {
        let outcome = Shell.scratch().execute("help functons")
        #expect(outcome.lines[0].text.hasPrefix("error: no help for 'functons'; did you mean 'functions'?"))
    }
}

@Suite("Help for patch types")
struct PatchTypeHelpTests {
    @Test func helpPatchTypeShowsItsPortsAndParameters() {
        let lines = Shell.scratch().execute("help patch accumulate").lines.map(\.text)
        #expect(lines.first == "patch NAME accumulate [fn=...] [initial=...]")
        #expect(lines.contains("  inputs: in"))
        #expect(lines.contains("  initial=  the first acc (default 0)"))
    }

    @Test func helpPatchCoversUserDefinedTypes() {
        let shell = Shell.scratch()
        _ = shell.execute("patchtype scale (value, factor) -> (out) { emit out value * factor }")
        #expect(shell.execute("help patch scale").lines.map(\.text).contains("  inputs: value, factor"))
    }

    @Test func anUnknownTypeIsAnErrorAtItsName() {
        let outcome = Shell.scratch().execute("help patch mapp")
        #expect(outcome.lines[0].text.hasPrefix("error: no patch type 'mapp'; did you mean 'map'?\n  help patch mapp\n             ^~~~"))
    }
}
