@_spi(Shell) import PatchbayShell
import Testing

/// `?` and `COMMAND?` are `help` and `help COMMAND`, as in IPython.
struct HelpShortcutTests {
    private func printed(_ command: String) -> [String] {
        Shell.scratch().execute(command).lines.map(\.text)
    }

    @Test(arguments: [
        ("?", "help"), ("  ?  ", "help"), ("history?", "help history"), ("load ?", "help load"),
        ("history commit?", "help history commit"),
    ])
    func aQuestionMarkAsksForHelp(shortcut: String, help: String) {
        #expect(printed(shortcut) == printed(help))
    }

    /// An unknown word gets help's own error, pointing at the word as typed.
    @Test func anUnknownCommandWithAQuestionMarkIsHelpsError() {
        let error = printed("nosuchcommand?")
        #expect(error.first?.hasPrefix("error: no help for 'nosuchcommand'") == true, "\(error)")
        #expect(error.first?.split(separator: "\n").last == "  ^~~~~~~~~~~~~")
    }

    @Test func aQuestionMarkInsideACommandIsNotHelp() {
        #expect(printed("= 1 > 0 ? 'yes' : 'no'") == ["\"yes\""])
        #expect(printed("? history") != printed("help history"))
        #expect(printed("a b c?") != printed("help a b c"))
        #expect(printed("a b c?").first?.hasPrefix("error: ") == true)
    }
}
