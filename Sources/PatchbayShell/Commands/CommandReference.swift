/// The command reference as a DocC article: every command as `help COMMAND` shows it, then the
/// functions and the rules of values, from the same catalog. A test keeps the article in the
/// repository equal to it (`PatchbayHost.docc/CommandReference.md`).
package enum CommandReference {
    package static var markdown: String {
        var lines = [
            "# Command reference",
            "",
            "Every command of the shell, as `help COMMAND` shows it.",
            "",
            "@Metadata {",
            "    @PageKind(article)",
            "}",
            "",
            "This page is made from the shell's own help; `help` in the shell prints the same.",
        ]
        for (title, commands) in CommandCatalog.groups {
            lines += ["", "## \(title)"]
            for info in commands {
                lines += ["", "### \(info.name)", "", "```", info.synopsis, "```", "", info.summary.prefix(1).uppercased() + info.summary.dropFirst() + "."]
                if !info.aliases.isEmpty { lines += ["", "Also: " + info.aliases.map { "`\($0)`" }.joined(separator: ", ") + "."] }
                if !info.details.isEmpty { lines += ["", "```"] + info.details + ["```"] }
                if !info.examples.isEmpty { lines += ["", "Example:", "", "```"] + info.examples + ["```"] }
            }
        }
        lines += ["", "## Functions", "", "```"] + Help.functionLines + ["```", "", "## Values", "", "```"] + Help.valueLines + ["```"]
        return lines.joined(separator: "\n") + "\n"
    }
}
