@_spi(Shell) import PatchbayCore

/// A route pattern in JLRoutes syntax, such as `/user/:id(/edit)` or `/files/*`.
///
/// Segments are separated by `/`:
/// - a literal matches the same URL segment, byte for byte and case-sensitively; it is compared
///   with the URL's segment as written, still percent-encoded (so `caf%C3%A9` matches, `café`
///   matches only a URL that spells it unencoded);
/// - `:name` matches any one segment and captures it, percent-decoded once, under `name` (a
///   trailing `#` on the name is dropped, as JLRoutes does);
/// - `*`, allowed only as the last segment, matches the rest of the path, zero or more segments,
///   captured as an array of the segments as written under the parameter `*`;
/// - `( ... )` is an optional group. A pattern with groups stands for every in-order combination
///   of its groups (all required text kept), tried longest first: `/path/:thing(/new)(/more/:x)` is
///   `/path/:thing/new/more/:x`, `/path/:thing/more/:x`, `/path/:thing/new`, `/path/:thing`. A
///   group always starts and ends a segment, and the slashes at the ends of each part are
///   ignored, so `(rest/):object` and `(/rest)/:object` mean the same. Groups do not nest.
///
/// Leading and trailing slashes are ignored (`/a/b/` is `/a/b`, unlike JLRoutes, where a trailing
/// slash makes a pattern unmatchable), and a pattern without groups or segments (`/` or the empty
/// string) matches the root URL.
@_spi(Shell)
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
    /// One reference, so that results copy patterns cheaply.
    private final class Storage: Sendable {
        let text: String
        let expansions: [ExpandedPattern]

        init(text: String, expansions: [ExpandedPattern]) {
            self.text = text
            self.expansions = expansions
        }
    }

    private let storage: Storage

    /// The pattern as written.
    public var text: String { storage.text }
    /// The expanded patterns in the order they are tried (one unless the pattern has optional
    /// groups).
    var expansions: [ExpandedPattern] { storage.expansions }

    /// The most optional groups a pattern may have: n groups expand to 2^n patterns.
    public static let maximumGroups = 10
    /// The most segments a pattern may have.
    public static let maximumSegments = 512

    /// Parses `text`; errors carry the UTF-8 offset of the offending text.
    public init(_ text: String) throws(RoutingError) {
        storage = Storage(text: text, expansions: try PatternParser.expansions(of: text))
    }

    /// The expanded patterns in the order they are tried, each written with a leading `/` and its
    /// segments as in the original (`/path/:thing/new`). A pattern without optional groups has one.
    public var expandedPatterns: [String] { expansions.map(\.text) }

    /// The names of the parameters the pattern can capture, in order of first appearance (`*` for
    /// a wildcard).
    public var parameterNames: [String] {
        var names: [String] = []
        for expansion in expansions {
            for case .variable(let name) in expansion.segments where !names.contains(name) { names.append(name) }
            if expansion.hasWildcard, !names.contains("*") { names.append("*") }
        }
        return names
    }

    public var description: String { text }

    public static func == (lhs: RoutePattern, rhs: RoutePattern) -> Bool { lhs.text == rhs.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

/// One segment of an expanded pattern.
enum PatternSegment: Sendable, Hashable {
    /// Matches the URL segment with exactly these (still percent-encoded) bytes.
    case literal(String)
    /// Matches any one segment, captured under the name.
    case variable(String)
}

/// A pattern without optional groups: segments and perhaps a trailing wildcard.
struct ExpandedPattern: Sendable, Hashable {
    /// The segments before the wildcard, if any.
    var segments: [PatternSegment]
    /// Whether a `*` follows the segments.
    var hasWildcard: Bool
    /// The expansion written out, `/` followed by the segments as written, joined by `/`.
    var text: String
    /// When no URL can produce this expansion's segments: the index of the first literal that a URL
    /// segment can never be, and why.
    var impossibility: (segment: Int, why: String)? {
        for (index, segment) in segments.enumerated() {
            guard case .literal(let literal) = segment else { continue }
            if let why = Self.whyNoURLSegmentCanBe(literal) { return (index, why) }
        }
        return nil
    }

    /// Why no URL path segment can ever be `literal`, or nil when one can: a `?` always starts the
    /// query, and a `%` not followed by two hex digits makes the URL malformed.
    static func whyNoURLSegmentCanBe(_ literal: String) -> String? {
        let bytes = Array(literal.utf8)
        if bytes.contains(UInt8(ascii: "?")) { return "'?' starts a URL's query, so no path segment contains it" }
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, bytes[index + 1].percentHexDigit != nil, bytes[index + 2].percentHexDigit != nil
                else { return "'%' must be followed by two hex digits in a URL" }
                index += 3
            } else {
                index += 1
            }
        }
        return nil
    }
}
