@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

/// A command of the General area of `help`: expressions, help, scripts, settings and the session.
enum GeneralCommand: Sendable {
    /// `= EXPR`
    case evaluate(Expression)
    /// `help [TOPIC [SUBCOMMAND]]`, or `help patch TYPE`
    case help(topic: String?, subcommand: Name?, range: Range<Int>)
    /// `apropos WORD`
    case apropos(Name)
    case helpPatchType(Name)
    /// `load FILE`
    case load(path: String, range: Range<Int>)
    /// `save FILE [--force]`
    case save(path: String, range: Range<Int>, force: Bool)
    case reset
    /// `set`, `set NAME` or `set NAME VALUE`: the settings of human output (not `set NAME = EXPR`).
    case setting(name: Name?, value: Name?)
    case quit
}

extension GeneralCommand {
    /// How a recording holds the command (see `RecordedForm`): a `load` as the commands it ran,
    /// a `save` as a note (a replay writes no file).
    var recordedForm: RecordedForm {
        switch self {
        case .load: .whatItRuns
        case .save: .note
        default: .itself
        }
    }

    /// Whether rolling the session back takes back what the command did (see `LastingChanges`).
    var isTakenBackWithItsNodes: Bool {
        switch self {
        case .evaluate, .help, .apropos, .helpPatchType, .setting, .load, .quit: true
        case .save, .reset: false
        }
    }
}

extension CommandParser {
    /// `?` is `help`, and `COMMAND?` or `COMMAND SUBCOMMAND?` is `help COMMAND [SUBCOMMAND]`, as
    /// in IPython: one or two words, then `?` and nothing else but blanks.
    static func helpShortcut(_ bytes: [UInt8]) -> GeneralCommand? {
        var end = bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
        guard end > 0, bytes[end - 1] == UInt8(ascii: "?") else { return nil }
        var words: [(text: String, range: Range<Int>)] = []
        var index = 0
        while index < end - 1 {
            let byte = bytes[index]
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                index += 1
                continue
            }
            let start = index
            while index < end - 1, isWordByte(bytes[index]) { index += 1 }
            guard index > start else { return nil }
            words.append((String(decoding: bytes[start..<index], as: UTF8.self), start..<index))
        }
        switch words.count {
        case 0: return .help(topic: nil, subcommand: nil, range: (end - 1)..<end)
        case 1: return .help(topic: words[0].text, subcommand: nil, range: words[0].range)
        case 2: return .help(topic: words[0].text, subcommand: Name(text: words[1].text, range: words[1].range), range: words[0].range)
        default: return nil
        }
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    /// Parses the general command that starts with `word` (at `wordRange`), or returns `nil`
    /// for other words (`set NAME = EXPR` among them, a dataflow command).
    static func general(_ word: String, at wordRange: Range<Int>, _ scanner: inout CommandScanner) throws(ShellError) -> GeneralCommand? {
        switch word {
        case "help":
            let topic = scanner.word()
            // `help patch types` is the form `patch types`; any other word is a patch type.
            var probe = scanner
            if topic?.0 == "patch", !scanner.isAtEnd, !(probe.keyword("types") && probe.isAtEnd) {
                let type = try scanner.requireName("a patch type (see 'patch types')", command: "help")
                try expectEnd(&scanner, command: "help")
                return .helpPatchType(type)
            }
            let subcommand = topic == nil ? nil : scanner.word().map { Name(text: $0.0, range: $0.1) }
            try expectEnd(&scanner, command: "help")
            return .help(topic: topic?.0, subcommand: subcommand, range: topic?.1 ?? wordRange)
        case "apropos":
            guard let (word, range) = scanner.word() else { throw usage("apropos", "missing the word to look for", at: scanner.restRange) }
            try expectEnd(&scanner, command: "apropos")
            return .apropos(Name(text: word, range: range))
        case "load":
            guard let (path, range) = scanner.word() else {
                throw usage("load", "missing the file to load", at: scanner.restRange)
            }
            try expectEnd(&scanner, command: "load")
            return .load(path: path, range: range)
        case "save":
            guard let (path, range) = scanner.word() else {
                throw usage("save", "missing the file to save to", at: scanner.restRange)
            }
            guard !path.isEmpty else { throw usage("save", "the file name is empty", at: range) }
            return .save(path: path, range: range, force: try scanner.flags(["--force"], command: "save").contains("--force"))
        case "reset":
            try expectEnd(&scanner, command: "reset")
            return .reset
        case "set" where isSetting(scanner):
            let name = scanner.name().map { Name(text: $0.0, range: $0.1) }
            let value = scanner.word().map { Name(text: $0.0, range: $0.1) }
            try expectEnd(&scanner, command: "set")
            return .setting(name: name, value: value)
        case "quit", "exit":
            try expectEnd(&scanner, command: "quit")
            return .quit
        default:
            return nil
        }
    }

    /// Whether `set` goes on as a setting (`set`, `set width 100`) rather than as a write to a
    /// node (`set NAME = EXPR`): nothing follows, or a setting's name not followed by `=` or `.`.
    private static func isSetting(_ scanner: CommandScanner) -> Bool {
        var probe = scanner
        guard !probe.isAtEnd else { return true }
        guard let (name, _) = probe.name() else { return false }
        if probe.offset < probe.bytes.count, probe.bytes[probe.offset] == UInt8(ascii: ".") { return false }
        guard !probe.symbol("=") else { return false }
        // A misspelt setting (`set widht 100`) is said to be one, rather than a `set` missing its `=`.
        return ShellSettings.setting(named: name) != nil || Spelling.closest(to: name, among: ShellSettings.names) != nil
    }
}
