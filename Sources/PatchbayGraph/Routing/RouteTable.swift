@_spi(Shell) public import PatchbayCore

/// The non-generic part of a `Router`: the routes' patterns and priorities in match order, and the
/// trie compiled from them. Matching runs here, so it is compiled once, whatever the payload type.
@usableFromInline
struct RouteTable: Sendable {
    @usableFromInline
    struct Entry: Sendable {
        var pattern: RoutePattern
        var priority: Int
        var hasGuard: Bool
        /// The trie definition of the pattern's first expansion; the others follow.
        var firstDefinition = 0
    }

    /// Routes by `RouteID.rawValue`; nil once removed.
    @usableFromInline
    private(set) var entries: [Entry?] = []
    /// Route ids in match order.
    private(set) var order: [RouteID] = []
    /// The routes by the text of their patterns; a text written twice finds the later route.
    private var idsByPattern: [String: RouteID] = [:]
    private(set) var trie = RouteTrie()

    @usableFromInline
    init() {}

    func entry(_ id: RouteID) -> Entry? { entries.indices.contains(id.rawValue) ? entries[id.rawValue] : nil }

    /// The route whose pattern is written `text`, if there is one.
    func id(ofPattern text: String) -> RouteID? { idsByPattern[text] }

    /// Adds a route after all routes of the same or higher priority.
    mutating func add(_ pattern: RoutePattern, priority: Int, hasGuard: Bool) -> RouteID {
        let id = RouteID(rawValue: entries.count)
        entries.append(Entry(pattern: pattern, priority: priority, hasGuard: hasGuard))
        idsByPattern[pattern.text] = id
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

    /// Gives route `id` a new priority and says whether it has a guard; it keeps its place
    /// among the routes of its (new) priority by its registration number. Recompiles the trie,
    /// so it costs what `remove` costs.
    mutating func update(_ id: RouteID, priority: Int, hasGuard: Bool) {
        guard var entry = entries[id.rawValue] else { return }
        entry.priority = priority
        entry.hasGuard = hasGuard
        entries[id.rawValue] = entry
        order.removeAll { $0 == id }
        var low = 0
        var high = order.count
        while low < high {
            let middle = (low + high) / 2
            if comesBefore(id, order[middle]) { high = middle } else { low = middle + 1 }
        }
        order.insert(id, at: low)
        recompile()
    }

    mutating func remove(_ id: RouteID) {
        if let text = entries[id.rawValue]?.pattern.text, idsByPattern[text] == id {
            idsByPattern[text] = order.filter { $0 != id && entries[$0.rawValue]!.pattern.text == text }.max()
        }
        entries[id.rawValue] = nil
        order.removeAll { $0 == id }
        recompile()
    }

    private mutating func recompile() {
        trie = RouteTrie()
        for id in order { compile(id) }
    }

    private mutating func compile(_ id: RouteID) {
        var entry = entries[id.rawValue]!
        entry.firstDefinition = trie.definitionCount
        entries[id.rawValue] = entry
        for (index, expansion) in entry.pattern.expansions.enumerated() {
            trie.insert(
                expansion, route: id.rawValue, index: index,
                rank: RouteRank(priority: entry.priority, sequence: id.rawValue, expansion: index), hasGuard: entry.hasGuard)
        }
    }

    /// The rank of a candidate's expansion, the bound of the search that follows when its guard
    /// declines.
    @usableFromInline
    func rank(of candidate: RouteCandidate) -> RouteRank {
        RouteRank(priority: entries[candidate.route]!.priority, sequence: candidate.route, expansion: candidate.expansion)
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
        return try trie.names.withUnsafeBufferPointer { (names) throws(RoutingError) -> RouteCandidate? in
            try trie.lists.withUnsafeBufferPointer { (lists) throws(RoutingError) -> RouteCandidate? in
                try RouteRequest.withRequest(for: url) { (request) throws(RoutingError) -> RouteCandidate? in
                    guard let found = RouteTrie.best(view, lists, request, after: bound) else { return nil }
                    return try Self.candidate(found, view, names, request, extra)
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
                    if expansion.matches(request) { return try candidate(id, expansion: index, request, extra) }
                }
            }
            return nil
        }
    }

    /// The candidate of route `id` with its expansion `index`, for a request it matches.
    func candidate(_ id: RouteID, expansion index: Int, _ request: RouteRequest, _ extra: [String: Value]) throws(RoutingError) -> RouteCandidate {
        let view = trie.view
        let definition = view.definitions[entries[id.rawValue]!.firstDefinition + index]
        return try trie.names.withUnsafeBufferPointer { (names) throws(RoutingError) -> RouteCandidate in
            try Self.candidate(definition.target, view, names, request, extra)
        }
    }

    /// The candidate of `target`, with the parameters of a match: variables, wildcard, query
    /// items, extra values (see `RouteResult.parameters`).
    private static func candidate(
        _ target: RouteTarget, _ view: TrieStorage.View, _ names: UnsafeBufferPointer<String>, _ request: RouteRequest,
        _ extra: [String: Value]
    ) throws(RoutingError) -> RouteCandidate {
        var parameters = Value.Members()
        let shape = view.shapes[Int(target.shape)]
        for index in 0..<Int(shape.captureCount) {
            let capture = view.captures[Int(shape.capturesStart) + index]
            parameters[names[Int(capture.name)]] = .string(try request.variableValue(Int(capture.position)))
        }
        if shape.wildcardAt >= 0 {
            parameters["*"] = .array((Int(shape.wildcardAt)..<request.count).map { .string(request.rawSegment($0)) })
        }
        if request.query != nil || request.fragmentQuery != nil {
            for (name, value) in try QueryParameters.items(of: request) where parameters[name] == nil {
                parameters[name] = value
            }
        }
        if !extra.isEmpty {
            for name in extra.keys.sorted() { parameters[name] = extra[name] }
        }
        return RouteCandidate(
            route: target.route, expansion: target.expansion, hasGuard: target.hasGuard, parameters: parameters)
    }
}

/// A pattern match before the route's guard has had its say.
@usableFromInline
struct RouteCandidate {
    @usableFromInline let route: Int
    @usableFromInline let expansion: Int
    /// Whether the route has a guard to ask.
    @usableFromInline let hasGuard: Bool
    @usableFromInline let parameters: Value.Members
}
