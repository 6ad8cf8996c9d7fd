@_spi(Shell) import PatchbayCore

extension Router {
    /// Every conflict in the table (see `RouteConflict` for what counts), by the route that loses,
    /// in match order, then by the route that wins.
    public func conflicts() -> [RouteConflict] {
        matchOrder.flatMap { analyze($0) }
    }

    /// The conflicts `id` takes part in: the routes it loses URLs to, whether it can match at all,
    /// and the later routes it takes URLs from or makes unreachable. Call it after `add` to warn.
    public func conflicts(involving id: RouteID) -> [RouteConflict] {
        guard let route = self[id] else { return [] }
        var result = analyze(id)
        var affected: Set<RouteID> = []
        for expansion in route.pattern.expansions where expansion.impossibility == nil {
            for found in trie.overlapping(expansion) {
                let other = RouteID(rawValue: trie.definition(found).route)
                if other != id, comesBefore(id, other) { affected.insert(other) }
            }
        }
        // In match order; sorting the few affected routes rather than filtering every route keeps
        // a check after `add` from growing with the size of the table.
        for other in affected.sorted(by: comesBefore) {
            result += analyze(other).filter { conflict in
                switch conflict.kind {
                case .overlap(let earlier, _), .shadowed(let earlier, _): earlier.id == id
                case .unreachable(let coveredBy): coveredBy.contains { $0.id == id }
                case .impossible: false
                }
            }
        }
        return result
    }

    private func comesBefore(_ a: RouteID, _ b: RouteID) -> Bool { table.comesBefore(a, b) }

    private var trie: RouteTrie { table.trie }

    private func side(_ id: RouteID) -> RouteConflict.Side {
        let route = self[id]!
        return RouteConflict.Side(id: id, pattern: route.pattern.text, priority: route.priority, hasGuard: route.hasGuard)
    }

    /// The conflicts in which `id` is the route that loses.
    private func analyze(_ id: RouteID) -> [RouteConflict] {
        let route = self[id]!
        let expansions = route.pattern.expansions
        let possible = expansions.indices.filter { expansions[$0].impossibility == nil }
        guard !possible.isEmpty else {
            let (segment, why) = expansions[0].impossibility!
            guard case .literal(let text) = expansions[0].segments[segment] else { return [] }
            return [RouteConflict(route: side(id), kind: .impossible(segment: segment, text: text, why: why))]
        }

        // The earlier routes that overlap, each with the pairs of expansions that do.
        var pairs: [RouteID: [(mine: Int, theirs: Int)]] = [:]
        for mine in possible {
            for found in trie.overlapping(expansions[mine]) {
                let definition = trie.definition(found)
                let other = RouteID(rawValue: definition.route)
                guard other != id, comesBefore(other, id) else { continue }
                pairs[other, default: []].append((mine, definition.expansion))
            }
        }
        let earlier = pairs.keys.sorted(by: comesBefore)

        var conflicts: [RouteConflict] = []
        var shadowedOutright = false
        for other in earlier where self[other]!.priority == route.priority {
            let theirs = self[other]!.pattern.expansions
            let candidates = pairs[other]!.sorted { $0.mine != $1.mine ? $0.mine < $1.mine : $0.theirs < $1.theirs }
            guard let witness = candidates.lazy.compactMap({ Self.witness(expansions[$0.mine], theirs[$0.theirs]) }).first else {
                continue
            }
            let coverers = theirs.filter { $0.impossibility == nil }
            if possible.allSatisfy({ Self.cover(expansions[$0], by: coverers) != nil }) {
                conflicts.append(RouteConflict(route: side(id), kind: .shadowed(earlier: side(other), witness: witness)))
                if !self[other]!.hasGuard { shadowedOutright = true }
            } else {
                conflicts.append(RouteConflict(route: side(id), kind: .overlap(earlier: side(other), witness: witness)))
            }
        }

        if !shadowedOutright {
            var candidates: [(route: RouteID, expansion: ExpandedPattern)] = []
            for other in earlier where !self[other]!.hasGuard {
                for expansion in self[other]!.pattern.expansions where expansion.impossibility == nil {
                    candidates.append((other, expansion))
                }
            }
            var used: Set<RouteID> = []
            var covered = !candidates.isEmpty
            for mine in possible where covered {
                if let indices = Self.cover(expansions[mine], by: candidates.map(\.expansion)) {
                    for index in indices { used.insert(candidates[index].route) }
                } else {
                    covered = false
                }
            }
            if covered {
                let coveredBy = earlier.filter(used.contains).map(side)
                conflicts.append(RouteConflict(route: side(id), kind: .unreachable(coveredBy: coveredBy)))
            }
        }
        return conflicts
    }

    /// A URL that both expansions match, checked by matching it; nil when there is none.
    ///
    /// The path is as short as both allow; each segment is the literal of either expansion (both
    /// literals must agree), or a sample for two variables.
    static func witness(_ a: ExpandedPattern, _ b: ExpandedPattern) -> String? {
        let (na, nb) = (a.segments.count, b.segments.count)
        let length: Int
        switch (a.hasWildcard, b.hasWildcard) {
        case (false, false):
            guard na == nb else { return nil }
            length = na
        case (true, false):
            guard nb >= na else { return nil }
            length = nb
        case (false, true):
            guard na >= nb else { return nil }
            length = na
        case (true, true):
            length = Swift.max(na, nb)
        }
        var segments: [String] = []
        for index in 0..<length {
            let sa = index < na ? a.segments[index] : nil
            let sb = index < nb ? b.segments[index] : nil
            switch (sa, sb) {
            case (.literal(let x)?, .literal(let y)?):
                guard x == y else { return nil }
                segments.append(x)
            case (.literal(let x)?, _), (_, .literal(let x)?):
                segments.append(x)
            case (.variable(let name)?, _), (_, .variable(let name)?):
                segments.append(Self.sample(for: name))
            case (nil, nil):
                segments.append("x")
            }
        }
        let url = "/" + segments.joined(separator: "/")
        let matchesBoth = (try? RouteRequest.withRequest(for: url) { (request) throws(RoutingError) -> Bool in
            a.matches(request) && b.matches(request)
        }) ?? false
        return matchesBoth ? url : nil
    }

    /// A segment value for a variable in a witness: its name when that reads well in a URL.
    private static func sample(for name: String) -> String {
        let plain = name.utf8.allSatisfy {
            ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z"))
                || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
        return plain && !name.isEmpty ? name : "x"
    }

    /// Whether the expansions `candidates` together match every path `expansion` matches: for each
    /// path length that matters, one candidate must match every path of that length (a path of
    /// fresh segments at the expansion's free positions is matched only by a candidate with
    /// variables there, so no union of partial matches can do). Returns the index of a covering
    /// candidate per length, or nil.
    static func cover(_ expansion: ExpandedPattern, by candidates: [ExpandedPattern]) -> [Int]? {
        let explicit = expansion.segments.count
        var last = explicit
        if expansion.hasWildcard {
            // Beyond every candidate's explicit segments, all longer paths behave alike.
            last = Swift.max(explicit, candidates.map(\.segments.count).max() ?? 0) + 1
        }
        var used: [Int] = []
        for length in explicit...last {
            guard let index = candidates.firstIndex(where: { covers($0, expansion, length) }) else { return nil }
            used.append(index)
        }
        return used
    }

    /// Whether `candidate` matches every path of `length` segments that `expansion` matches.
    private static func covers(_ candidate: ExpandedPattern, _ expansion: ExpandedPattern, _ length: Int) -> Bool {
        let count = candidate.segments.count
        guard candidate.hasWildcard ? count <= length : count == length else { return false }
        for index in 0..<count {
            guard case .literal(let literal) = candidate.segments[index] else { continue }
            guard index < expansion.segments.count, case .literal(let other) = expansion.segments[index], other == literal else {
                return false
            }
        }
        return true
    }
}
