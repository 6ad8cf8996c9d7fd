@_spi(Shell) import PatchbayCore

/// An error from routing: a malformed route pattern, a URL whose percent-encoding is broken, or a
/// URL that no route matches.
///
/// `range` holds UTF-8 byte offsets into the text the error is about: the pattern for pattern
/// errors, the URL for URL errors, so the shell can put a caret under `column`.
public struct RoutingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        // Patterns
        /// A `(` without its `)`.
        case unclosedGroup
        /// A `)` without a `(` before it.
        case unmatchedClosingParenthesis
        /// A `(` inside an optional group; groups do not nest (as in JLRoutes).
        case nestedGroup
        /// `()` or `(/)`: an optional group with no segment.
        case emptyGroup
        /// More optional groups than `limit`; n groups expand to 2^n patterns.
        case tooManyGroups(limit: Int)
        /// Something follows a `*` segment; the wildcard takes the rest of the path.
        case wildcardNotLast
        /// A `:` segment without a name.
        case emptyVariableName
        /// `//` inside a pattern: a segment with no text.
        case emptySegment
        /// More segments than `limit`.
        case tooManySegments(limit: Int)
        /// The pattern starts with a URL scheme (`tests:/test`): patterns have none, because the
        /// router routes the URLs of every scheme alike.
        case schemeInPattern(scheme: String, path: String)
        // URLs
        /// A `%` not followed by two hexadecimal digits; the payload is the offending text.
        case malformedPercentEscape(String)
        /// Percent-escapes that decode to bytes that are not UTF-8; the payload is the encoded text.
        case invalidUTF8(String)
        /// No route matches `url`; `closest` is the pattern that came closest and `because` why it
        /// failed.
        case noRouteMatches(url: String, closest: String?, because: String?)
    }

    public let reason: Reason
    /// UTF-8 byte offsets of the offending text within the pattern or URL.
    public let range: Range<Int>

    public init(_ reason: Reason, at range: Range<Int>) {
        self.reason = reason
        self.range = range
    }

    /// The UTF-8 byte offset (from 0) of the offending text: where a caret goes.
    public var column: Int { range.lowerBound }

    /// Whether the error is about a route pattern (rather than a URL).
    public var isPatternError: Bool {
        switch reason {
        case .unclosedGroup, .unmatchedClosingParenthesis, .nestedGroup, .emptyGroup, .tooManyGroups,
            .wildcardNotLast, .emptyVariableName, .emptySegment, .tooManySegments, .schemeInPattern:
            true
        case .malformedPercentEscape, .invalidUTF8, .noRouteMatches:
            false
        }
    }

    /// One line: what went wrong, and what to do about it.
    public var description: String {
        let text: String
        switch reason {
        case .unclosedGroup: text = "unclosed optional group; add the closing ')'"
        case .unmatchedClosingParenthesis: text = "')' without an opening '('"
        case .nestedGroup: text = "optional groups cannot be nested; close the group first"
        case .emptyGroup: text = "empty optional group; write a segment inside, e.g. (/edit)"
        case .tooManyGroups(let limit): text = "too many optional groups; the limit is \(limit)"
        case .wildcardNotLast: text = "'*' must be the last segment of a pattern"
        case .emptyVariableName: text = "a ':' segment needs a name, e.g. :id"
        case .emptySegment: text = "empty segment ('//') in a pattern; remove one '/'"
        case .tooManySegments(let limit): text = "too many segments in a pattern; the limit is \(limit)"
        case .schemeInPattern(let scheme, let path):
            text = "a pattern has no scheme: URLs of every scheme ('\(scheme):' too) are routed alike; write '\(path)'"
        case .malformedPercentEscape(let escape):
            text = "malformed percent-escape '\(escape)'; write '%' as %25"
        case .invalidUTF8(let encoded): text = "'\(encoded)' does not decode to UTF-8 text"
        case .noRouteMatches(let url, let closest, let because):
            var message = "no route matches \(url)"
            if let closest {
                message += "; closest pattern \(closest)"
                if let because { message += " failed because \(because)" }
            }
            text = message
        }
        return ExpressionError.oneLine(text)
    }
}
