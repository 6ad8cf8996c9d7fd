@_spi(Shell) import PatchbayCore

/// A route that loses URLs to routes tried before it, or can never match at all.
///
/// **Shadowing.** Route E *shadows* route L on a URL when E comes before L in match order (higher
/// priority, or equal priority and registered earlier) and both patterns match the URL's path: L
/// gets that URL only if E's guard declines. Only paths count; queries, payloads and what a guard
/// would answer are ignored. Conflicts are reported between routes of the same priority (different
/// priorities are an explicit choice), as:
/// - `overlap`: E shadows L on some URLs, e.g. `witness`, but L still matches URLs E does not
///   (`/a/b` then `/a/:x`: `/a/b` goes to the first, `/a/c` to the second);
/// - `shadowed`: E shadows L on every URL L matches (`/a/:x` then `/a/b`, or the same pattern
///   twice); without a guard on E, L can never match.
///
/// **Unreachable routes** are reported whatever the priorities:
/// - `unreachable`: earlier routes without guards together match every URL L matches (a single
///   same-priority route doing so is already reported as `shadowed`);
/// - `impossible`: no URL has such a path at all, e.g. a literal containing `?`.
///
/// The analysis is exact: patterns are sequences of literal, variable and trailing wildcard
/// segments, and containment is decided segment by segment for each path length that matters.
@_spi(Shell)
public struct RouteConflict: Sendable, Hashable, CustomStringConvertible {
    /// A route taking part in a conflict.
    public struct Side: Sendable, Hashable {
        public let id: RouteID
        /// The pattern as written.
        public let pattern: String
        public let priority: Int
        public let hasGuard: Bool
    }

    public enum Kind: Sendable, Hashable {
        /// `earlier` (same priority) takes some URLs `route` matches, e.g. `witness`; `route` still
        /// gets others.
        case overlap(earlier: Side, witness: String)
        /// `earlier` (same priority) takes every URL `route` matches, e.g. `witness`.
        case shadowed(earlier: Side, witness: String)
        /// Earlier routes without guards together take every URL `route` matches.
        case unreachable(coveredBy: [Side])
        /// No URL has a path `route` matches: the literal at `segment` (from 0) is `text`, and `why`
        /// no URL segment can be.
        case impossible(segment: Int, text: String, why: String)
    }

    /// The route that loses URLs, or never matches.
    public let route: Side
    public let kind: Kind

    /// A URL both routes match, for `overlap` and `shadowed`.
    public var witness: String? {
        switch kind {
        case .overlap(_, let witness), .shadowed(_, let witness): witness
        case .unreachable, .impossible: nil
        }
    }

    /// Whether `route` can never be chosen.
    public var isUnreachable: Bool {
        switch kind {
        case .overlap: false
        case .shadowed(let earlier, _): !earlier.hasGuard
        case .unreachable, .impossible: true
        }
    }

    public var description: String {
        let text: String
        switch kind {
        case .overlap(let earlier, let witness):
            text = "\(route.pattern) overlaps \(earlier.pattern), added earlier with the same priority: both match \(witness), "
                + "which goes to \(earlier.pattern)"
        case .shadowed(let earlier, let witness):
            text = "\(route.pattern) is shadowed by \(earlier.pattern), added earlier with the same priority: "
                + "it matches every URL \(route.pattern) matches (e.g. \(witness)), so \(route.pattern) "
                + (earlier.hasGuard ? "matches only when that route's guard declines" : "can never match")
        case .unreachable(let coveredBy):
            text = "\(route.pattern) can never match: \(coveredBy.map(\.pattern).joined(separator: ", ")) "
                + "(tried first, without guards) match every URL it matches"
        case .impossible(let segment, let literal, let why):
            text = "\(route.pattern) can never match: segment \(segment + 1) is '\(literal)', and \(why)"
        }
        return ExpressionError.oneLine(text)
    }
}
