import PatchbayCore
import PatchbayGraph

/// The text of `help`, `help COMMAND [SUBCOMMAND]`, `help functions`, `help values` and
/// `apropos WORD`, wrapped to the terminal's width.
enum Help {
    static let topics = ["functions", "values"]

    /// `help [TOPIC [SUBCOMMAND]]`
    static func result(for topic: String?, subcommand: (text: String, range: Range<Int>)? = nil, at range: Range<Int>,
                       width: Int = 80) throws(ShellError) -> CommandResult {
        guard let topic else { return overview(width: width) }
        if let info = CommandCatalog.info(for: topic) {
            guard let subcommand else { return command(info, width: width) }
            return try self.subcommand(subcommand.text, of: info, at: subcommand.range, width: width)
        }
        if let subcommand { throw unknownTopic(topic + " " + subcommand.text, at: range.lowerBound..<subcommand.range.upperBound) }
        switch topic {
        case "functions": return functions()
        case "values", "expressions", "statements": return values()
        default: throw unknownTopic(topic, at: range)
        }
    }

    private static func unknownTopic(_ topic: String, at range: Range<Int>) -> ShellError {
        let suggestion = Spelling.closest(to: topic, among: CommandCatalog.words + topics)
        return ShellError(.unknownHelpTopic(Printable.escaped(topic, limit: 30), suggestion: suggestion), at: range)
    }

    /// `apropos WORD`: every command and function with WORD (any case) in a word of its synopsis,
    /// summary or details, one line each.
    static func apropos(_ word: String, width: Int = 80) -> CommandResult {
        let needle = word.lowercased()
        let commands = CommandCatalog.commands.filter { info in
            ([info.synopsis, info.summary] + info.details + info.aliases).contains { mentions($0, needle) }
        }
        let functions = Builtin.allCases.filter { mentions($0.signature, needle) || mentions($0.summary, needle) }
        let entries = commands.map { ($0.synopsis, $0.summary) } + functions.map { ($0.signature, $0.summary) }
        guard !entries.isEmpty else {
            return CommandResult(lines: ["nothing about '\(Printable.escaped(word, limit: 30))' (try another word, or 'help')"], json: .array([]))
        }
        let lines = entries.map { synopsis, summary in
            // One line each: the first form of the synopsis and the summary, cut to the width
            // (`help COMMAND` shows them whole).
            let line = (synopsis.components(separatedBy: " | ").first ?? synopsis) + "  " + summary
            return line.count > width ? String(line.prefix(width - 3)) + "..." : line
        }
        let json = Value.array(commands.map { ["command": .string($0.name), "synopsis": .string($0.synopsis), "summary": .string($0.summary)] }
            + functions.map { ["function": .string($0.signature), "summary": .string($0.summary)] })
        return CommandResult(lines: lines, json: json)
    }

    /// Whether `text` has `needle` (lower case) in one of its words, ignoring case: as a whole
    /// word or a part of one (`record` finds `recording`).
    private static func mentions(_ text: String, _ needle: String) -> Bool {
        !needle.isEmpty && text.lowercased().contains(needle)
    }

    /// `help patch TYPE`: one patch type's ports and parameters.
    static func result(for type: PatchType) -> CommandResult {
        var lines = ["patch NAME \(type.name)" + type.parameters.map { " [\($0.name)=...]" }.joined(),
                     "  " + type.summary,
                     "  inputs: " + (type.inputs.isEmpty ? "none" : type.inputs.joined(separator: ", ")),
                     "  outputs: " + (type.outputs.isEmpty ? "none" : type.outputDeclarations.joined(separator: ", "))]
        for parameter in type.parameters {
            let fallback = parameter.defaultValue.map { " (default \($0))" } ?? " (required)"
            lines.append("  \(parameter.name)=  \(parameter.summary)\(fallback)")
        }
        lines.append("  A parameter named like an input sets its local value.")
        let json: Value = [
            "type": .string(type.name), "summary": .string(type.summary),
            "inputs": .array(type.inputs.map(Value.string)), "outputs": .array(type.outputs.map(Value.string)),
            "eventOutputs": .array(type.eventOutputs.map(Value.string)),
            "parameters": .array(type.parameters.map { .string($0.name) }),
        ]
        return CommandResult(lines: lines, json: json)
    }

    /// `help`: the commands by area, a heading each, wrapped to `width`.
    private static func overview(width: Int) -> CommandResult {
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
                    lines += wrap(info.summary, width: width, first: "  " + info.synopsis.padding(to: column) + "  ", rest: summaryIndent)
                } else {
                    lines += wrapSynopsis(info.synopsis, width: width, first: "  ", rest: "    ")
                    lines += wrap(info.summary, width: width, first: summaryIndent, rest: summaryIndent)
                }
            }
        }
        lines.append("")
        lines += wrap("Type 'help COMMAND' for its syntax and an example, 'help COMMAND SUBCOMMAND' for one form "
                      + "(help history commit), 'apropos WORD' to find commands and functions by a word; "
                      + "'help functions' and 'help values' for expressions.", width: width, first: "", rest: "")
        let json = Value.array(CommandCatalog.groups.flatMap { group in
            group.commands.map {
                ["command": .string($0.name), "group": .string(group.title), "synopsis": .string($0.synopsis), "summary": .string($0.summary)]
            }
        })
        return CommandResult(lines: lines, json: json)
    }

    /// `help COMMAND`
    private static func command(_ info: CommandInfo, width: Int) -> CommandResult {
        CommandResult(lines: commandLines(info, width: width), json: json(info))
    }

    private static func commandLines(_ info: CommandInfo, width: Int) -> [String] {
        var lines = wrapSynopsis(info.synopsis, width: width, first: "", rest: "  ")
        lines += wrap(info.summary, width: width, first: "  ", rest: "  ")
        if !info.details.isEmpty { lines += [""] + paragraphs(of: info).flatMap { $0.lines(width: width) } }
        if !info.examples.isEmpty { lines += ["", "Example:"] + info.examples.map { "  " + $0 } }
        return lines
    }

    private static func json(_ info: CommandInfo) -> Value {
        ["command": .string(info.name), "synopsis": .string(info.synopsis), "summary": .string(info.summary),
         "details": .array(info.details.map { .string($0) }), "examples": .array(info.examples.map { .string($0) })]
    }

    /// A synopsis wrapped between its forms (`A | B`) where it can, a form that does not fit on
    /// a line wrapped at blanks; the lines after the first start with `rest` and `| `.
    private static func wrapSynopsis(_ synopsis: String, width: Int, first: String, rest: String) -> [String] {
        var lines: [String] = []
        var line = first
        for (index, form) in synopsis.components(separatedBy: " | ").enumerated() {
            if index == 0 {
                line += form
            } else if line.count + 3 + form.count <= width {
                line += " | " + form
            } else {
                lines.append(line)
                line = rest + "| " + form
            }
            if line.count > width {
                let broken = wrap(line, width: width, first: "", rest: rest + "    ")
                lines += broken.dropLast()
                line = broken.last ?? ""
            }
        }
        lines.append(line)
        return lines
    }

    /// The forms of a command's synopsis: `history commit | revert | ...` gives `history commit`,
    /// `revert`, ...
    private static func forms(of info: CommandInfo) -> [String] {
        info.synopsis.components(separatedBy: " | ")
    }

    /// `help COMMAND SUBCOMMAND`: the forms, details and examples that name SUBCOMMAND, then the
    /// whole help of the command.
    private static func subcommand(_ word: String, of info: CommandInfo, at range: Range<Int>, width: Int) throws(ShellError) -> CommandResult {
        let forms = forms(of: info)
        let named = forms.filter { words(of: $0).contains(word) }
        guard !named.isEmpty else {
            let suggestion = Spelling.closest(to: word, among: subcommands(of: info.name)).map { info.name + " " + $0 }
            throw ShellError(.unknownHelpTopic(Printable.escaped(info.name + " " + word, limit: 40), suggestion: suggestion), at: range)
        }
        let details = paragraphs(of: info).filter { words(of: $0.text).contains(word) }
        let examples = info.examples.filter { words(of: $0).contains(word) }
        var lines = named.flatMap { wrap($0, width: width, first: "", rest: "    ") }
        lines += details.flatMap { $0.lines(width: width) }
        if !examples.isEmpty { lines += ["Example:"] + examples.map { "  " + $0 } }
        lines += [""] + commandLines(info, width: width)
        return CommandResult(lines: lines, json: json(info))
    }

    /// The subcommands of `command` its synopsis names (`history`: commit, revert, ...), for
    /// completion and suggestions: lower-case words other than the command's name.
    static func subcommands(of command: String) -> [String] {
        guard let info = CommandCatalog.info(for: command) else { return [] }
        var seen: Set<String> = [info.name]
        return forms(of: info).flatMap { words(of: $0) }.filter { word in
            word.first?.isLowercase == true && seen.insert(word).inserted
        }
    }

    /// The words of a line: runs of letters, digits, `_` and `-`.
    private static func words(of line: String) -> [String] {
        line.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }.map(String.init)
    }

    /// `text` broken at blanks into lines of at most `width` characters: the first starts with
    /// `first`, the others with `rest`. A word longer than a line keeps a line of its own.
    static func wrap(_ text: String, width: Int, first: String, rest: String) -> [String] {
        var lines: [String] = []
        var line = first
        var isEmpty = true
        // Empty words keep runs of blanks (aligned columns) where no line breaks.
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if !isEmpty, !word.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = rest + word
                continue
            }
            line += (isEmpty ? "" : " ") + word
            isEmpty = false
        }
        lines.append(line)
        return lines
    }

    /// A command's details as paragraphs: the catalog breaks its lines for the reference, and
    /// `help` joins them again to wrap them to the terminal. A line that starts with blanks goes
    /// on from the one before it (the second column of a table row); so does a line after one of
    /// prose that ends mid-sentence.
    private static func paragraphs(of info: CommandInfo) -> [Paragraph] {
        var paragraphs: [Paragraph] = []
        for line in info.details {
            if var last = paragraphs.popLast() {
                let continues = line.first == " " || (last.hang == nil && !".:!?".contains(last.text.last ?? "."))
                if continues {
                    last.text += " " + line.drop { $0 == " " }
                    paragraphs.append(last)
                    continue
                }
                paragraphs.append(last)
            }
            paragraphs.append(Paragraph(line))
        }
        return paragraphs
    }

    /// A paragraph of a command's details: prose, or a table row whose second column starts at
    /// `hang` (after a run of blanks: `history sweep    drop the skipped actions`).
    private struct Paragraph {
        var text: String
        var hang: Int?

        init(_ line: String) {
            text = line
            let firstWord = line.firstIndex(of: " ")
            if let firstWord, let gap = line[firstWord...].range(of: "  ") {
                let column = line[gap.lowerBound...].firstIndex { $0 != " " } ?? line.endIndex
                hang = line.distance(from: line.startIndex, to: column)
            }
        }

        /// The paragraph wrapped to `width`, indented by two blanks; a table row's lines go on
        /// under its second column.
        func lines(width: Int) -> [String] {
            let rest = hang.map { String(repeating: " ", count: 2 + Swift.min($0, width / 2)) } ?? "  "
            return Help.wrap(text, width: width, first: "  ", rest: rest)
        }
    }

    private static func functions() -> CommandResult {
        let json = Value.array(Builtin.allCases.map { ["function": .string($0.signature), "summary": .string($0.summary)] })
        return CommandResult(lines: functionLines, json: json)
    }

    /// `help functions`: each function with what it does.
    static var functionLines: [String] {
        let width = Builtin.allCases.map(\.signature.count).max() ?? 0
        return ["Functions (lambdas only as arguments: map(xs, x => x * 2)):"]
            + Builtin.allCases.map { "  " + $0.signature.padding(to: width) + "  " + $0.summary }
    }

    /// `help values`: values, operators, statements and limits.
    static let valueLines = [
        "Values: null, true/false, integers (64-bit, overflow is an error), decimals, \"strings\" or 'strings',",
        "  [arrays], {objects: \"with keys in insertion order\"}; trailing commas are fine; \"n is \\(n)\" interpolates.",
        "  1 == 1.0 is true; 7 / 2 is 3.5 and 6 / 3 is 2.",
        "Operators, lowest precedence first:",
        "  c ? a : b    ??    ||    &&    == !=    < <= > >=    + -    * / %    ! -    .key [index] f(args)",
        "  + adds numbers, joins strings and arrays, and merges objects (right wins).",
        "  a?.b and a?[i] give null when a is null or has no b; x ?? y gives y when x is null.",
        "Names: $ (the incoming value), state, action, params, url, and any node's name.",
        "Statements (reducer, pipe and patch bodies), separated by ; or new lines inside { }:",
        "  state.path = EXPR    state.path += EXPR    state.path -= EXPR    delete state.path",
        "  if EXPR { ... } else { ... }    emit PORT EXPR",
        "Limits: arrays and objects nest at most 512 levels, in results and in the state; strings and arrays",
        "  hold at most 16 Mi bytes or elements; range(...) at most 1,000,000 numbers.",
        "  Each evaluation (an expression, a reducer's statements for one action, a wire's transform) has a",
        "  budget: 100,000,000 steps of work (one per operator, name, literal, call, and per element a function",
        "  goes through) and 1 GiB of values built (24 bytes an array element, 48 an object member, a string's",
        "  bytes; values only read are free). Over budget it stops with an error and changes nothing; start",
        "  patchbay with --work-budget STEPS or --memory-budget BYTES (512M, 4G) to change it. Ctrl-C stops it too.",
        "  reduce(xs, init, (acc, x) => acc + EXPR) and (acc, x) => append(acc, EXPR) grow acc in place.",
    ]

    private static func values() -> CommandResult {
        CommandResult(lines: valueLines, json: .array(valueLines.map { .string($0) }))
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
