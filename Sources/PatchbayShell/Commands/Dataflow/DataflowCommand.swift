@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

/// A command of PatchbayHost.docc/Dataflow.md: nodes, wires, probes, transactions, the clock.
enum DataflowCommand: Sendable {
    case variable(Name, Expression)
    case derive(Name, Expression)
    case signal(Name)
    case send(Name, Expression)
    case close(Name)
    case set(Name, Expression)
    case setInput(Target, Expression)
    case touch(Target)
    case patch(Name, type: Name, arguments: [(Name, Expression)])
    case patchTypes
    /// `eventOutputs` are the outputs declared `event NAME`.
    case patchType(Name, inputs: [Name], outputs: [Name], eventOutputs: [Name], body: StatementBlock)
    case knot(Name, Expression)
    case wire(from: Target, to: Target, condition: Expression?, transform: Expression?, isDelay: Bool, future: Bool)
    /// `unwire DST.PORT`, or `unwire SRC.PORT -> DST.PORT` (`from`).
    case unwire(from: Target?, to: Target)
    case bind(Name, Name)
    case unbind(Name, Name)
    case connector(ConnectorAction)
    case pipe(from: Target, to: Name, condition: Expression?, body: StatementBlock)
    case probe(Target, future: Bool)
    case unprobe(Target?)
    case begin
    case commit
    case abort
    case tick(milliseconds: Int?)
    case clock
    case tap(Name, x: Int, y: Int)
    case nodes
    case show(Target)
    /// `show STORE #N`: one action of the store's history, with where it came from.
    case showStep(store: Name, index: Int, range: Range<Int>)
    case remove(Name)
    case graph(dot: Bool, file: Name?, force: Bool)
    case render
    case why(Target)
}

extension DataflowCommand {
    /// How a recording holds the command (see `RecordedForm`): `graph --dot FILE` as a note (a
    /// replay writes no file).
    var recordedForm: RecordedForm {
        if case .graph(dot: true, file: _?, force: _) = self { .note } else { .itself }
    }

    /// Whether rolling the session back takes back what the command did (see `LastingChanges`).
    var isTakenBackWithItsNodes: Bool {
        switch self {
        case .variable, .derive, .signal, .send, .set, .setInput, .touch, .patch, .patchTypes, .knot, .wire, .tick, .clock,
             .nodes, .show, .showStep, .render, .why:
            true
        case .graph(_, let file, _):
            file == nil
        default:
            false
        }
    }
}

/// What `connector` does.
enum ConnectorAction: Sendable {
    /// `connector NAME`
    case open(Name)
    /// `connector end`
    case end
    /// `connector list`
    case list
    /// `connector NAME add DST.PORT | SRC.PORT -> DST.PORT ...`
    case add(Name, wires: [(source: Target?, target: Target)])
    /// `connector NAME disconnect`
    case disconnect(Name)
}

extension CommandParser {
    /// Parses the dataflow command that starts with `word`, or returns `nil` for other words.
    static func dataflow(_ word: String, _ scanner: inout CommandScanner) throws(ShellError) -> DataflowCommand? {
        let command: DataflowCommand
        switch word {
        case "var", "derive", "knot":
            let name = try scanner.requireNewName(command: word)
            try scanner.requireSymbol("=", command: word)
            let expression = try scanner.expression(command: word)
            command = word == "var" ? .variable(name, expression) : word == "derive" ? .derive(name, expression) : .knot(name, expression)
        case "signal":
            command = .signal(try scanner.requireNewName(command: word))
        case "send":
            let name = try scanner.requireName("the signal to send on", command: word)
            command = .send(name, try scanner.expression(command: word))
        case "close":
            command = .close(try scanner.requireName("the signal to close", command: word))
        case "set":
            let target = try scanner.requireTarget("a variable, a knot or NODE.PORT", command: word)
            try scanner.requireSymbol("=", command: word)
            let expression = try scanner.expression(command: word)
            command = target.port == nil ? .set(target.node, expression) : .setInput(target, expression)
        case "touch":
            command = .touch(try scanner.requireTarget("the node or NODE.PORT to touch", command: word))
        case "patch":
            if scanner.keyword("types") {
                command = .patchTypes
                break
            }
            let name = try scanner.requireNewName(command: word)
            let type = try scanner.requireName("the patch type (see 'patch types')", command: word)
            var arguments: [(Name, Expression)] = []
            while !scanner.isAtEnd {
                let parameter = try scanner.requireName("PARAM=EXPR", command: word)
                guard scanner.symbol("=") else { throw scanner.missing("'=' after \(parameter.text)", command: word) }
                arguments.append((parameter, try scanner.expression(command: word)))
            }
            command = .patch(name, type: type, arguments: arguments)
        case "patchtype":
            command = try patchType(&scanner)
        case "wire":
            let source = try scanner.requireAddress("the source output", command: word)
            let isDelay: Bool
            if scanner.symbol("->") { isDelay = false } else if scanner.symbol("~>") { isDelay = true } else {
                throw scanner.missing("'->' (or '~>' for a delay edge)", command: word)
            }
            let target = try scanner.requireAddress("the input to wire", command: word)
            let flagStart = scanner.restRange.lowerBound
            let future = scanner.symbol("--future")
            if future, isDelay {
                throw usage(word, "--future is for -> wires: a delay edge (~>) never replays", at: flagStart..<flagStart + 8)
            }
            var condition: Expression?, transform: Expression?
            if !isDelay, scanner.keyword("when") { condition = try scanner.expression(command: word) }
            if !isDelay, scanner.symbol(":") { transform = try scanner.expression(command: word) }
            command = .wire(from: source, to: target, condition: condition, transform: transform, isDelay: isDelay, future: future)
        case "unwire":
            let first = try scanner.requireAddress("the input to unwire (or SRC.PORT -> DST.PORT)", command: word)
            if scanner.symbol("->") || scanner.symbol("~>") {
                command = .unwire(from: first, to: try scanner.requireAddress("the input to unwire", command: word))
            } else {
                command = .unwire(from: nil, to: first)
            }
        case "bind", "unbind":
            let first = try scanner.requireName("two variables", command: word)
            let second = try scanner.requireName("a second variable", command: word)
            command = word == "bind" ? .bind(first, second) : .unbind(first, second)
        case "pipe":
            let source = try scanner.requireAddress("the source output", command: word)
            try scanner.requireSymbol("->", command: word)
            let knot = try scanner.requireName("the knot to reduce", command: word)
            let condition = scanner.keyword("when") ? try scanner.expression(command: word) : nil
            try scanner.requireSymbol(":", command: word)
            command = .pipe(from: source, to: knot, condition: condition, body: try scanner.statements(command: word))
        case "connector":
            if scanner.keyword("end") {
                command = .connector(.end)
            } else if scanner.keyword("list") {
                command = .connector(.list)
            } else {
                let name = try scanner.requireName("the connector's name, or end, list", command: word)
                if scanner.keyword("disconnect") {
                    command = .connector(.disconnect(name))
                } else if scanner.keyword("add") {
                    var wires: [(source: Target?, target: Target)] = []
                    repeat {
                        let first = try scanner.requireAddress("the input whose wire to add (or SRC.PORT -> DST.PORT)", command: word)
                        if scanner.symbol("->") || scanner.symbol("~>") {
                            wires.append((first, try scanner.requireAddress("the input whose wire to add", command: word)))
                        } else {
                            wires.append((nil, first))
                        }
                    } while !scanner.isAtEnd
                    command = .connector(.add(name, wires: wires))
                } else {
                    command = .connector(.open(name))
                }
            }
        case "probe":
            let target = try scanner.requireTarget("the node or NODE.PORT to probe", command: word)
            command = .probe(target, future: scanner.symbol("--future"))
        case "unprobe":
            command = scanner.keyword("all") ? .unprobe(nil) : .unprobe(try scanner.requireTarget("a probe target or all", command: word))
        case "begin": command = .begin
        case "commit": command = .commit
        case "abort": command = .abort
        case "tick":
            var milliseconds: Int?
            if scanner.atInteger {
                let (value, range) = try scanner.integer("milliseconds", command: word)
                guard value >= 0 else { throw usage(word, "the clock only moves forward: give milliseconds of 0 or more", at: range) }
                milliseconds = value
            }
            command = .tick(milliseconds: milliseconds)
        case "clock": command = .clock
        case "tap":
            let view = try scanner.requireName("the view to tap", command: word)
            let x = try scanner.integer("X", command: word).0
            command = .tap(view, x: x, y: try scanner.integer("Y", command: word).0)
        case "nodes": command = .nodes
        case "show":
            let target = try scanner.requireTarget("the node or NODE.PORT to show, or STORE #N", command: word)
            scanner.skipBlanks()
            if target.port == nil, scanner.offset < scanner.bytes.count, scanner.bytes[scanner.offset] == UInt8(ascii: "#") {
                let start = scanner.offset
                scanner.offset += 1
                let (index, range) = try scanner.integer("the action's number after # (see 'history')", command: word)
                command = .showStep(store: target.node, index: index, range: start..<range.upperBound)
            } else {
                command = .show(target)
            }
        case "rm": command = .remove(try scanner.requireName("the node to remove", command: word))
        case "graph":
            let dot = scanner.symbol("--dot")
            let file = dot && !scanner.startsFlag ? scanner.word().map { Name(text: $0.0, range: $0.1) } : nil
            let force = file == nil ? false : try scanner.flags(["--force"], command: word).contains("--force")
            command = .graph(dot: dot, file: file, force: force)
        case "render": command = .render
        case "why": command = .why(try scanner.requireTarget("the node or NODE.PORT to explain", command: word))
        default:
            return nil
        }
        try expectEnd(&scanner, command: word)
        return command
    }

    /// `patchtype NAME (IN, ...) -> (OUT, event OUT, ...) { STATEMENTS }`
    private static func patchType(_ scanner: inout CommandScanner) throws(ShellError) -> DataflowCommand {
        let word = "patchtype"
        let name = try scanner.requireName("the new type's name", command: word)
        // `event NAME` declares an event port among the outputs.
        var eventOutputs: [Name] = []
        func names(_ what: String, events: Bool = false) throws(ShellError) -> [Name] {
            try scanner.requireSymbol("(", command: word)
            var names: [Name] = []
            while !scanner.symbol(")") {
                var name = try scanner.requireName(what, command: word)
                if events, name.text == "event", let (text, range) = scanner.name() {
                    name = Name(text: text, range: range)
                    eventOutputs.append(name)
                }
                names.append(name)
                if !scanner.symbol(",") {
                    try scanner.requireSymbol(")", command: word)
                    break
                }
            }
            return names
        }
        let inputs = try names("an input name")
        try scanner.requireSymbol("->", command: word)
        let outputs = try names("an output name (event NAME for an event port)", events: true)
        scanner.skipBlanks()
        guard scanner.offset < scanner.bytes.count, scanner.bytes[scanner.offset] == UInt8(ascii: "{") else {
            throw scanner.missing("'{' to start the body", command: word)
        }
        return .patchType(name, inputs: inputs, outputs: outputs, eventOutputs: eventOutputs, body: try scanner.statements(command: word))
    }
}
