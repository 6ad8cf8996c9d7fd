@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

/// A command of PatchbayHost.docc/StoresInTheShell.md: stores, reducers, dispatch, state.
enum StoreCommand: Sendable {
    case store(Name, Expression)
    case addReducer(id: Name?, store: Name, type: Name, path: [ValueChange.PathComponent]?, condition: Expression?, delay: Int?, body: StatementBlock)
    case listReducers(Name?)
    case removeReducer(Name)
    /// `reducer ID : STATEMENTS`: a new body for a reducer, in place.
    case replaceReducer(Name, body: StatementBlock)
    /// `middleware [ID =] STORE [on TYPE] : STATEMENTS`
    case addMiddleware(id: Name?, store: Name, type: Name?, body: StatementBlock)
    case listMiddleware(Name?)
    case removeMiddleware(Name)
    /// `dispatch [STORE] TYPE [EXPR]`, or `dispatch [STORE] {type: TYPE, ...}` (`type` is then
    /// `nil` and `payload` is the whole action).
    case dispatch(store: Name?, type: Name?, payload: Expression?)
    /// `state [STORE][.PATH] [--tree]`: the store, and the path as an expression over `state`
    /// with the offset where the path starts in the command (carets of its errors go no further
    /// left); `tree` prints the value over indented lines.
    case state(store: Name?, path: Expression?, pathStart: Int, tree: Bool)
    /// `use [STORE]`: selects the store that commands leaving out STORE use (none: clears it).
    case use(Name?)
    /// `edit REDUCER`: the reducer's statements in the user's editor, applied when it exits.
    case edit(Name)
}

extension StoreCommand {
    /// How a recording holds the command (see `RecordedForm`): `edit` as the reducer it made.
    var recordedForm: RecordedForm {
        if case .edit = self { .whatItRuns } else { .itself }
    }

    /// Whether rolling the session back takes back what the command did (see `LastingChanges`).
    var isTakenBackWithItsNodes: Bool {
        switch self {
        case .store, .dispatch, .state, .use, .listReducers, .listMiddleware: true
        default: false
        }
    }

    /// The store a `reducer` or `middleware` command adds to.
    var storeItExtends: String? {
        switch self {
        case .addReducer(_, let store, _, _, _, _, _), .addMiddleware(_, let store, _, _): store.text
        default: nil
        }
    }

    /// Whether people read the command's result before the events it set off: a `dispatch`'s
    /// action comes before the actions its middleware and wires dispatch after it, and before
    /// what the probes saw of it. (JSON keeps each command's line last: a reader knows the
    /// command ended.)
    var printsBeforeItsEvents: Bool {
        if case .dispatch = self { true } else { false }
    }

    /// The command with `store` for a STORE left out (see `Command.selecting(_:at:)`).
    func selecting(_ store: Name) -> StoreCommand {
        switch self {
        case .dispatch(nil, let type, let payload): .dispatch(store: store, type: type, payload: payload)
        case .state(nil, let path, let pathStart, let tree): .state(store: store, path: path, pathStart: pathStart, tree: tree)
        case .listReducers(nil): .listReducers(store)
        case .listMiddleware(nil): .listMiddleware(store)
        default: self
        }
    }
}

extension CommandParser {
    /// Parses the store command that starts with `word`, or returns `nil` for other words.
    static func store(_ word: String, _ scanner: inout CommandScanner, context: ParserContext) throws(ShellError) -> StoreCommand? {
        let command: StoreCommand
        switch word {
        case "dispatch":  // First: the command that replays run most.
            command = try dispatch(&scanner, context: context)
        case "store":
            let name = try scanner.requireNewName(command: word)
            try scanner.requireSymbol("=", command: word)
            command = .store(name, try scanner.expression(command: word))
        case "reducer":
            if scanner.keyword("list") {
                command = .listReducers(scanner.name().map { Name(text: $0.0, range: $0.1) })
            } else if scanner.keyword("rm") {
                command = .removeReducer(try scanner.requireName("the reducer's id (r1, r2, ...)", command: word))
            } else {
                command = try reducer(&scanner)
            }
        case "middleware":
            if scanner.keyword("list") {
                command = .listMiddleware(scanner.name().map { Name(text: $0.0, range: $0.1) })
            } else if scanner.keyword("rm") {
                command = .removeMiddleware(try scanner.requireName("the middleware's id (m1, m2, ...)", command: word))
            } else {
                command = try middleware(&scanner)
            }
        case "state":
            command = try state(&scanner, context: context)
        case "use":
            command = .use(scanner.name().map { Name(text: $0.0, range: $0.1) })
        case "edit":
            command = .edit(try scanner.requireName("the reducer's id (r1, r2, ...)", command: word))
        default:
            return nil
        }
        try expectEnd(&scanner, command: word)
        return command
    }

    /// `dispatch [STORE] TYPE [EXPR]` or `dispatch [STORE] {type: TYPE, ...}`
    private static func dispatch(_ scanner: inout CommandScanner, context: ParserContext) throws(ShellError) -> StoreCommand {
        let word = "dispatch"
        if startsObject(&scanner) { return .dispatch(store: nil, type: nil, payload: try scanner.expression(command: word)) }
        let first = try scanner.requireName("the action type", command: word)
        guard context.storeNames.contains(first.text) else {
            if scanner.isAtEnd { return .dispatch(store: nil, type: first, payload: nil) }
            var probe = scanner
            let payload = try scanner.expression(command: word)
            // TYPE EXPR, unless more follows the EXPR and the words read as a name and an EXPR:
            // then they were STORE TYPE EXPR, with a STORE that is no store (`dispatch ap toggle {id: 1}`).
            if !scanner.isAtEnd, probe.name() != nil, (try? probe.expression(command: word)) != nil, probe.isAtEnd {
                let stores = context.storeNames.sorted()
                throw ShellError(.unknownStore(first.text, suggestion: Spelling.closest(to: first.text, among: stores), stores: stores),
                                 at: first.range)
            }
            return .dispatch(store: nil, type: first, payload: payload)
        }
        if startsObject(&scanner) { return .dispatch(store: first, type: nil, payload: try scanner.expression(command: word)) }
        guard let (second, range) = scanner.name() else {
            if scanner.isAtEnd {
                throw usage(word, "\(first.text) is a store: name the action type after it (dispatch \(first.text) TYPE) "
                            + "or give the whole action (dispatch \(first.text) {type: 'TYPE'})", at: first.range)
            }
            throw scanner.missing("the action type", command: word)
        }
        return .dispatch(store: first, type: Name(text: second, range: range),
                         payload: scanner.isAtEnd ? nil : try scanner.expression(command: word))
    }

    /// Consumes `flag` if it comes next as a whole word.
    private static func leadingFlag(_ flag: String, _ scanner: inout CommandScanner) -> Bool {
        var probe = scanner
        guard let (word, _) = probe.word(), word == flag else { return false }
        scanner = probe
        return true
    }

    /// Whether the next argument is an object literal (a whole action), after blanks.
    private static func startsObject(_ scanner: inout CommandScanner) -> Bool {
        scanner.skipBlanks()
        return scanner.offset < scanner.bytes.count && scanner.bytes[scanner.offset] == UInt8(ascii: "{")
    }

    /// `reducer [ID =] STORE on TYPE [at PATH] [when EXPR] [after MS] : STATEMENTS`, or
    /// `reducer ID : STATEMENTS` (a name followed by `:` is a reducer's id: a store needs `on`).
    private static func reducer(_ scanner: inout CommandScanner) throws(ShellError) -> StoreCommand {
        let word = "reducer"
        var store = try scanner.requireName("the store (or the id of the reducer to replace)", command: word)
        if scanner.symbol(":") { return .replaceReducer(store, body: try scanner.statements(command: word)) }
        var id: Name?
        if scanner.symbol("=") {
            id = store
            store = try scanner.requireName("the store", command: word)
        }
        guard scanner.keyword("on") else { throw scanner.missing("'on' and the action type", command: word) }
        let type: Name
        scanner.skipBlanks()
        if scanner.symbol("*") {
            type = Name(text: "*", range: scanner.offset - 1..<scanner.offset)
        } else {
            type = try scanner.requireName("the action type (or *)", command: word)
        }
        var path: [ValueChange.PathComponent]?, condition: Expression?, delay: Int?
        while true {
            if path == nil, scanner.keyword("at") {
                path = try self.path(&scanner, command: word)
            } else if condition == nil, scanner.keyword("when") {
                condition = try scanner.expression(command: word)
            } else if delay == nil, scanner.keyword("after") {
                let (milliseconds, range) = try scanner.integer("the delay in milliseconds", command: word)
                guard (0...VirtualClock.maximumDelay).contains(milliseconds) else {
                    throw usage(word, "after \(milliseconds): the delay must be between 0 and \(VirtualClock.maximumDelay) ms, the longest wait of the virtual clock",
                                at: range)
                }
                delay = milliseconds
            } else {
                break
            }
        }
        guard scanner.symbol(":") else { throw scanner.missing("':' and the statements (or at, when, after)", command: word) }
        return .addReducer(id: id, store: store, type: type, path: path, condition: condition, delay: delay,
                           body: try scanner.statements(command: word))
    }

    /// `middleware [ID =] STORE [on TYPE] : STATEMENTS`
    private static func middleware(_ scanner: inout CommandScanner) throws(ShellError) -> StoreCommand {
        let word = "middleware"
        var store = try scanner.requireName("the store (or list, rm)", command: word)
        var id: Name?
        if scanner.symbol("=") {
            id = store
            store = try scanner.requireName("the store", command: word)
        }
        var type: Name?
        if scanner.keyword("on") {
            scanner.skipBlanks()
            if scanner.symbol("*") {
                type = Name(text: "*", range: scanner.offset - 1..<scanner.offset)
            } else {
                type = try scanner.requireName("the action type (or *)", command: word)
            }
        }
        guard scanner.symbol(":") else { throw scanner.missing("':' and the statements (or 'on TYPE')", command: word) }
        return .addMiddleware(id: id, store: store, type: type, body: try scanner.statements(command: word, context: .middleware))
    }

    /// A path written as in expressions, after `state`: `user.name`, `items[0]`, or as `state`
    /// takes it after a store, `.user.name`, `[0].title`.
    static func path(_ scanner: inout CommandScanner, command: String) throws(ShellError) -> [ValueChange.PathComponent] {
        var components: [ValueChange.PathComponent] = []
        scanner.skipBlanks()
        let leadingDot = scanner.offset + 1 < scanner.bytes.count && scanner.bytes[scanner.offset] == UInt8(ascii: ".")
            && scanner.bytes[scanner.offset + 1].isNameStartByte
        if leadingDot { scanner.offset += 1 }
        if leadingDot || scanner.offset >= scanner.bytes.count || scanner.bytes[scanner.offset] != UInt8(ascii: "[") {
            components.append(.key(try scanner.requireName("a path such as user.name", command: command).text))
        }
        while scanner.offset < scanner.bytes.count {
            if scanner.bytes[scanner.offset] == UInt8(ascii: "."), scanner.offset + 1 < scanner.bytes.count,
                scanner.bytes[scanner.offset + 1].isNameStartByte
            {
                scanner.offset += 1
                components.append(.key(try scanner.requireName("a key", command: command).text))
            } else if scanner.bytes[scanner.offset] == UInt8(ascii: "[") {
                scanner.offset += 1
                let (index, range) = try scanner.integer("an index", command: command)
                guard index >= 0 else { throw usage(command, "an index is not negative", at: range) }
                try scanner.requireSymbol("]", command: command)
                components.append(.index(index))
            } else {
                break
            }
        }
        return components
    }

    /// `state [STORE][.PATH] [--tree]` (`--tree` may also come first; `--pretty` is the same).
    private static func state(_ scanner: inout CommandScanner, context: ParserContext) throws(ShellError) -> StoreCommand {
        let flags = ["--tree", "--pretty"]
        var tree = flags.contains { leadingFlag($0, &scanner) }
        // Where the path ends: before a `--tree` at the end.
        var end = scanner.bytes.count
        while end > scanner.offset, [UInt8(ascii: " "), UInt8(ascii: "\t")].contains(scanner.bytes[end - 1]) { end -= 1 }
        for flag in flags.map({ Array($0.utf8) }) where end - flag.count > scanner.offset {
            let start = end - flag.count
            if scanner.bytes[start..<end].elementsEqual(flag), [UInt8(ascii: " "), UInt8(ascii: "\t")].contains(scanner.bytes[start - 1]) {
                tree = true
                end = start
                break
            }
        }
        func atEnd(_ scanner: CommandScanner) -> Bool {
            var probe = scanner
            probe.skipBlanks()
            return probe.offset >= end
        }
        defer { if atEnd(scanner) { scanner.offset = scanner.bytes.count } }
        scanner.skipBlanks()
        guard !atEnd(scanner) else { return .state(store: nil, path: nil, pathStart: scanner.offset, tree: tree) }
        var store: Name?
        var probe = scanner
        if let (name, range) = probe.name(), context.storeNames.contains(name) {
            store = Name(text: name, range: range)
            scanner = probe
        }
        guard !atEnd(scanner) else { return .state(store: store, path: nil, pathStart: scanner.offset, tree: tree) }
        // The rest reads as a path of `state`: `.items[0]` or, without a store, `items[0]`.
        scanner.skipBlanks()
        let start = scanner.offset
        let rest = String(decoding: scanner.bytes[start..<end], as: UTF8.self)
        let prefix = rest.hasPrefix(".") || rest.hasPrefix("[") ? "state" : "state."
        let source = String(repeating: " ", count: Swift.max(0, start - prefix.utf8.count)) + prefix + rest
        let shift = source.utf8.count - scanner.bytes.count
        do throws(ExpressionError) {
            let expression = try Expression(source)
            scanner.offset = scanner.bytes.count
            return .state(store: store, path: expression, pathStart: start, tree: tree)
        } catch {
            let range = Swift.max(0, error.range.lowerBound - shift)..<Swift.max(0, error.range.upperBound - shift)
            throw ShellError(ExpressionError(error.reason, at: range), in: scanner.text)
        }
    }
}
