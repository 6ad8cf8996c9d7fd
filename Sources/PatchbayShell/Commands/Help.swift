import PatchbayCore
import PatchbayGraph

/// The text of `help`, `help COMMAND`, `help functions` and `help values`.
enum Help {
    static let topics = ["functions", "values"]

    static func result(for topic: String?, at range: Range<Int>) throws(ShellError) -> CommandResult {
        guard let topic else { return overview() }
        if let info = CommandCatalog.info(for: topic) { return command(info) }
        switch topic {
        case "functions": return functions()
        case "values", "expressions", "statements": return values()
        default:
            let suggestion = Spelling.closest(to: topic, among: CommandCatalog.words + topics)
            throw ShellError(.unknownHelpTopic(Printable.escaped(topic, limit: 30), suggestion: suggestion), at: range)
        }
    }

    /// `help patch TYPE`: one patch type's ports and parameters.
    static func result(for type: PatchType) -> CommandResult {
        var lines = ["patch NAME \(type.name)" + type.parameters.map { " [\($0.name)=...]" }.joined(),
                     "  " + type.summary,
                     "  inputs: " + (type.inputs.isEmpty ? "none" : type.inputs.joined(separator: ", ")),
                     "  outputs: " + (type.outputs.isEmpty ? "none" : type.outputs.joined(separator: ", "))]
        for parameter in type.parameters {
            let fallback = parameter.defaultValue.map { " (default \($0))" } ?? " (required)"
            lines.append("  \(parameter.name)=  \(parameter.summary)\(fallback)")
        }
        lines.append("  A parameter named like an input sets its local value.")
        let json: Value = [
            "type": .string(type.name), "summary": .string(type.summary),
            "inputs": .array(type.inputs.map(Value.string)), "outputs": .array(type.outputs.map(Value.string)),
            "parameters": .array(type.parameters.map { .string($0.name) }),
        ]
        return CommandResult(lines: lines, json: json)
    }

    private static func overview() -> CommandResult {
        let width = CommandCatalog.commands.map(\.synopsis.count).max() ?? 0
        var lines = ["Commands:"]
        for info in CommandCatalog.commands {
            lines.append("  " + info.synopsis.padding(to: width) + "  " + info.summary)
        }
        lines.append("Type 'help COMMAND' for its syntax and an example; 'help functions' and 'help values' for expressions.")
        let json = Value.array(CommandCatalog.commands.map {
            ["command": .string($0.name), "synopsis": .string($0.synopsis), "summary": .string($0.summary)]
        })
        return CommandResult(lines: lines, json: json)
    }

    private static func command(_ info: CommandInfo) -> CommandResult {
        var lines = [info.synopsis, "  " + info.summary]
        if !info.details.isEmpty { lines += [""] + info.details.map { "  " + $0 } }
        if !info.examples.isEmpty { lines += ["", "Example:"] + info.examples.map { "  " + $0 } }
        let json: Value = [
            "command": .string(info.name), "synopsis": .string(info.synopsis), "summary": .string(info.summary),
            "details": .array(info.details.map { .string($0) }), "examples": .array(info.examples.map { .string($0) }),
        ]
        return CommandResult(lines: lines, json: json)
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
