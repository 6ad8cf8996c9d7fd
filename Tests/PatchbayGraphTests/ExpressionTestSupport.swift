@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

// Helpers shared by the expression-language tests.

/// A state to read from: `state.count`, `state.user.name`, `state.items[0].title`, ...
let sampleState: Value = [
    "count": 2,
    "user": ["name": "Max"],
    "items": [["title": "Milk", "done": false], ["title": "Eggs", "done": true]],
    "xs": [1, 2, 3],
    "nothing": nil,
]

/// Bindings with `sampleState` as `state`; `$`, `action`, `params` and `url` unset.
let sampleBindings = Bindings(state: sampleState)

/// An environment holding a few named nodes, one of them with ports.
struct SampleEnvironment: ExpressionEnvironment {
    var nodes: [String: Value] = ["counter": 5, "total": 10, "profile": ["name": "Ada"]]
    /// `clock.tick` is a port; `clock.silent` is a port without a value yet.
    var ports: [String: [String: NameLookup]] = ["clock": ["tick": .value(7), "silent": .empty("clock.silent is empty")]]

    func lookup(name: String) -> NameLookup {
        if let value = nodes[name] { return .value(value) }
        if ports[name] != nil { return .value(.null) }
        return .unknown
    }

    func lookup(node: String, port: String) -> NameLookup {
        ports[node]?[port] ?? .unknown
    }

    var knownNames: [String] { nodes.keys.sorted() + ports.keys.sorted() }
}

/// Parses and evaluates `source`; the result printed as a literal, which tells `2` from `2.0` and
/// keeps key order, so comparing it is exact.
func literal(
    of source: String, _ bindings: Bindings = sampleBindings, in environment: any ExpressionEnvironment = SampleEnvironment()
) throws -> String {
    try Expression(source).evaluate(bindings, in: environment).description
}

/// What a user sees of an error: the message naming the offending text, and the column of the caret.
struct Problem: Equatable, CustomStringConvertible {
    var message: String
    var column: Int

    init(_ message: String, column: Int) {
        self.message = message
        self.column = column
    }

    init(_ error: ExpressionError, in source: String) {
        self.init(error.message(in: source), column: Problem.column(ofOffset: error.range.lowerBound, in: source))
    }

    var description: String { "column \(column): \(message)" }

    /// The 1-based column (in characters) of a UTF-8 offset, counted from the start of its line.
    static func column(ofOffset offset: Int, in source: String) -> Int {
        let before = String(decoding: source.utf8.prefix(offset), as: UTF8.self)
        let line = before.split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
        return line.count + 1
    }
}

/// The problem that parsing or evaluating `source` reports, or `nil` when it succeeds.
func problem(
    of source: String, _ bindings: Bindings = sampleBindings, in environment: any ExpressionEnvironment = SampleEnvironment()
) -> Problem? {
    do {
        _ = try Expression(source).evaluate(bindings, in: environment)
        return nil
    } catch {
        return Problem(error, in: source)
    }
}

/// The error that parsing or evaluating `source` throws, or `nil` when it succeeds.
func expressionError(of source: String, _ bindings: Bindings = sampleBindings) -> ExpressionError? {
    do {
        _ = try Expression(source).evaluate(bindings, in: SampleEnvironment())
        return nil
    } catch {
        return error
    }
}
