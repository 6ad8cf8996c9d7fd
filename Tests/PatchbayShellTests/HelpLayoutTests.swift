@_spi(Shell) @testable import PatchbayShell
import Testing

// `help` grouped by area and wrapped to the terminal, `help COMMAND SUBCOMMAND`, `apropos WORD`,
// and help texts that say what the commands do.

/// What `command` prints in a shell whose terminal is `width` columns wide.
private func output(_ command: String, width: Int = 80) -> [String] {
    Shell.scratch(ShellOptions(width: width)).execute(command).lines.map(\.text)
}

@Suite("Help: layout")
struct HelpLayoutTests {
    @Test func helpHasAHeadingPerAreaWithItsCommandsUnderIt() {
        let lines = output("help")
        let headings = lines.filter { $0.hasSuffix(":") && $0.first != " " }
        #expect(headings == CommandCatalog.groups.map { $0.title + ":" })
        for group in CommandCatalog.groups {
            let start = lines.firstIndex(of: group.title + ":")!
            let end = lines[start...].dropFirst().firstIndex { $0.isEmpty } ?? lines.endIndex
            let section = lines[start..<end].joined(separator: "\n")
            for info in group.commands {
                #expect(section.contains("  " + info.synopsis.prefix(20)), "\(info.name) under \(group.title)")
            }
        }
    }

    @Test(arguments: [40, 60, 80, 132])
    func everyLineFitsTheWidth(width: Int) {
        for command in ["help", "help history", "help route", "help record stop", "help reducer", "apropos store"] {
            // Examples stay whole, so that they can be typed back.
            let examples = Set(CommandCatalog.commands.flatMap { $0.examples.map { "  " + $0 } })
            for line in output(command, width: width) where !examples.contains(line) {
                // A word longer than the line (a long option list) is the only excuse.
                #expect(line.count <= width || line.split(separator: " ").count == 1, "\(command) at \(width): \(line)")
            }
        }
    }

    @Test func aLongSynopsisWrapsWithAHangingIndentAndItsSummaryBelow() {
        let lines = output("help", width: 80)
        let start = lines.firstIndex { $0.hasPrefix("  reducer [ID =] STORE on TYPE") }!
        #expect(lines[start].count <= 80)
        #expect(lines[start + 1].hasPrefix("    | "))
        #expect(lines.contains { $0.hasPrefix(String(repeating: " ", count: 20)) && $0.contains("add a reducer for an action type") })
    }

    @Test func wideTerminalsGetFewerLines() {
        #expect(output("help", width: 200).count < output("help", width: 60).count)
    }

    @Test func aHelpResultIsLaidOutToTheWidthItIsShownAt() throws {
        // The result holds what to show, not lines: the width comes with the style it is shown in.
        let result = try Help.result(for: "history", at: 0..<0)
        let narrow = Renderer(options: ShellOptions(width: 40)).success(result, command: "help history").map(\.text)
        let wide = Renderer(options: ShellOptions(width: 132)).success(result, command: "help history").map(\.text)
        #expect(narrow == output("help history", width: 40))
        #expect(wide == output("help history", width: 132))
        #expect(narrow != wide)
    }
}

@Suite("Help: subcommands and apropos")
struct HelpSubcommandTests {
    @Test(arguments: [("history", "commit"), ("route", "add"), ("record", "stop")])
    func helpCommandSubcommandShowsThatFormFirstThenTheWholeHelp(command: String, subcommand: String) {
        let lines = output("help \(command) \(subcommand)")
        #expect(lines.first?.contains("\(command) \(subcommand)") == true, "\(lines.first ?? "")")
        let whole = output("help \(command)")
        #expect(Array(lines.suffix(whole.count)) == whole)
        #expect(lines.count > whole.count)
    }

    @Test func anUnknownSubcommandIsAnErrorWithASuggestion() {
        let outcome = Shell.scratch().execute("help history comit")
        #expect(outcome.status == .failure)
        #expect(outcome.lines.first?.text.hasPrefix("error: no help for 'history comit'; did you mean 'history commit'?") == true)
        #expect(Shell.scratch().execute("help nope x").lines.first?.text.hasPrefix("error: no help for 'nope x'") == true)
    }

    @Test func aproposFindsCommandsAndFunctionsByAnyWordIgnoringCase() {
        let lines = output("apropos BRANCH")
        #expect(lines.contains { $0.hasPrefix("branch [STORE]") })
        #expect(lines.contains { $0.hasPrefix("checkout [STORE] BRANCH") })
        #expect(output("apropos branch", width: 40).allSatisfy { $0.count <= 40 })
        #expect(!lines.contains { $0.hasPrefix("store NAME") })
        // A function, by a word of its summary.
        let functions = output("apropos Cased")
        #expect(functions.contains { $0.hasPrefix("upper(string)") } && functions.contains { $0.hasPrefix("lower(string)") }, "\(functions)")
        #expect(output("apropos zzzz") == ["nothing about 'zzzz' (try another word, or 'help')"])
        #expect(Shell.scratch().execute("apropos").lines.first?.text.hasPrefix("error: missing the word to look for; usage: apropos WORD") == true)
    }

    @Test func aproposAndHelpSubcommandsComplete() {
        #expect(Shell.scratch().complete("apro", cursor: 4).candidates == ["apropos"])
        #expect(Shell.scratch().complete("help history c", cursor: 14).candidates == ["commit"])
        #expect(Shell.scratch().complete("help record s", cursor: 13).candidates == ["stop"])
    }

    @Test func reducerCompletesTheIDsOfReducersToReplace() {
        let shell = Shell.scratch()
        _ = shell.execute("store app = {n: 0}")
        _ = shell.execute("reducer app on Add : state.n += 1")
        #expect(shell.complete("reducer r", cursor: 9).candidates == ["r1", "rm"])
        #expect(shell.complete("reducer r1 ", cursor: 11).candidates == [])
    }

    @Test func breakHelpSaysWhatBreakDoes() {
        // `break` with no condition is an error, as its help says; it pauses any replay.
        let help = output("help break").joined(separator: " ")
        #expect(help.contains("'break' without a condition is an error"))
        #expect(Shell.scratch().execute("break").status == .failure)
        #expect(!help.contains("stepped replay"))
    }
}
