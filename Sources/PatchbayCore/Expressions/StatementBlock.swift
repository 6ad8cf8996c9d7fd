/// Parsed statements (SPEC section 3): the body of a reducer, a pipe or a patch type.
///
/// ```swift
/// let body = try StatementBlock("state.count += action.by; if state.count > 9 { state.big = true }")
/// var state: Value = ["count": 8]
/// try body.execute(state: &state, bindings: Bindings(action: ["by": 2]))   // {count: 10, big: true}
/// ```
public struct StatementBlock: Sendable, CustomStringConvertible {
    let statements: [StatementNode]
    let localSlots: Int
    /// The text the block was parsed from; error ranges are UTF-8 offsets into it.
    public let source: String
    /// The UTF-8 offsets of the block within `source`.
    public let range: Range<Int>

    init(statements: [StatementNode], localSlots: Int, source: String, range: Range<Int>) {
        self.statements = statements
        self.localSlots = localSlots
        self.source = source
        self.range = range
    }

    /// Parses all of `text` as statements.
    public init(_ text: String) throws(ExpressionError) {
        self = try Self.parse(text, from: 0)
    }

    /// Parses the statements from the UTF-8 offset `start` of `source` to its end. A block wrapped
    /// in `{ ... }` is accepted too.
    public static func parse(_ source: String, from start: Int) throws(ExpressionError) -> StatementBlock {
        let bytes = Array(source.utf8)
        var parser = try Parser(source: bytes, range: start..<bytes.count)
        try parser.skipSeparators()
        var statements: [StatementNode]
        // A statement never starts with an object literal, so a leading `{` opens a block.
        if parser.isSymbol(.leftBrace) {
            try parser.advance()
            statements = try parser.parseStatements(closingBrace: true)
            _ = try parser.expect(.rightBrace, "'}'")
            try parser.skipSeparators()
            guard parser.current.kind == .end else { throw parser.unexpected(expected: "the end of the statements") }
        } else {
            statements = try parser.parseStatements(closingBrace: false)
        }
        var end = bytes.count
        while end > start, [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(bytes[end - 1]) {
            end -= 1
        }
        return StatementBlock(statements: statements, localSlots: parser.localSlotCount, source: source, range: start..<end)
    }

    /// Runs the statements on `state`. On an error, `state` is left exactly as it was.
    /// - Returns: the values emitted with `emit`, in order.
    @discardableResult
    public func execute(
        state: inout Value, bindings: Bindings = Bindings(), in environment: any ExpressionEnvironment = EmptyEnvironment()
    ) throws(ExpressionError) -> [Emission] {
        var changes: [ValueChange] = []
        return try execute(state: &state, bindings: bindings, in: environment, changes: &changes)
    }

    /// Runs the statements on `state`, appending every change they make, in order: applied one
    /// after the other to the old state, they give the new one. On an error, `state` and
    /// `changes` are left exactly as they were.
    ///
    /// The state is changed in place, so a large state is not copied.
    @discardableResult
    public func execute(
        state: inout Value, bindings: Bindings = Bindings(), in environment: any ExpressionEnvironment = EmptyEnvironment(),
        changes: inout [ValueChange]
    ) throws(ExpressionError) -> [Emission] {
        var scope = bindings
        scope.state = state
        state = .null
        var evaluator = Evaluator(bindings: scope, environment: environment, localSlots: localSlots)
        evaluator.changeLog = []
        var emissions: [Emission] = []
        do {
            try evaluator.execute(statements, emissions: &emissions)
        } catch {
            state = evaluator.bindings.state ?? .null
            let log = evaluator.changeLog ?? []
            for index in log.indices.reversed() { try? state.undo(log[index], position: evaluator.removedKeyPositions[index]) }
            throw error
        }
        state = evaluator.bindings.state ?? .null
        if let log = evaluator.changeLog { changes += log }
        return emissions
    }

    public var description: String {
        ExpressionError.snippet(of: range, in: source, limit: .max) ?? ""
    }

    /// Whether there are no statements.
    public var isEmpty: Bool { statements.isEmpty }
}
