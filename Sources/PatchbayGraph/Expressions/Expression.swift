@_spi(Shell) public import PatchbayCore

/// A parsed expression of the Patchbay language (PatchbayHost.docc/CommandLanguageTour.md), ready to
/// be evaluated many times.
///
/// ```swift
/// let sum = try Expression("state.count + action.by")
/// let value = try sum.evaluate(Bindings(state: ["count": 1], action: ["by": 2]))   // 3
/// ```
@_spi(Shell)
public struct Expression: Sendable, CustomStringConvertible {
    let node: ExpressionNode
    let localSlots: Int
    /// The text the expression was parsed from; error ranges are UTF-8 offsets into it.
    public let source: String
    /// The UTF-8 offsets of the expression within `source`.
    public let range: Range<Int>

    /// Parses the whole of `text` as one expression.
    public init(_ text: String) throws(ExpressionError) {
        let parsed = try Self.parse(text, from: 0)
        guard parsed.end == text.utf8.count else {
            throw Self.trailingInput(in: text, at: parsed.end)
        }
        self = parsed.expression
    }

    init(node: ExpressionNode, localSlots: Int, source: String, range: Range<Int>) {
        self.node = node
        self.localSlots = localSlots
        self.source = source
        self.range = range
    }

    /// Parses the expression that starts at the UTF-8 offset `start` of `source`, stopping at the
    /// first token that cannot continue it; `end` is that token's offset (or the end of input).
    /// Commands use this to read an expression followed by more syntax (`when ...`, `: ...`).
    public static func parse(_ source: String, from start: Int) throws(ExpressionError) -> (expression: Expression, end: Int) {
        try parse(source, utf8: Array(source.utf8), from: start)
    }

    /// `parse(_:from:)` for a caller that holds the UTF-8 bytes of `source` already (the shell's
    /// command scanner), so that they are not copied again for every command.
    package static func parse(_ source: String, utf8 bytes: [UInt8], from start: Int) throws(ExpressionError) -> (expression: Expression, end: Int) {
        var parser = try Parser(source: bytes, range: start..<bytes.count)
        let parsed = try parser.parseExpression()
        let end = parser.isAtEnd ? bytes.count : parser.current.range.lowerBound
        let expression = Expression(node: parsed.node, localSlots: parser.localSlotCount, source: source,
                                    range: start..<Swift.max(start, parsed.node.range.upperBound))
        return (expression, end)
    }

    /// The error for text left over after a complete expression, pointing at its first token.
    public static func trailingInput(in text: String, at offset: Int) -> ExpressionError {
        let bytes = Array(text.utf8)
        var lexer = Lexer(source: bytes, range: offset..<bytes.count)
        let token: Token
        do { token = try lexer.next() } catch { return error }
        let range = token.range
        switch token.kind {
        case .symbol(.arrow):
            return ExpressionError(.lambdaOutsideCall, at: range)
        case .newline:
            // Keeps the message on one line.
            return ExpressionError(.unexpectedToken(found: "the end of the line", expected: "the end of the expression"), at: range)
        case .string, .interpolatedString:
            // A string may span lines or be megabytes long: do not quote it.
            return ExpressionError(.unexpectedToken(found: "a string", expected: "an operator or the end of the expression"), at: range)
        default:
            let found = String(decoding: bytes[range], as: UTF8.self)
            return ExpressionError(.unexpectedToken(found: "'\(found)'", expected: "an operator or the end of the expression"), at: range)
        }
    }

    /// Computes the expression's value. Reading nodes through `environment` never triggers them.
    public func evaluate(
        _ bindings: Bindings = Bindings(), in environment: any ExpressionEnvironment = EmptyEnvironment()
    ) throws(ExpressionError) -> Value {
        var evaluator = Evaluator(bindings: bindings, environment: environment, localSlots: localSlots)
        return try evaluator.evaluate(node)
    }

    /// Computes the expression's value with an evaluator that is already set up (a reducer's
    /// `when` guard, with the bindings of the action being handled).
    func evaluate(with evaluator: inout Evaluator) throws(ExpressionError) -> Value {
        evaluator.reserveLocals(localSlots)
        return try evaluator.evaluate(node)
    }

    /// The expression's text.
    public var description: String {
        ExpressionError.snippet(of: range, in: source, limit: .max) ?? ""
    }

    /// The free names the expression reads (nodes), in order of first use, without duplicates.
    public var freeNames: [String] {
        var names: [String] = []
        node.collectFreeNames(into: &names)
        return names
    }
}

extension Expression {
    /// Where the expression first reads the node `name`, for an error about that name.
    public func rangeOfFirstRead(of name: String) -> Range<Int>? {
        var found: Range<Int>?
        node.forEachFreeName { read, range in if found == nil, read == name { found = range } }
        return found
    }
}

extension ExpressionNode {
    func collectFreeNames(into names: inout [String]) {
        forEachFreeName { name, _ in if !names.contains(name) { names.append(name) } }
    }

    /// Calls `body` with each free name the expression reads and where, in order.
    func forEachFreeName(_ body: (String, Range<Int>) -> Void) {
        switch self {
        case .literal: break
        case .variable(.global(let name), let range): body(name, range)
        case .variable: break
        case .array(let elements, _): for e in elements { e.forEachFreeName(body) }
        case .object(let members, _): for m in members { m.value.forEachFreeName(body) }
        case .template(let pieces, _):
            for case .expression(let e) in pieces { e.forEachFreeName(body) }
        case .member(let base, _, _, _): base.forEachFreeName(body)
        case .index(let base, let index, _, _):
            base.forEachFreeName(body)
            index.forEachFreeName(body)
        case .call(_, let arguments, _):
            for argument in arguments {
                switch argument {
                case .value(let e): e.forEachFreeName(body)
                case .lambda(let l): l.body.forEachFreeName(body)
                }
            }
        case .unary(_, let operand, _): operand.forEachFreeName(body)
        case .binary(_, let a, let b, _), .and(let a, let b, _), .or(let a, let b, _), .coalesce(let a, let b, _):
            a.forEachFreeName(body)
            b.forEachFreeName(body)
        case .conditional(let a, let b, let c, _):
            a.forEachFreeName(body)
            b.forEachFreeName(body)
            c.forEachFreeName(body)
        }
    }
}
