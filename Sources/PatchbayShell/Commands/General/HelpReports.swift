@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

/// `help`: the commands by area, a heading each, wrapped to the style's width.
struct HelpOverview: CommandReport {
    func lines(in style: OutputStyle) -> [String] {
        let width = style.width
        // The synopses line up in one column, as wide as the longest synopsis that leaves room
        // for a summary; a longer synopsis takes lines of its own, its summary below it.
        let room = Swift.max(12, width * 3 / 8)
        let column = CommandCatalog.commands.map(\.synopsis.count).filter { $0 <= room }.max() ?? room
        let summaryIndent = String(repeating: " ", count: 2 + column + 2)
        var lines: [String] = []
        for group in CommandCatalog.groups {
            if !lines.isEmpty { lines.append("") }
            lines.append(group.title + ":")
            for info in group.commands {
                if info.synopsis.count <= column {
                    lines += Help.wrap(info.summary, width: width, first: "  " + info.synopsis.padding(to: column) + "  ", rest: summaryIndent)
                } else {
                    lines += Help.wrapSynopsis(info.synopsis, width: width, first: "  ", rest: "    ")
                    lines += Help.wrap(info.summary, width: width, first: summaryIndent, rest: summaryIndent)
                }
            }
        }
        lines.append("")
        lines += Help.wrap("Type 'help COMMAND' (or 'COMMAND?') for its syntax and an example, 'help COMMAND SUBCOMMAND' for one form "
                           + "(help history commit), 'apropos WORD' to find commands and functions by a word; "
                           + "'help functions' and 'help values' for expressions.", width: width, first: "", rest: "")
        return lines
    }

    var json: Value {
        .array(CommandCatalog.groups.flatMap { group in
            group.commands.map {
                ["command": .string($0.name), "group": .string(group.title), "synopsis": .string($0.synopsis), "summary": .string($0.summary)]
            }
        })
    }
}

/// `help COMMAND` and `help COMMAND SUBCOMMAND`: a command's synopsis, summary, details and
/// examples, wrapped to the style's width; with a subcommand, first the forms, details and
/// examples that name it.
struct CommandHelp: CommandReport {
    var info: CommandInfo
    /// The word of `help COMMAND SUBCOMMAND` (a word of one of the command's forms).
    var subcommand: String?

    func lines(in style: OutputStyle) -> [String] {
        let width = style.width
        var lines: [String] = []
        if let word = subcommand {
            let named = Help.forms(of: info).filter { Help.words(of: $0).contains(word) }
            let details = Help.paragraphs(of: info).filter { Help.words(of: $0.text).contains(word) }
            let examples = info.examples.filter { Help.words(of: $0).contains(word) }
            lines += named.flatMap { Help.wrap($0, width: width, first: "", rest: "    ") }
            lines += details.flatMap { $0.lines(width: width) }
            if !examples.isEmpty { lines += ["Example:"] + examples.map { "  " + $0 } }
            lines.append("")
        }
        lines += Help.wrapSynopsis(info.synopsis, width: width, first: "", rest: "  ")
        lines += Help.wrap(info.summary, width: width, first: "  ", rest: "  ")
        if !info.details.isEmpty { lines += [""] + Help.paragraphs(of: info).flatMap { $0.lines(width: width) } }
        if !info.examples.isEmpty { lines += ["", "Example:"] + info.examples.map { "  " + $0 } }
        return lines
    }

    var json: Value {
        ["command": .string(info.name), "synopsis": .string(info.synopsis), "summary": .string(info.summary),
         "details": .array(info.details.map { .string($0) }), "examples": .array(info.examples.map { .string($0) })]
    }
}

/// `help functions`: each built-in function with what it does.
struct FunctionsHelp: CommandReport {
    func lines(in style: OutputStyle) -> [String] { Help.functionLines }

    var json: Value {
        .array(Builtin.allCases.map { ["function": .string($0.signature), "summary": .string($0.summary)] })
    }
}

/// `help values`: values, operators, statements and limits.
struct ValuesHelp: CommandReport {
    func lines(in style: OutputStyle) -> [String] { Help.valueLines }
    var json: Value { .array(Help.valueLines.map { .string($0) }) }
}

/// `apropos WORD`: the commands and functions that mention the word, a line each (the first
/// form of the synopsis and the summary, cut to the style's width).
struct AproposMatches: CommandReport {
    var word: String
    var commands: [CommandInfo]
    var functions: [Builtin]

    func lines(in style: OutputStyle) -> [String] {
        let entries = commands.map { ($0.synopsis, $0.summary) } + functions.map { ($0.signature, $0.summary) }
        guard !entries.isEmpty else { return ["nothing about '\(Printable.escaped(word, limit: 30))' (try another word, or 'help')"] }
        return entries.map { synopsis, summary in
            // `help COMMAND` shows them whole.
            let line = (synopsis.components(separatedBy: " | ").first ?? synopsis) + "  " + summary
            return line.count > style.width ? String(line.prefix(style.width - 3)) + "..." : line
        }
    }

    var json: Value {
        .array(commands.map { ["command": .string($0.name), "synopsis": .string($0.synopsis), "summary": .string($0.summary)] }
            + functions.map { ["function": .string($0.signature), "summary": .string($0.summary)] })
    }
}

/// `help patch TYPE`: one patch type's ports and parameters.
struct PatchTypeHelp: CommandReport {
    var type: PatchType

    func lines(in style: OutputStyle) -> [String] {
        var lines = ["patch NAME \(type.name)" + type.parameters.map { " [\($0.name)=...]" }.joined(),
                     "  " + type.summary,
                     "  inputs: " + (type.inputs.isEmpty ? "none" : type.inputs.joined(separator: ", ")),
                     "  outputs: " + (type.outputs.isEmpty ? "none" : type.outputDeclarations.joined(separator: ", "))]
        for parameter in type.parameters {
            let fallback = parameter.defaultValue.map { " (default \($0))" } ?? " (required)"
            lines.append("  \(parameter.name)=  \(parameter.summary)\(fallback)")
        }
        lines.append("  A parameter named like an input sets its local value.")
        return lines
    }

    var json: Value {
        ["type": .string(type.name), "summary": .string(type.summary),
         "inputs": .array(type.inputs.map(Value.string)), "outputs": .array(type.outputs.map(Value.string)),
         "eventOutputs": .array(type.eventOutputs.map(Value.string)),
         "parameters": .array(type.parameters.map { .string($0.name) })]
    }
}
