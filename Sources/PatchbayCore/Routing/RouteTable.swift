/// The non-generic part of a `Router`: the routes' patterns and priorities in match order, and the
/// trie compiled from them. Matching runs here, so it is compiled once, whatever the payload type.
@usableFromInline
struct RouteTable: Sendable {
    struct Entry: Sendable {
        var pattern: RoutePattern
        var priority: Int
        var hasGuard: Bool
    }

    /// Routes by `RouteID.rawValue`; nil once removed.
    private(set) var entries: [Entry?] = []
    /// Route ids in match order.
    private(set) var order: [RouteID] = []
    private(set) var trie = RouteTrie()
    /// Per trie definition, what building its parameters needs, in one place.
    private(set) var plans: [DefinitionPlan] = []

    @usableFromInline
    init() {}

    func entry(_ id: RouteID) -> Entry? { entries.indices.contains(id.rawValue) ? entries[id.rawValue] : nil }

    /// Adds a route after all routes of the same or higher priority.
    mutating func add(_ pattern: RoutePattern, priority: Int, hasGuard: Bool) -> RouteID {
        let id = RouteID(rawValue: entries.count)
        entries.append(Entry(pattern: pattern, priority: priority, hasGuard: hasGuard))
        // `order` is sorted by descending priority: find the first lower priority by bisection.
        var low = 0
        var high = order.count
        while low < high {
            let middle = (low + high) / 2
            if entries[order[middle].rawValue]!.priority < priority { high = middle } else { low = middle + 1 }
        }
        order.insert(id, at: low)
        compile(id)
        return id
    }

    mutating func remove(_ id: RouteID) {
        entries[id.rawValue] = nil
        order.removeAll { $0 == id }
        trie = RouteTrie()
        plans = []
        for id in order { compile(id) }
    }

    private mutating func compile(_ id: RouteID) {
        let entry = entries[id.rawValue]!
        for (index, expansion) in entry.pattern.expansions.enumerated() {
            trie.insert(
                expansion, route: id.rawValue, index: index,
                rank: RouteRank(priority: entry.priority, sequence: id.rawValue, expansion: index))
            plans.append(DefinitionPlan(entry.pattern, expansion: index, priority: entry.priority))
        }
    }

    /// Whether route `a` is tried before route `b`.
    func comesBefore(_ a: RouteID, _ b: RouteID) -> Bool {
        let (pa, pb) = (entries[a.rawValue]!.priority, entries[b.rawValue]!.priority)
        return pa != pb ? pa > pb : a < b
    }

    /// The first expansion, in match order and after `bound`, whose pattern matches `url`, with its
    /// parameters; found through the trie.
    @usableFromInline
    func candidate(for url: String, extra: [String: Value], after bound: RouteRank?) throws(RoutingError) -> RouteCandidate? {
        // The closures below capture only raw pointers: capturing `self` would copy (and retain)
        // every array of the table on each match.
        let view = trie.view
        return try plans.withUnsafeBufferPointer { (plans) throws(RoutingError) -> RouteCandidate? in
            try trie.lists.withUnsafeBufferPointer { (lists) throws(RoutingError) -> RouteCandidate? in
                try RouteRequest.withRequest(for: url) { (request) throws(RoutingError) -> RouteCandidate? in
                    let found = RouteTrie.best(view, lists, request, after: bound)
                    guard found >= 0 else { return nil }
                    let definition = view.definitions[Int(found)]
                    let plan = plans[Int(found)]
                    return RouteCandidate(
                        route: definition.route, expansion: definition.expansion, rank: definition.rank,
                        pattern: plan.pattern, priority: plan.priority,
                        parameters: try Self.parameters(plan, request, extra))
                }
            }
        }
    }

    /// The same as `candidate(for:extra:after:)`, found by the ordered scan: the oracle.
    func scanCandidate(for url: String, extra: [String: Value], after bound: RouteRank?) throws(RoutingError) -> RouteCandidate? {
        try RouteRequest.withRequest(for: url) { (request) throws(RoutingError) -> RouteCandidate? in
            for id in order {
                let entry = entries[id.rawValue]!
                for (index, expansion) in entry.pattern.expansions.enumerated() {
                    let rank = RouteRank(priority: entry.priority, sequence: id.rawValue, expansion: index)
                    if let bound, !(bound < rank) { continue }
                    if expansion.matches(request) { return try candidate(id.rawValue, index, rank, request, extra) }
                }
            }
            return nil
        }
    }

    func candidate(
        _ route: Int, _ expansion: Int, _ rank: RouteRank, _ request: RouteRequest, _ extra: [String: Value]
    ) throws(RoutingError) -> RouteCandidate {
        let entry = entries[route]!
        return RouteCandidate(
            route: route, expansion: expansion, rank: rank, pattern: entry.pattern, priority: entry.priority,
            parameters: try Self.parameters(DefinitionPlan(entry.pattern, expansion: expansion, priority: entry.priority), request, extra))
    }

    /// The parameters of a match: variables, wildcard, query items, extra values (see
    /// `RouteResult.parameters`).
    static func parameters(_ plan: DefinitionPlan, _ request: RouteRequest, _ extra: [String: Value]) throws(RoutingError) -> Value.Members {
        var parameters = Value.Members()
        if let capture = plan.first {
            parameters[capture.name] = .string(try request.variableValue(capture.position))
            if let capture = plan.second {
                parameters[capture.name] = .string(try request.variableValue(capture.position))
                for capture in plan.more { parameters[capture.name] = .string(try request.variableValue(capture.position)) }
            }
        }
        if plan.wildcardAt >= 0 {
            parameters["*"] = .array((plan.wildcardAt..<request.count).map { .string(request.rawSegment($0)) })
        }
        if request.query != nil || request.fragmentQuery != nil {
            for (name, value) in try QueryParameters.items(of: request) where parameters[name] == nil {
                parameters[name] = value
            }
        }
        if !extra.isEmpty {
            for name in extra.keys.sorted() { parameters[name] = extra[name] }
        }
        return parameters
    }
}

/// What building the parameters of one expansion needs, kept together so that a match touches
/// little memory: the variables' positions and names (the first two inline), and where a
/// wildcard starts.
struct DefinitionPlan: Sendable {
    struct Capture: Sendable {
        var position: Int
        var name: String
    }

    var pattern: RoutePattern
    var priority: Int
    var first: Capture?
    var second: Capture?
    var more: [Capture] = []
    /// The index of the first segment the wildcard takes, or -1.
    var wildcardAt: Int

    init(_ pattern: RoutePattern, expansion index: Int, priority: Int) {
        self.pattern = pattern
        self.priority = priority
        let expansion = pattern.expansions[index]
        var captures: [Capture] = []
        for (position, segment) in expansion.segments.enumerated() {
            if case .variable(let name) = segment { captures.append(Capture(position: position, name: name)) }
        }
        first = captures.first
        second = captures.count > 1 ? captures[1] : nil
        more = Array(captures.dropFirst(2))
        wildcardAt = expansion.hasWildcard ? expansion.segments.count : -1
    }
}

/// A pattern match before the route's guard has had its say.
@usableFromInline
struct RouteCandidate {
    @usableFromInline let route: Int
    @usableFromInline let expansion: Int
    @usableFromInline let rank: RouteRank
    @usableFromInline let pattern: RoutePattern
    @usableFromInline let priority: Int
    @usableFromInline let parameters: Value.Members
}
