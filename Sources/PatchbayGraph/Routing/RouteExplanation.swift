@_spi(Shell) public import PatchbayCore

/// Why each route matched a URL or did not: the answer to `route explain`.
@_spi(Shell)
public struct RouteExplanation: Sendable, Equatable {
    /// How a route fared.
    public enum Outcome: Sendable, Equatable, CustomStringConvertible {
        /// The pattern matched and the guard, if any, accepted.
        case matched
        /// The path has `actual` segments; the pattern needs `expected` (or more, with a wildcard).
        case segmentCount(expected: Int, orMore: Bool, actual: Int)
        /// The literal at `segment` (counted from 0) differs from the URL's segment there, compared as
        /// written (still percent-encoded).
        case literalMismatch(segment: Int, expected: String, found: String)
        /// The pattern matched but the guard declined.
        case guardDeclined

        public var description: String {
            switch self {
            case .matched:
                "matched"
            case .segmentCount(let expected, let orMore, let actual):
                "the path has \(Self.segments(actual)), the pattern needs \(orMore ? "at least " : "")\(Self.segments(expected))"
            case .literalMismatch(let segment, let expected, let found):
                ExpressionError.oneLine("segment \(segment + 1) is '\(found)', the pattern needs '\(expected)'")
            case .guardDeclined:
                "its guard declined"
            }
        }

        private static func segments(_ count: Int) -> String { count == 1 ? "1 segment" : "\(count) segments" }
    }

    /// One route's outcome.
    public struct Entry: Sendable, Equatable {
        public let route: RouteID
        /// The route's pattern as written.
        public let pattern: String
        /// The expansion the outcome is about: the one that matched, or the one that came closest.
        public let expansion: String
        public let outcome: Outcome
        /// How close the route came (see `closestFailure`).
        let score: Int

        /// Whether the route matched (and its guard accepted).
        public var matched: Bool { outcome == .matched }
    }

    /// The URL as given.
    public let url: String
    /// The path segments the URL was split into, as written.
    public let segments: [String]
    /// One entry per route, in match order.
    public let entries: [Entry]
    /// The index in `entries` of the route `match` chooses: the first that matched.
    public var selected: Int? { entries.firstIndex(where: \.matched) }

    /// Among the routes that did not match, the one that came closest: one whose guard declined if
    /// any, else the one with the best score (two points per agreeing literal, one per variable,
    /// minus one per missing or extra segment, plus one when the differing literal looks like a
    /// typo), the earliest on a tie.
    public var closestFailure: Entry? {
        var best: Entry?
        for entry in entries where !entry.matched {
            if best == nil || entry.score > best!.score { best = entry }
        }
        return best
    }
}

extension Router {
    /// For each route in match order, whether it matched `url` or the first reason it failed.
    ///
    /// A route with optional groups reports the first expansion that matched or, failing that, the
    /// one that came closest. Guards run for every route whose pattern matched, also after the
    /// first match.
    public func explain(_ url: String, extra: [String: Value] = [:]) throws(RoutingError) -> RouteExplanation {
        try RouteRequest.withRequest(for: url) { (request) throws(RoutingError) -> RouteExplanation in
            var entries: [RouteExplanation.Entry] = []
            for id in table.order {
                entries.append(try explain(id, url, request, extra))
            }
            return RouteExplanation(url: url, segments: request.rawSegments, entries: entries)
        }
    }

    /// The route that came closest to matching `url` without matching it (see
    /// `RouteExplanation.closestFailure`); nil when every route matched or there are none.
    public func closestFailure(_ url: String, extra: [String: Value] = [:]) throws(RoutingError) -> RouteExplanation.Entry? {
        try explain(url, extra: extra).closestFailure
    }

    private func explain(
        _ id: RouteID, _ url: String, _ request: RouteRequest, _ extra: [String: Value]
    ) throws(RoutingError) -> RouteExplanation.Entry {
        let route = self[id]!
        var closest: (expansion: Int, outcome: RouteExplanation.Outcome, score: Int)?
        for (index, expansion) in route.pattern.expansions.enumerated() {
            let (outcome, score) = expansion.mismatch(request)
            if let outcome {
                if closest == nil || (closest!.outcome != .guardDeclined && score > closest!.score) {
                    closest = (index, outcome, score)
                }
                continue
            }
            let candidate = try table.candidate(id, expansion: index, request, extra)
            let result = RouteResult(candidate, route.payload, table.entries, url: url, extra: extra)
            if let accept = route.guard, !accept(result) {
                if closest?.outcome != .guardDeclined { closest = (index, .guardDeclined, .max) }
                continue
            }
            return RouteExplanation.Entry(
                route: route.id, pattern: route.pattern.text, expansion: expansion.text, outcome: .matched, score: .max)
        }
        let (index, outcome, score) = closest!
        return RouteExplanation.Entry(
            route: route.id, pattern: route.pattern.text, expansion: route.pattern.expansions[index].text, outcome: outcome,
            score: score)
    }
}
