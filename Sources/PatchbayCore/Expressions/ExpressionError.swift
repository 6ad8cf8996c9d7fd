/// An error found while parsing or evaluating an expression or statement.
///
/// `range` holds UTF-8 byte offsets into the source text the expression was parsed from, so the
/// shell can point a caret at the column.
public struct ExpressionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        // Syntax
        case unexpectedCharacter(String)
        case unterminatedString
        case invalidEscape(String)
        case invalidNumber(String)
        case integerLiteralTooLarge(String)
        case unexpectedToken(found: String, expected: String)
        case unexpectedEnd(expected: String)
        case nestingTooDeep(limit: Int)
        case lambdaOutsideCall
        case invalidAssignmentTarget
        // Evaluation
        case divisionByZero
        case integerOverflow(operation: String)
        case decimalOverflow(operation: String)
        case typeMismatch(operation: String, types: [String])
        case notABool(context: String, type: String)
        case missingKey(key: String, available: [String])
        case indexOutOfRange(index: Int, count: Int)
        case notIndexable(type: String, key: String)
        case unknownName(name: String, suggestion: String?)
        case unavailableName(name: String, hint: String)
        case unknownFunction(name: String, suggestion: String?)
        case argumentCount(function: String, expected: String, got: Int)
        case invalidArgument(function: String, detail: String)
        case notCallable
        case tooLarge(what: String, limit: Int)
        case failed(String)
    }

    public let reason: Reason
    /// UTF-8 byte offsets of the offending text within the parsed source.
    public let range: Range<Int>

    public init(_ reason: Reason, at range: Range<Int>) {
        self.reason = reason
        self.range = range
    }

    /// Whether the error was found before evaluation, while parsing.
    public var isSyntaxError: Bool {
        switch reason {
        case .unexpectedCharacter, .unterminatedString, .invalidEscape, .invalidNumber, .integerLiteralTooLarge,
            .unexpectedToken, .unexpectedEnd, .nestingTooDeep, .lambdaOutsideCall, .invalidAssignmentTarget:
            true
        default:
            false
        }
    }

    /// The message without the offending text.
    public var description: String {
        switch reason {
        case .unexpectedCharacter(let c): "unexpected character \(c)"
        case .unterminatedString: "unterminated string: add the closing quote"
        case .invalidEscape(let e): "invalid escape '\(e)' in string (use \\n, \\t, \\\", \\\\, \\u{...} or \\(expr))"
        case .invalidNumber(let n): "invalid number '\(n)'"
        case .integerLiteralTooLarge(let n): "integer \(n) does not fit in 64 bits (write it as a decimal: \(n).0)"
        case .unexpectedToken(let found, let expected): "expected \(expected), found \(found)"
        case .unexpectedEnd(let expected): "expected \(expected), found the end of the input"
        case .nestingTooDeep(let limit): "expression nested too deeply (the limit is \(limit) levels)"
        case .lambdaOutsideCall: "a lambda (x => ...) can only be an argument of a function such as map or filter"
        case .invalidAssignmentTarget: "can only assign to a path of state, such as state.items[0].done"
        case .divisionByZero: "division by zero"
        case .integerOverflow(let op): "integer overflow in '\(op)' (64-bit integers never wrap)"
        case .decimalOverflow(let op): "decimal result of '\(op)' is not a finite number"
        case .typeMismatch(let op, let types):
            types.count == 1
                ? "cannot apply '\(op)' to \(Self.article(types[0]))"
                : "cannot apply '\(op)' to \(types.map(Self.article).joined(separator: " and "))"
        case .notABool(let context, let type): "\(context) must be a bool, not \(Self.article(type))"
        case .missingKey(let key, let available):
            available.isEmpty
                ? "no key '\(key)' in an empty object (use ?. or ?? to read optional data)"
                : "no key '\(key)' (keys: \(Self.list(available))); use ?. or ?? to read optional data"
        case .indexOutOfRange(let index, let count): "index \(index) out of range (count \(count))"
        case .notIndexable(let type, let key): "cannot read \(key) of \(Self.article(type))"
        case .unknownName(let name, let suggestion):
            "unknown name '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case .unavailableName(let name, let hint): "'\(name)' is not available here: \(hint)"
        case .unknownFunction(let name, let suggestion):
            "unknown function '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? " (see 'help functions')")
        case .argumentCount(let function, let expected, let got):
            "\(function) takes \(expected), got \(got)"
        case .invalidArgument(let function, let detail): "\(function): \(detail)"
        case .notCallable: "only functions can be called (see 'help functions')"
        case .tooLarge(let what, let limit): "\(what) is too large (the limit is \(limit))"
        case .failed(let message): message
        }
    }

    /// The message naming the offending text of `source`, e.g. "division by zero in 'a / b'".
    public func message(in source: String) -> String {
        guard !isSyntaxError, let snippet = Self.snippet(of: range, in: source) else { return description }
        return "\(description) in '\(snippet)'"
    }

    static func snippet(of range: Range<Int>, in source: String, limit: Int = 60) -> String? {
        let utf8 = source.utf8
        guard range.lowerBound >= 0, range.upperBound <= utf8.count, !range.isEmpty else { return nil }
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        let end = utf8.index(start, offsetBy: range.count)
        guard let text = String(utf8[start..<end]) else { return nil }
        let oneLine = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return oneLine.count > limit ? String(oneLine.prefix(limit - 3)) + "..." : oneLine
    }

    private static func article(_ type: String) -> String {
        switch type {
        case "null": "null"
        case "int", "array", "object": "an \(type)"
        default: "a \(type)"
        }
    }

    private static func list(_ keys: [String]) -> String {
        keys.count > 8 ? keys.prefix(8).joined(separator: ", ") + ", ..." : keys.joined(separator: ", ")
    }
}
