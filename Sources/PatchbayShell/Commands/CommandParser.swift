@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

/// Turns the text of one command into a `Command`.
enum CommandParser {
    /// Parses `text`; `nil` when it holds no command (blank, or only a comment).
    static func parse(_ text: String, context: ParserContext = ParserContext()) throws(ShellError) -> Command? {
        var scanner = CommandScanner(text)
        scanner.skipBlanks()
        guard scanner.offset < scanner.bytes.count else { return nil }
        if scanner.bytes[scanner.offset] == UInt8(ascii: "=") {
            return .general(.evaluate(try expression(in: scanner, from: scanner.offset + 1)))
        }
        if let help = helpShortcut(scanner.bytes) { return .general(help) }
        guard let (word, wordRange) = scanner.name() else {
            let (word, range) = scanner.word() ?? ("", scanner.restRange)
            throw unknownCommand(word, at: range)
        }
        // Each family knows its own words, which are tried one by one. Stores come first:
        // replays run `dispatch` more than any other command; general commands before dataflow,
        // whose `set NAME = EXPR` is what a `set` that is not a setting is.
        if let command = try store(word, &scanner, context: context) { return .store(command) }
        if let command = try general(word, at: wordRange, &scanner) { return .general(command) }
        if let command = try dataflow(word, &scanner) { return .dataflow(command) }
        if let command = try route(word, &scanner) { return .route(command) }
        if let command = try timeTravel(word, &scanner, context: context) { return .timeTravel(command) }
        if let command = try session(word, &scanner, context: context) { return .session(command) }
        throw unknownCommand(word, at: wordRange)
    }

    /// Parses an expression that must run to the end of the command.
    static func expression(in scanner: CommandScanner, from offset: Int) throws(ShellError) -> Expression {
        let text = scanner.text
        do throws(ExpressionError) {
            let (expression, end) = try Expression.parse(text, utf8: scanner.bytes, from: offset)
            guard end >= scanner.bytes.count else { throw Expression.trailingInput(in: text, at: end) }
            return expression
        } catch {
            throw ShellError(error, in: text)
        }
    }

    static func expectEnd(_ scanner: inout CommandScanner, command: String) throws(ShellError) {
        guard scanner.isAtEnd else {
            let range = scanner.restRange
            let extra = String(decoding: scanner.bytes[range], as: UTF8.self)
            throw usage(command, "unexpected '\(Printable.escaped(extra, limit: 30))'", at: range)
        }
    }

    static func usage(_ command: String, _ detail: String, at range: Range<Int>) -> ShellError {
        let synopsis = CommandCatalog.info(for: command)?.synopsis ?? command
        return ShellError(.usage(command: command, detail: detail, synopsis: synopsis), at: range)
    }

    static func unknownCommand(_ word: String, at range: Range<Int>) -> ShellError {
        let suggestion = Spelling.closest(to: word, among: CommandCatalog.words.filter { $0 != "=" })
        return ShellError(.unknownCommand(Printable.escaped(word, limit: 30), suggestion: suggestion), at: range)
    }
}

/// What the parser needs to know about the session: which names are stores.
struct ParserContext {
    var storeNames: Set<String> = []
}
