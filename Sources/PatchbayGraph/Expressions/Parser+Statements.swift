@_spi(Shell) import PatchbayCore

extension Parser {
    /// Parses statements separated by `;` or newlines, up to the end of the input or, when
    /// `closingBrace` is set, up to (not including) the `}` that closes the block.
    mutating func parseStatements(closingBrace: Bool) throws(ExpressionError) -> [StatementNode] {
        var statements: [StatementNode] = []
        while true {
            try skipSeparators()
            if isAtEnd {
                if closingBrace { throw unexpected(expected: "'}' to close the block") }
                return statements
            }
            if closingBrace, isSymbol(.rightBrace) { return statements }
            statements.append(try parseStatement())
            guard isAtNewline || isSymbol(.semicolon) || isAtEnd
                || (closingBrace && isSymbol(.rightBrace))
            else {
                throw unexpected(expected: "';' or a new line between statements")
            }
        }
    }

    private mutating func parseStatement() throws(ExpressionError) -> StatementNode {
        let start = current.range
        try enter(start)
        defer { leave() }
        if isName("if") { return try parseIf() }
        if isName("delete") {
            try advance()
            let path = try parsePath()
            return .delete(path, start.lowerBound..<path.range.upperBound)
        }
        if context == .middleware, isName("drop") {
            try advance()
            return .drop(start)
        }
        if context == .middleware, isName("dispatch") {
            try advance()
            let type: String
            switch current.kind {
            case .name(let name): type = name
            case .string(let text): type = text
            default: throw unexpected(expected: "the action type to dispatch (a name or a string)")
            }
            var end = current.range.upperBound
            try advance()
            var payload: ExpressionNode?
            if !(isAtNewline || isSymbol(.semicolon) || isAtEnd || isSymbol(.rightBrace)) {
                let value = try parseExpression()
                payload = value.node
                end = value.node.range.upperBound
            }
            return .dispatch(type: type, payload, start.lowerBound..<end)
        }
        if context == .middleware, isName("emit") {
            throw ExpressionError(.invalidMiddlewareStatement("emit (a store has no output ports to emit on)"), at: start)
        }
        if isName("emit") {
            try advance()
            guard case .name(let port) = current.kind else { throw unexpected(expected: "the output port to emit on") }
            try advance()
            let value = try parseExpression()
            return .emit(port: port, value.node, start.lowerBound..<value.node.range.upperBound)
        }
        let path = try parsePath()
        let op: AssignmentOperator
        switch current.kind {
        case .symbol(.assign): op = .assign
        case .symbol(.plusAssign): op = .add
        case .symbol(.minusAssign): op = .subtract
        default: throw unexpected(expected: "'=', '+=' or '-=' after \(path.components.isEmpty ? "state" : "the path")")
        }
        try advance()
        let value = try parseExpression()
        return .assign(path, op, value.node, start.lowerBound..<value.node.range.upperBound)
    }

    private mutating func parseIf() throws(ExpressionError) -> StatementNode {
        let start = current.range
        try advance()
        let test = try parseExpression()
        let body = try parseBlock()
        var otherwise: [StatementNode] = []
        var end = body.end
        var probe = self
        try probe.skipNewlines()
        if probe.isName("else") {
            self = probe
            try advance()
            if isName("if") {
                try enter(current.range)
                let nested = try parseIf()
                leave()
                otherwise = [nested]
                if case .conditional(_, _, _, let r) = nested { end = r.upperBound }
            } else {
                let block = try parseBlock()
                otherwise = block.statements
                end = block.end
            }
        }
        return .conditional(test.node, body.statements, otherwise, start.lowerBound..<end)
    }

    private mutating func skipNewlines() throws(ExpressionError) {
        while isAtNewline { try advance() }
    }

    private mutating func parseBlock() throws(ExpressionError) -> (statements: [StatementNode], end: Int) {
        try skipNewlines()
        _ = try expect(.leftBrace, "'{' to start the block")
        let statements = try parseStatements(closingBrace: true)
        let close = try expect(.rightBrace, "'}'")
        return (statements, close.upperBound)
    }

    /// Parses `state` followed by `.key` and `[index]` accesses.
    private mutating func parsePath() throws(ExpressionError) -> StatePath {
        let target = try parsePostfix()
        var components: [StatePath.Component] = []
        var node = target.node
        while true {
            switch node {
            case .variable(.state, _) where context == .middleware:
                throw ExpressionError(.invalidMiddlewareStatement("change the state (a reducer does)"), at: target.node.range)
            case .variable(.state, _):
                return StatePath(components: components.reversed(), range: target.node.range)
            case .variable(.action, _) where context == .middleware:
                var path = StatePath(components: components.reversed(), range: target.node.range)
                path.isAction = true
                return path
            case .member(let base, let key, optional: false, _):
                components.append(.key(key))
                node = base
            case .index(let base, let index, optional: false, _):
                components.append(.index(index))
                node = base
            default:
                throw ExpressionError(.invalidAssignmentTarget, at: target.node.range)
            }
        }
    }
}
