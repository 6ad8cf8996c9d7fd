@_spi(Shell) import PatchbayCore

/// A recursive-descent parser for expressions and statements (precedence climbing for binary
/// operators, so each bracket level costs only a few stack frames).
///
/// Nesting is limited to `maxDepth` levels, and every tree it builds is at most `maxHeight` deep,
/// so neither parsing nor evaluation can overflow the stack whatever the input.
struct Parser {
    /// Each bracket, call, unary operator, `?:` branch, `??` operand or statement block is a level.
    static let maxDepth = 128
    static let maxHeight = 512

    private var lexer: Lexer
    private(set) var current: Token
    /// Open brackets of the expression being parsed: inside them, newlines are white space.
    private var bracketDepth = 0
    private var depth = 0
    /// Lambda parameters in scope, innermost last; a parameter's slot is its index here.
    private var locals: [String] = []
    private(set) var localSlotCount = 0
    /// What the statements being parsed are the body of.
    var context = StatementContext.reducer

    init(source: [UInt8], range: Range<Int>) throws(ExpressionError) {
        lexer = Lexer(source: source, range: range)
        current = Token(kind: .end, range: range.lowerBound..<range.lowerBound)
        try advance()
    }

    var source: [UInt8] { lexer.source }

    // MARK: Tokens

    mutating func advance() throws(ExpressionError) {
        current = try lexer.next()
        while bracketDepth > 0, case .newline = current.kind { current = try lexer.next() }
    }

    // These match the token's kind rather than compare it with `==`, which would build a second
    // kind and copy the token's payload on every check.

    func isSymbol(_ symbol: Symbol) -> Bool {
        if case .symbol(let found) = current.kind { return found == symbol }
        return false
    }

    func isName(_ name: String) -> Bool {
        if case .name(let found) = current.kind { return found == name }
        return false
    }

    var isAtEnd: Bool {
        if case .end = current.kind { return true }
        return false
    }

    var isAtNewline: Bool {
        if case .newline = current.kind { return true }
        return false
    }

    mutating func expect(_ symbol: Symbol, _ what: String) throws(ExpressionError) -> Range<Int> {
        guard isSymbol(symbol) else { throw unexpected(expected: what) }
        let range = current.range
        try advance()
        return range
    }

    func unexpected(expected: String) -> ExpressionError {
        // `x => ...` where no function takes a lambda: say so rather than "expected ..., found '=>'".
        if isSymbol(.arrow) { return ExpressionError(.lambdaOutsideCall, at: current.range) }
        if isAtEnd { return ExpressionError(.unexpectedEnd(expected: expected), at: current.range) }
        return ExpressionError(.unexpectedToken(found: current.display, expected: expected), at: current.range)
    }

    /// Skips newlines and semicolons between statements.
    mutating func skipSeparators() throws(ExpressionError) {
        while isAtNewline || isSymbol(.semicolon) { try advance() }
    }

    mutating func enter(_ range: Range<Int>) throws(ExpressionError) {
        depth += 1
        guard depth <= Self.maxDepth else { throw ExpressionError(.nestingTooDeep(limit: Self.maxDepth), at: range) }
    }

    mutating func leave() { depth -= 1 }

    // MARK: Expressions

    /// A tree node with its height, to keep every tree shallow enough to evaluate recursively.
    struct Parsed {
        var node: ExpressionNode
        var height: Int
    }

    /// Parses an expression. The constructs that nest (brackets, calls, unary operators, the
    /// operands of `?:` and `??`, statement blocks) each count one level with `enter`.
    mutating func parseExpression() throws(ExpressionError) -> Parsed {
        try parseConditional(startingWith: parseUnary())
    }

    /// A branch of `?:`, one level deeper.
    private mutating func parseBranch() throws(ExpressionError) -> Parsed {
        try enter(current.range)
        defer { leave() }
        return try parseConditional(startingWith: parseUnary())
    }

    /// Whether `symbol` after an operand continues the expression: a binary operator, `??` or `?`.
    private static func continuesOperand(_ symbol: Symbol) -> Bool {
        symbol == .question || symbol == .coalesce || precedence(of: symbol) != nil
    }

    /// Each level of precedence takes the operand read first, so that most operands, which stand
    /// alone (the values of `{key: "k1", value: 42}`), skip the levels altogether.
    private mutating func parseConditional(startingWith first: consuming Parsed) throws(ExpressionError) -> Parsed {
        guard case .symbol(let symbol) = current.kind, Self.continuesOperand(symbol) else { return first }
        let condition = try parseCoalesce(startingWith: first)
        guard isSymbol(.question) else { return condition }
        try advance()
        let whenTrue = try parseBranch()
        _ = try expect(.colon, "':' of the conditional ?:")
        let whenFalse = try parseBranch()
        let range = condition.node.range.lowerBound..<whenFalse.node.range.upperBound
        return try combine(.conditional(condition.node, whenTrue.node, whenFalse.node, range), condition, whenTrue, whenFalse)
    }

    private mutating func parseCoalesce(startingWith first: consuming Parsed) throws(ExpressionError) -> Parsed {
        let left = try parseBinary(minimumPrecedence: 0, startingWith: first)
        guard isSymbol(.coalesce) else { return left }
        try advance()
        let right = try parseExpressionWithoutConditional()
        return try combine(.coalesce(left.node, right.node, span(left, right)), left, right)
    }

    /// `??` is right-associative and binds tighter than `?:`.
    private mutating func parseExpressionWithoutConditional() throws(ExpressionError) -> Parsed {
        try enter(current.range)
        defer { leave() }
        return try parseCoalesce(startingWith: parseUnary())
    }

    private static func precedence(of symbol: Symbol) -> Int? {
        switch symbol {
        case .or: 0
        case .and: 1
        case .equal, .notEqual: 2
        case .less, .lessEqual, .greater, .greaterEqual: 3
        case .plus, .minus: 4
        case .star, .slash, .percent: 5
        default: nil
        }
    }

    private mutating func parseBinary(minimumPrecedence: Int, startingWith left: consuming Parsed) throws(ExpressionError) -> Parsed {
        while case .symbol(let symbol) = current.kind, let precedence = Self.precedence(of: symbol),
            precedence >= minimumPrecedence
        {
            try advance()
            let right = try parseBinary(minimumPrecedence: precedence + 1, startingWith: parseUnary())
            let range = span(left, right)
            let node: ExpressionNode =
                switch symbol {
                case .or: .or(left.node, right.node, range)
                case .and: .and(left.node, right.node, range)
                case .equal: .binary(.equal, left.node, right.node, range)
                case .notEqual: .binary(.notEqual, left.node, right.node, range)
                case .less: .binary(.less, left.node, right.node, range)
                case .lessEqual: .binary(.lessEqual, left.node, right.node, range)
                case .greater: .binary(.greater, left.node, right.node, range)
                case .greaterEqual: .binary(.greaterEqual, left.node, right.node, range)
                case .plus: .binary(.add, left.node, right.node, range)
                case .minus: .binary(.subtract, left.node, right.node, range)
                case .star: .binary(.multiply, left.node, right.node, range)
                case .slash: .binary(.divide, left.node, right.node, range)
                default: .binary(.remainder, left.node, right.node, range)
                }
            left = try combine(node, left, right)
        }
        return left
    }

    private mutating func parseUnary() throws(ExpressionError) -> Parsed {
        let start = current.range
        let op: UnaryOperator
        if isSymbol(.bang) {
            op = .not
        } else if isSymbol(.minus) {
            op = .negate
        } else {
            return try parsePostfix()
        }
        try enter(start)
        defer { leave() }
        try advance()
        // Fold a negative number literal, so that -9223372036854775808 is representable.
        if op == .negate, case .integer(let magnitude) = current.kind {
            let range = start.lowerBound..<current.range.upperBound
            try advance()
            let value = magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)
            let literal = Parsed(node: .literal(.int(value), range), height: 1)
            return try parsePostfix(continuing: literal, from: range)
        }
        if op == .negate, case .decimal(let d) = current.kind {
            let range = start.lowerBound..<current.range.upperBound
            try advance()
            return try parsePostfix(continuing: Parsed(node: .literal(.decimal(-d), range), height: 1), from: range)
        }
        let operand = try parseUnary()
        let range = start.lowerBound..<operand.node.range.upperBound
        return try combine(.unary(op, operand.node, range), operand)
    }

    mutating func parsePostfix() throws(ExpressionError) -> Parsed {
        let start = current.range
        let primary = try parsePrimary()
        return try parsePostfix(continuing: primary, from: start)
    }

    /// The value continued is consumed: the usual one, with nothing after it, is passed through
    /// without a copy.
    private mutating func parsePostfix(continuing result: consuming Parsed, from start: Range<Int>) throws(ExpressionError) -> Parsed {
        while true {
            switch current.kind {
            case .symbol(.dot), .symbol(.optionalDot):
                let optional = isSymbol(.optionalDot)
                try advance()
                guard case .name(let key) = current.kind else { throw unexpected(expected: "a key name after '.'") }
                let range = start.lowerBound..<current.range.upperBound
                try advance()
                result = try combine(.member(result.node, key, optional: optional, range), result)
            case .symbol(.leftBracket), .symbol(.optionalBracket):
                let optional = isSymbol(.optionalBracket)
                let open = current.range
                try enter(open)
                bracketDepth += 1
                try advance()
                let index = try parseExpression()
                bracketDepth -= 1
                let close = try expect(.rightBracket, "']'")
                leave()
                result = try combine(.index(result.node, index.node, optional: optional, start.lowerBound..<close.upperBound), result, index)
            case .symbol(.leftParen):
                throw ExpressionError(.notCallable, at: current.range)
            default:
                return result
            }
        }
    }

    private mutating func parsePrimary() throws(ExpressionError) -> Parsed {
        let token = current
        switch token.kind {
        case .integer(let magnitude):
            guard magnitude <= UInt64(Int.max) else {
                throw ExpressionError(.integerLiteralTooLarge(String(magnitude)), at: token.range)
            }
            try advance()
            return Parsed(node: .literal(.int(Int(magnitude)), token.range), height: 1)
        case .decimal(let d):
            try advance()
            return Parsed(node: .literal(.decimal(d), token.range), height: 1)
        case .string(let text):
            try advance()
            return Parsed(node: .literal(.string(text), token.range), height: 1)
        case .interpolatedString(let parts):
            try advance()
            return try parseTemplate(parts, range: token.range)
        case .dollar:
            try advance()
            return Parsed(node: .variable(.input, token.range), height: 1)
        case .name(let name):
            try advance()
            if isSymbol(.leftParen), current.range.lowerBound == token.range.upperBound {
                return try parseCall(name, nameRange: token.range)
            }
            return Parsed(node: try reference(to: name, range: token.range), height: 1)
        case .symbol(.leftParen):
            try enter(token.range)
            defer { leave() }
            bracketDepth += 1
            try advance()
            var inner = try parseExpression()
            bracketDepth -= 1
            let close = try expect(.rightParen, "')'")
            // The parentheses belong to the expression: `(a + b) * c` spans from `(`, not from `a`.
            inner.node = inner.node.withRange(token.range.lowerBound..<close.upperBound)
            return inner
        case .symbol(.leftBracket):
            return try parseArray()
        case .symbol(.leftBrace):
            return try parseObject()
        case .symbol(.arrow):
            throw ExpressionError(.lambdaOutsideCall, at: token.range)
        default:
            throw unexpected(expected: "a value")
        }
    }

    private func reference(to name: String, range: Range<Int>) throws(ExpressionError) -> ExpressionNode {
        switch name {
        case "true": return .literal(.bool(true), range)
        case "false": return .literal(.bool(false), range)
        case "null": return .literal(.null, range)
        default: break
        }
        if let slot = locals.lastIndex(of: name) { return .variable(.local(slot), range) }
        switch name {
        case "state": return .variable(.state, range)
        case "action": return .variable(.action, range)
        case "params": return .variable(.params, range)
        case "url": return .variable(.url, range)
        case "route": return .variable(.route, range)
        default: return .variable(.global(name), range)
        }
    }

    private mutating func parseTemplate(_ parts: [Token.StringPart], range: Range<Int>) throws(ExpressionError) -> Parsed {
        var pieces: [TemplatePiece] = []
        var height = 1
        for part in parts {
            switch part {
            case .text(let text):
                pieces.append(.text(text))
            case .interpolation(let inner):
                try enter(inner)
                var sub = try Parser(source: source, range: inner)
                sub.locals = locals
                sub.depth = depth
                sub.bracketDepth = 1
                // The initializer has read the first token already; inside `\( )` a newline is white space.
                if sub.isAtNewline { try sub.advance() }
                let parsed = try sub.parseExpression()
                guard sub.isAtEnd else { throw sub.unexpected(expected: "')' to close the interpolation") }
                localSlotCount = Swift.max(localSlotCount, sub.localSlotCount)
                leave()
                pieces.append(.expression(parsed.node))
                height = Swift.max(height, parsed.height + 1)
            }
        }
        return Parsed(node: .template(pieces, range), height: height)
    }

    private mutating func parseArray() throws(ExpressionError) -> Parsed {
        let open = current.range
        try enter(open)
        defer { leave() }
        bracketDepth += 1
        try advance()
        var elements: [ExpressionNode] = []
        var height = 1
        while !isSymbol(.rightBracket) {
            let element = try parseExpression()
            elements.append(element.node)
            height = Swift.max(height, element.height + 1)
            if isSymbol(.comma) { try advance() } else if !isSymbol(.rightBracket) { throw unexpected(expected: "',' or ']'") }
        }
        bracketDepth -= 1
        let close = try expect(.rightBracket, "']'")
        return try checked(Parsed(node: .array(elements, open.lowerBound..<close.upperBound), height: height))
    }

    private mutating func parseObject() throws(ExpressionError) -> Parsed {
        let open = current.range
        try enter(open)
        defer { leave() }
        bracketDepth += 1
        try advance()
        var members: [ObjectMember] = []
        var height = 1
        while !isSymbol(.rightBrace) {
            let key: String
            switch current.kind {
            case .name(let name): key = name
            case .string(let text): key = text
            case .interpolatedString:
                throw ExpressionError(.unexpectedToken(found: "an interpolated string", expected: "a key"), at: current.range)
            default:
                throw unexpected(expected: "a key or '}'")
            }
            try advance()
            // The message names the key: build it only when the ':' is missing.
            guard isSymbol(.colon) else { throw unexpected(expected: "':' after the key '\(key)'") }
            try advance()
            let value = try parseExpression()
            // Objects are mostly small: one allocation for up to four members, not one per doubling.
            if members.isEmpty { members.reserveCapacity(4) }
            members.append(ObjectMember(key: key, value: value.node))
            height = Swift.max(height, value.height + 1)
            if isSymbol(.comma) { try advance() } else if !isSymbol(.rightBrace) { throw unexpected(expected: "',' or '}'") }
        }
        bracketDepth -= 1
        let close = try expect(.rightBrace, "'}'")
        return try checked(Parsed(node: .object(members, open.lowerBound..<close.upperBound), height: height))
    }

    private mutating func parseCall(_ name: String, nameRange: Range<Int>) throws(ExpressionError) -> Parsed {
        guard let function = Builtin(rawValue: name) else {
            let suggestion = Spelling.closest(to: name, among: Builtin.allCases.map(\.rawValue))
            throw ExpressionError(.unknownFunction(name: name, suggestion: suggestion), at: nameRange)
        }
        try enter(nameRange)
        defer { leave() }
        bracketDepth += 1
        try advance()
        var arguments: [Argument] = []
        var height = 1
        while !isSymbol(.rightParen) {
            let position = arguments.count
            if let (lambda, lambdaHeight) = try parseLambdaIfPresent() {
                guard let expected = function.lambdaArgument, expected.index == position else {
                    throw ExpressionError(.lambdaOutsideCall, at: lambda.range)
                }
                guard lambda.parameterCount == expected.parameters else {
                    let names = expected.parameters == 1 ? "one parameter (x => ...)" : "two parameters ((acc, x) => ...)"
                    throw ExpressionError(.invalidArgument(function: name, detail: "the lambda takes \(names)"), at: lambda.range)
                }
                arguments.append(.lambda(lambda))
                height = Swift.max(height, lambdaHeight + 1)
            } else {
                let argument = try parseExpression()
                if let expected = function.lambdaArgument, expected.index == position {
                    let example = expected.parameters == 1 ? "x => ..." : "(acc, x) => ..."
                    throw ExpressionError(
                        .invalidArgument(function: name, detail: "argument \(position + 1) must be a lambda such as \(example)"),
                        at: argument.node.range)
                }
                arguments.append(.value(argument.node))
                height = Swift.max(height, argument.height + 1)
            }
            if isSymbol(.comma) { try advance() } else if !isSymbol(.rightParen) { throw unexpected(expected: "',' or ')'") }
        }
        bracketDepth -= 1
        let close = try expect(.rightParen, "')'")
        let range = nameRange.lowerBound..<close.upperBound
        let (low, high) = function.arity
        if arguments.count < low || (high.map { arguments.count > $0 } ?? false) {
            throw ExpressionError(.argumentCount(function: name, expected: function.arityDescription, got: arguments.count), at: range)
        }
        return try checked(Parsed(node: .call(function, arguments, range), height: height))
    }

    /// Parses `x => body` or `(a, b) => body` when one starts here; otherwise consumes nothing.
    private mutating func parseLambdaIfPresent() throws(ExpressionError) -> (Lambda, height: Int)? {
        let saved = (lexer, current)
        let start = current.range
        var names: [String] = []
        if case .name(let name) = current.kind {
            try advance()
            guard isSymbol(.arrow) else { (lexer, current) = saved; return nil }
            names = [name]
        } else if isSymbol(.leftParen) {
            try advance()
            while case .name(let name) = current.kind {
                names.append(name)
                try advance()
                if isSymbol(.comma) { try advance() } else { break }
            }
            guard isSymbol(.rightParen) else { (lexer, current) = saved; return nil }
            try advance()
            guard isSymbol(.arrow) else { (lexer, current) = saved; return nil }
        } else {
            return nil
        }
        try advance()
        let firstSlot = locals.count
        locals.append(contentsOf: names)
        localSlotCount = Swift.max(localSlotCount, locals.count)
        let body = try parseExpression()
        locals.removeLast(names.count)
        let range = start.lowerBound..<body.node.range.upperBound
        return (Lambda(firstSlot: firstSlot, parameterCount: names.count, body: body.node, range: range), body.height)
    }

    // MARK: Heights

    private func span(_ left: Parsed, _ right: Parsed) -> Range<Int> {
        let l = left.node.range, r = right.node.range
        return Swift.min(l.lowerBound, r.lowerBound)..<Swift.max(l.upperBound, r.upperBound)
    }

    // One overload per number of children: a variadic parameter would allocate an array per node.

    private func combine(_ node: ExpressionNode, _ child: Parsed) throws(ExpressionError) -> Parsed {
        try checked(Parsed(node: node, height: child.height + 1))
    }

    private func combine(_ node: ExpressionNode, _ a: Parsed, _ b: Parsed) throws(ExpressionError) -> Parsed {
        try checked(Parsed(node: node, height: Swift.max(a.height, b.height) + 1))
    }

    private func combine(_ node: ExpressionNode, _ a: Parsed, _ b: Parsed, _ c: Parsed) throws(ExpressionError) -> Parsed {
        try checked(Parsed(node: node, height: Swift.max(a.height, b.height, c.height) + 1))
    }

    private func checked(_ parsed: Parsed) throws(ExpressionError) -> Parsed {
        guard parsed.height <= Self.maxHeight else {
            throw ExpressionError(.nestingTooDeep(limit: Self.maxHeight), at: parsed.node.range)
        }
        return parsed
    }
}
