@_spi(Shell) import PatchbayCore

/// An error found while parsing or evaluating an expression or statement.
///
/// `range` holds UTF-8 byte offsets into the source text the expression was parsed from, so the
/// shell can point a caret at the column.
@_spi(Shell)
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
        /// A middleware's statement assigns to `state` (or uses `emit`): a middleware changes the action.
        case invalidMiddlewareStatement(String)
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
        /// The evaluation spent its `EvaluationBudget` of `what` (work or memory).
        case budgetSpent(what: String, limit: Int, unit: String)
        /// The command was interrupted (Ctrl-C; see `Interruption`).
        case interrupted
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
            .unexpectedToken, .unexpectedEnd, .nestingTooDeep, .lambdaOutsideCall, .invalidAssignmentTarget, .notCallable,
            .invalidMiddlewareStatement:
            true
        default:
            false
        }
    }

    /// The message without the offending text.
    public var description: String {
        let (what, hint) = parts
        return Self.oneLine(hint.map { "\(what); \($0)" } ?? what)
    }

    /// The message naming the offending text of `source`, e.g. "division by zero in 'a / b'".
    public func message(in source: String) -> String {
        let (what, hint) = parts
        var text = what
        if !isSyntaxError, namesOffendingText == false, let snippet = Self.snippet(of: range, in: source) {
            text += " in '\(snippet)'"
        }
        return Self.oneLine(hint.map { "\(text); \($0)" } ?? text)
    }

    /// Keeps a message on one line whatever it quotes (a key, a string, source text): line breaks
    /// and other control characters except tabs are shown as escapes.
    static func oneLine(_ text: String) -> String {
        func breaks(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.properties.generalCategory {
            case .control: scalar != "\t"
            case .lineSeparator, .paragraphSeparator: true
            default: false
            }
        }
        guard text.unicodeScalars.contains(where: breaks) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case _ where breaks(scalar): out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether the message already quotes the offending text (a name), so it is not repeated, or
    /// is not about any text (an interruption stops whatever runs).
    private var namesOffendingText: Bool {
        switch reason {
        case .unknownName, .unavailableName, .unknownFunction, .interrupted: true
        default: false
        }
    }

    /// What went wrong, and what to do about it.
    private var parts: (what: String, hint: String?) {
        switch reason {
        case .unexpectedCharacter(let c): ("unexpected character \(c)", nil)
        case .unterminatedString: ("unterminated string", "add the closing quote")
        case .invalidEscape(let e): ("invalid escape '\(e)' in a string", "use \\n, \\t, \\\", \\\\, \\u{...} or \\(expr)")
        case .invalidNumber(let n): ("invalid number '\(n)'", nil)
        case .integerLiteralTooLarge(let n): ("integer \(n) does not fit in 64 bits", "write it as a decimal: \(n).0")
        case .unexpectedToken(let found, let expected): ("expected \(expected), found \(found)", nil)
        case .unexpectedEnd(let expected): ("expected \(expected), found the end of the input", nil)
        case .nestingTooDeep(let limit): ("expression nested too deeply", "the limit is \(limit) levels")
        case .lambdaOutsideCall: ("a lambda (x => ...) can only be an argument of a function such as map or filter", nil)
        case .invalidAssignmentTarget: ("can only assign to a path of state", "for example state.items[0].done = true")
        case .invalidMiddlewareStatement(let what):
            ("a middleware cannot \(what)", "it reads state and changes the action (action.by = 2), drops it (drop) or dispatches more (dispatch Logged {n: 1})")
        case .divisionByZero: ("division by zero", nil)
        case .integerOverflow: ("integer overflow", "64-bit integers never wrap")
        case .decimalOverflow: ("decimal overflow", "the result is not a finite number")
        case .typeMismatch(let op, let types):
            ("cannot apply '\(op)' to \(types.map(Self.article).joined(separator: " and "))", nil)
        case .notABool(let context, let type): ("\(context) must be a bool, not \(Self.article(type))", nil)
        case .missingKey(let key, let available):
            (available.isEmpty ? "no key '\(key)' in an empty object" : "no key '\(key)' (keys: \(Spelling.list(available, limit: 8)))",
             Spelling.closest(to: key, among: available).map { "did you mean '\($0)'?" } ?? "use ?. or ?? to read optional data")
        case .indexOutOfRange(let index, let count): ("index \(index) out of range (count \(count))", nil)
        case .notIndexable(let type, let key): ("cannot read \(key) of \(Self.article(type))", nil)
        case .unknownName(let name, let suggestion):
            ("unknown name '\(name)'", suggestion.map { "did you mean '\($0)'?" })
        case .unavailableName(let name, let hint): ("'\(name)' is not available here", hint)
        case .unknownFunction(let name, let suggestion):
            ("unknown function '\(name)'", suggestion.map { "did you mean '\($0)'?" } ?? "see 'help functions'")
        case .argumentCount(let function, let expected, let got): ("\(function) takes \(expected), got \(got)", nil)
        case .invalidArgument(let function, let detail): ("\(function): \(detail)", nil)
        case .notCallable: ("only functions can be called", "see 'help functions'")
        case .tooLarge(let what, let limit): ("\(what) is too large", "the limit is \(limit)")
        case .budgetSpent(let what, let limit, let unit):
            ("the evaluation went over its \(what) budget of \(limit) \(unit)",
             "evaluate less at once, or raise the budget with patchbay --\(what)-budget (see 'help values')")
        case .interrupted: (InterruptionError().description, nil)
        case .failed(let message): (message, nil)
        }
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
}
