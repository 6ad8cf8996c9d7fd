@_spi(Shell) public import PatchbayCore

/// Parsed statements (PatchbayHost.docc/CommandLanguageTour.md): the body of a reducer, a pipe or a
/// patch type.
///
/// ```swift
/// let body = try StatementBlock("state.count += action.by; if state.count > 9 { state.big = true }")
/// var state: Value = ["count": 8]
/// try body.execute(state: &state, bindings: Bindings(action: ["by": 2]))   // {count: 10, big: true}
/// ```
@_spi(Shell)
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
    public static func parse(_ source: String, from start: Int, context: StatementContext = .reducer) throws(ExpressionError) -> StatementBlock {
        try parse(source, utf8: Array(source.utf8), from: start, context: context)
    }

    /// `parse(_:from:)` for a caller that holds the UTF-8 bytes of `source` already (the shell's
    /// command scanner), so that they are not copied again.
    package static func parse(_ source: String, utf8 bytes: [UInt8], from start: Int,
                              context: StatementContext = .reducer) throws(ExpressionError) -> StatementBlock {
        var parser = try Parser(source: bytes, range: start..<bytes.count)
        parser.context = context
        try parser.skipSeparators()
        var statements: [StatementNode]
        // A statement never starts with an object literal, so a leading `{` opens a block.
        if parser.isSymbol(.leftBrace) {
            try parser.advance()
            statements = try parser.parseStatements(closingBrace: true)
            _ = try parser.expect(.rightBrace, "'}'")
            try parser.skipSeparators()
            guard parser.isAtEnd else { throw parser.unexpected(expected: "the end of the statements") }
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
        var evaluator = Evaluator(bindings: bindings, environment: environment, localSlots: localSlots)
        // The state moves into the bindings and back, never copied, so that it stays uniquely
        // referenced and changes in place.
        evaluator.bindings.state = Self.take(&state)
        defer { state = evaluator.bindings.state.take() ?? .null }
        return try run(&evaluator, changes: &changes)
    }

    /// Runs the statements with `evaluator`, on the state its bindings hold, appending every
    /// change they make to `changes`. On an error, the state and `changes` are left exactly as
    /// they were. An evaluator may run several blocks in turn (the reducers of one action).
    @discardableResult
    func run(_ evaluator: inout Evaluator, changes: inout [ValueChange]) throws(ExpressionError) -> [Emission] {
        evaluator.reserveLocals(localSlots)
        if !evaluator.removedKeyPositions.isEmpty { evaluator.removedKeyPositions.removeAll() }
        // The evaluator appends to the caller's list itself: no list of its own to allocate and
        // copy over. The two are swapped back below, on every path.
        let start = changes.count
        swap(&evaluator.changeLog, &changes)
        var emissions: [Emission] = []
        do {
            try evaluator.execute(statements, emissions: &emissions)
        } catch {
            Self.undoChanges(since: start, in: &evaluator)
            swap(&evaluator.changeLog, &changes)
            throw error
        }
        swap(&evaluator.changeLog, &changes)
        return emissions
    }

    /// Undoes, newest first, the changes the evaluator logged from `start` on, and drops them.
    private static func undoChanges(since start: Int, in evaluator: inout Evaluator) {
        var state = evaluator.bindings.state.take() ?? .null
        for index in (start..<evaluator.changeLog.count).reversed() {
            try? state.undo(evaluator.changeLog[index], position: evaluator.removedKeyPositions[index])
        }
        evaluator.changeLog.removeSubrange(start...)
        evaluator.bindings.state = state
    }

    /// Moves `value` out, leaving `null` in its place, without a copy.
    @inline(__always)
    static func take(_ value: inout Value) -> Value {
        var taken = Value.null
        swap(&taken, &value)
        return taken
    }

    public var description: String {
        ExpressionError.snippet(of: range, in: source, limit: .max) ?? ""
    }

    /// Whether there are no statements.
    public var isEmpty: Bool { statements.isEmpty }
}
