@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

/// `help`, `help COMMAND [SUBCOMMAND]`, `help functions`, `help values` and `apropos WORD`:
/// what each finds in the catalog (its reports in `HelpReports.swift` lay it out to the
/// terminal's width), and the wrapping they share.
enum Help {
    static let topics = ["functions", "values"]

    /// `help [TOPIC [SUBCOMMAND]]`
    static func result(for topic: String?, subcommand: (text: String, range: Range<Int>)? = nil,
                       at range: Range<Int>) throws(ShellError) -> CommandResult {
        guard let topic else { return CommandResult(HelpOverview()) }
        if let info = CommandCatalog.info(for: topic) {
            guard let subcommand else { return CommandResult(CommandHelp(info: info)) }
            return try self.subcommand(subcommand.text, of: info, at: subcommand.range)
        }
        if let subcommand { throw unknownTopic(topic + " " + subcommand.text, at: range.lowerBound..<subcommand.range.upperBound) }
        switch topic {
        case "functions": return CommandResult(FunctionsHelp())
        case "values", "expressions", "statements": return CommandResult(ValuesHelp())
        default: throw unknownTopic(topic, at: range)
        }
    }

    private static func unknownTopic(_ topic: String, at range: Range<Int>) -> ShellError {
        let suggestion = Spelling.closest(to: topic, among: CommandCatalog.words + topics)
        return ShellError(.unknownHelpTopic(Printable.escaped(topic, limit: 30), suggestion: suggestion), at: range)
    }

    /// `apropos WORD`: every command and function with WORD (any case) in a word of its synopsis,
    /// summary or details, one line each.
    static func apropos(_ word: String) -> CommandResult {
        let needle = word.lowercased()
        let commands = CommandCatalog.commands.filter { info in
            ([info.synopsis, info.summary] + info.details + info.aliases).contains { mentions($0, needle) }
        }
        let functions = Builtin.allCases.filter { mentions($0.signature, needle) || mentions($0.summary, needle) }
        return CommandResult(AproposMatches(word: word, commands: commands, functions: functions))
    }

    /// Whether `text` has `needle` (lower case) in one of its words, ignoring case: as a whole
    /// word or a part of one (`record` finds `recording`).
    private static func mentions(_ text: String, _ needle: String) -> Bool {
        !needle.isEmpty && text.lowercased().contains(needle)
    }

    /// `help patch TYPE`: one patch type's ports and parameters.
    static func result(for type: PatchType) -> CommandResult {
        CommandResult(PatchTypeHelp(type: type))
    }

    /// A synopsis wrapped between its forms (`A | B`) where it can, a form that does not fit on
    /// a line wrapped at blanks; the lines after the first start with `rest` and `| `.
    static func wrapSynopsis(_ synopsis: String, width: Int, first: String, rest: String) -> [String] {
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
    static func forms(of info: CommandInfo) -> [String] {
        info.synopsis.components(separatedBy: " | ")
    }

    /// `help COMMAND SUBCOMMAND`: the forms, details and examples that name SUBCOMMAND, then the
    /// whole help of the command.
    private static func subcommand(_ word: String, of info: CommandInfo, at range: Range<Int>) throws(ShellError) -> CommandResult {
        guard forms(of: info).contains(where: { words(of: $0).contains(word) }) else {
            let suggestion = Spelling.closest(to: word, among: subcommands(of: info.name)).map { info.name + " " + $0 }
            throw ShellError(.unknownHelpTopic(Printable.escaped(info.name + " " + word, limit: 40), suggestion: suggestion), at: range)
        }
        return CommandResult(CommandHelp(info: info, subcommand: word))
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
    static func words(of line: String) -> [String] {
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
    static func paragraphs(of info: CommandInfo) -> [Paragraph] {
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
    struct Paragraph {
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
        "  bytes; a value put into an array or object, or joined by a function or +, counts in full in each",
        "  place, so [a, a] costs twice a; values only read and passed on are free). Over budget it stops with",
        "  an error and changes nothing (a reducer's action that stops so is kept in the history, marked failed,",
        "  as for any failing reducer); start patchbay with --work-budget STEPS (steps of work, as counted",
        "  above) or --memory-budget BYTES (512M, 4G) to change it. Ctrl-C stops it too.",
        "  reduce(xs, init, (acc, x) => acc + EXPR) and (acc, x) => append(acc, EXPR) grow acc in place.",
    ]
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
