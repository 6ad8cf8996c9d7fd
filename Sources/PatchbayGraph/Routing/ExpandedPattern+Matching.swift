@_spi(Shell) import PatchbayCore

extension ExpandedPattern {
    /// Whether the expansion matches the request's path: the way the ordered scan (and JLRoutes'
    /// `routeResponseForRequest`) decides, one route after another.
    func matches(_ request: RouteRequest) -> Bool {
        let count = request.count
        if hasWildcard ? count < segments.count : count != segments.count { return false }
        for (index, segment) in segments.enumerated() {
            if case .literal(let literal) = segment, !request.segment(index, equals: literal) { return false }
        }
        return true
    }

    /// Why the expansion does not match the request's path (nil when it does), in the order
    /// JLRoutes finds out: a pattern without wildcard first compares segment counts; then literals
    /// are compared from the left; a wildcard pattern longer than the path fails where the path ends.
    ///
    /// The score says how close the path came, for `closestFailure`: two points per agreeing
    /// literal, one per variable, minus one per missing or extra segment, plus one when the first
    /// differing literal looks like a typo of the URL's segment.
    func mismatch(_ request: RouteRequest) -> (outcome: RouteExplanation.Outcome?, score: Int) {
        let count = request.count
        var score = 0
        var firstDifference: Int?
        for index in 0..<Swift.min(count, segments.count) {
            switch segments[index] {
            case .variable:
                score += 1
            case .literal(let literal):
                if request.segment(index, equals: literal) {
                    score += 2
                } else if firstDifference == nil {
                    firstDifference = index
                }
            }
        }
        let missing = hasWildcard ? Swift.max(0, segments.count - count) : abs(segments.count - count)
        score -= missing
        var outcome: RouteExplanation.Outcome?
        let countFailure = RouteExplanation.Outcome.segmentCount(expected: segments.count, orMore: hasWildcard, actual: count)
        if !hasWildcard, count != segments.count {
            outcome = countFailure
        } else if let index = firstDifference, case .literal(let literal) = segments[index] {
            let found = request.rawSegment(index)
            outcome = .literalMismatch(segment: index, expected: literal, found: found)
            let distance = Spelling.editDistance(Array(literal.unicodeScalars), Array(found.unicodeScalars))
            if distance <= Swift.max(1, literal.unicodeScalars.count / 3) { score += 1 }
        } else if count < segments.count {
            outcome = countFailure
        }
        return (outcome, score)
    }
}
