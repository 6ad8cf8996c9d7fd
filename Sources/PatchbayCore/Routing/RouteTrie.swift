/// A position in match order: higher priority first, then registration order, then the order of a
/// pattern's expansions. Smaller ranks are tried first.
@usableFromInline
struct RouteRank: Comparable, Sendable, BitwiseCopyable {
    var high: UInt64
    var low: UInt64

    static let max = RouteRank(high: .max, low: .max)

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    init(priority: Int, sequence: Int, expansion: Int) {
        // Order-preserving map of Int to UInt64, inverted so that higher priorities come first.
        high = ~(UInt64(bitPattern: Int64(priority)) ^ (1 << 63))
        low = UInt64(sequence) << 16 | UInt64(expansion)
    }

    @usableFromInline
    static func < (a: RouteRank, b: RouteRank) -> Bool { a.high != b.high ? a.high < b.high : a.low < b.low }
}

/// One expansion of one route, as compiled into the trie.
///
/// It also says how to build the match's parameters, in plain data next to the rank the search
/// reads anyway: where the wildcard starts and which segments are variables, with their names as
/// indices into the trie's interned names.
struct RouteDefinition: Sendable, BitwiseCopyable {
    /// A variable: its segment and its name's index in `RouteTrie.names`.
    struct Capture: Sendable, BitwiseCopyable {
        var position: Int32
        var name: Int32
    }

    var rank: RouteRank
    private var routeNumber: Int32
    private var expansionNumber: Int32
    /// The first segment the wildcard takes, or -1 without wildcard.
    var wildcardAt: Int32
    /// The number of variables: the first is `first`, the others are in the storage's captures from
    /// `moreStart`.
    var captureCount: Int32
    var first: Capture
    var moreStart: Int32

    init(route: Int, expansion: Int, rank: RouteRank, wildcardAt: Int, captureCount: Int, first: Capture, moreStart: Int) {
        self.rank = rank
        routeNumber = Int32(route)
        expansionNumber = Int32(expansion)
        self.wildcardAt = Int32(wildcardAt)
        self.captureCount = Int32(captureCount)
        self.first = first
        self.moreStart = Int32(moreStart)
    }

    /// The route's `RouteID.rawValue`.
    var route: Int { Int(routeNumber) }
    /// The index of the expansion in the route's pattern.
    var expansion: Int { Int(expansionNumber) }
}

/// The route table compiled into a trie over path segments, so a match costs about the same
/// whatever the number of routes, while choosing exactly the route the ordered scan would.
///
/// Each node is reached by a sequence of segments: literal edges are keyed by the segment's bytes
/// (one hash table for all edges, in `TrieStorage`), and there is at most one variable edge,
/// shared by all `:name` segments whatever their names. A node lists the expansions that end there (*terminals*, matching when the
/// URL has no more segments) and those that end there with `*` (*wildcards*, matching whatever
/// follows), each list sorted by rank; every node also knows the smallest rank in its subtree.
///
/// A search is a depth-first walk that follows, at each URL segment, the literal edge and the
/// variable edge, trying first the child whose subtree holds the smaller rank and skipping any
/// subtree whose smallest rank is no better than the best match found so far. Every path through
/// the trie that fits the URL is considered unless it cannot beat the best, so the result is the
/// smallest-ranked expansion that matches: the first one the ordered scan finds, with backtracking
/// where a literal leads to a dead end (`/:provider` still matches `/google` next to
/// `/google/callback`). When a guard declines, the search runs again for the best rank after the
/// declined one, which is again what the scan does next.
struct RouteTrie: Sendable {
    typealias Node = TrieStorage.Node

    struct Lists: Sendable {
        var terminals: [Int32] = []
        var wildcards: [Int32] = []
        var literals: [(literal: String, child: Int32)] = []
    }

    /// Nodes, definitions and literal edges.
    private(set) var storage = TrieStorage()
    /// The storage's buffers, kept up to date by `insert`, so that a match reads no class property.
    private(set) var view: TrieStorage.View
    /// Per node: all its terminal and wildcard definitions sorted by rank, and its literal edges.
    private(set) var lists: [Lists] = [Lists()]
    /// Variable names, each once.
    private(set) var names: [String] = []
    private var nameIndex: [String: Int32] = [:]

    init() { view = storage.view }

    func definition(_ index: Int32) -> RouteDefinition { storage.definitions[Int(index)] }

    var definitionCount: Int { storage.definitions.count }

    private func node(_ index: Int32) -> Node { storage.nodes[Int(index)] }

    /// Adds one expansion of a route.
    mutating func insert(_ expansion: ExpandedPattern, route: Int, index: Int, rank: RouteRank) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        var node: Int32 = 0
        var path: [Int32] = [0]
        for segment in expansion.segments {
            switch segment {
            case .literal(let literal):
                var child = storage.literalChild(of: node, literal: literal)
                if child < 0 {
                    child = storage.addNode()
                    lists.append(Lists())
                    storage.insertLiteral(parent: node, literal: literal, child: child)
                    lists[Int(node)].literals.append((literal, child))
                    storage.updateNode(node) { $0.literalCount += 1 }
                }
                node = child
            case .variable:
                var child = self.node(node).variable
                if child < 0 {
                    child = storage.addNode()
                    lists.append(Lists())
                    storage.updateNode(node) { $0.variable = child }
                }
                node = child
            }
            path.append(node)
        }
        var captures: [RouteDefinition.Capture] = []
        for (position, segment) in expansion.segments.enumerated() {
            guard case .variable(let name) = segment else { continue }
            var number = nameIndex[name]
            if number == nil {
                number = Int32(names.count)
                names.append(name)
                nameIndex[name] = number
            }
            captures.append(RouteDefinition.Capture(position: Int32(position), name: number!))
        }
        let moreStart = storage.addCaptures(captures.dropFirst())
        let definition = storage.addDefinition(
            RouteDefinition(
                route: route, expansion: index, rank: rank, wildcardAt: expansion.hasWildcard ? expansion.segments.count : -1,
                captureCount: captures.count, first: captures.first ?? RouteDefinition.Capture(position: 0, name: 0),
                moreStart: moreStart))
        let at = Int(node)
        let definitions = storage.definitions
        if expansion.hasWildcard {
            let position = lists[at].wildcards.firstIndex { rank < definitions[Int($0)].rank } ?? lists[at].wildcards.count
            lists[at].wildcards.insert(definition, at: position)
            let best = lists[at].wildcards[0]
            storage.updateNode(node) { $0.bestWildcard = best }
        } else {
            let position = lists[at].terminals.firstIndex { rank < definitions[Int($0)].rank } ?? lists[at].terminals.count
            lists[at].terminals.insert(definition, at: position)
            let best = lists[at].terminals[0]
            storage.updateNode(node) { $0.bestTerminal = best }
        }
        for node in path {
            storage.updateNode(node) { if rank < $0.minRank { $0.minRank = rank } }
        }
        view = storage.view
    }

    /// The smallest-ranked definition that matches the request's path with a rank greater than
    /// `bound` (any rank when nil), or -1; `view` and `lists` are the trie's, and `lists` are read
    /// only when `bound` is set.
    static func best(
        _ view: TrieStorage.View, _ lists: UnsafeBufferPointer<Lists>, _ request: RouteRequest, after bound: RouteRank?
    ) -> Int32 {
        var search = Search(view: view, lists: lists, request: request, bound: bound)
        search.visit(0, depth: 0)
        return search.best
    }

    private struct Search {
        let view: TrieStorage.View
        let lists: UnsafeBufferPointer<Lists>
        let request: RouteRequest
        let bound: RouteRank?
        var best: Int32 = -1
        var bestRank = RouteRank.max

        init(view: TrieStorage.View, lists: UnsafeBufferPointer<Lists>, request: RouteRequest, bound: RouteRank?) {
            self.view = view
            self.lists = lists
            self.request = request
            self.bound = bound
        }

        mutating func visit(_ index: Int32, depth: Int) {
            let node = view.nodes[Int(index)]
            guard node.minRank < bestRank else { return }
            if node.bestWildcard >= 0 { consider(node.bestWildcard, index, wildcard: true) }
            if depth == request.count {
                if node.bestTerminal >= 0 { consider(node.bestTerminal, index, wildcard: false) }
                return
            }
            var literal: Int32 = -1
            if node.literalCount > 0 {
                literal = view.literalChild(of: index, key: request.segmentKey(depth), bytes: request.segment(depth))
            }
            let variable = node.variable
            if literal >= 0, variable >= 0 {
                if !(view.nodes[Int(variable)].minRank < view.nodes[Int(literal)].minRank) {
                    visit(literal, depth: depth + 1)
                    visit(variable, depth: depth + 1)
                } else {
                    visit(variable, depth: depth + 1)
                    visit(literal, depth: depth + 1)
                }
            } else if literal >= 0 {
                visit(literal, depth: depth + 1)
            } else if variable >= 0 {
                visit(variable, depth: depth + 1)
            }
        }

        /// Takes the node's best terminal or wildcard definition if it beats the best so far; after
        /// a declined guard, the first one in the node's list past the bound.
        @inline(__always)
        private mutating func consider(_ first: Int32, _ node: Int32, wildcard: Bool) {
            var candidate = first
            if let bound, !(bound < view.definitions[Int(candidate)].rank) {
                let list = wildcard ? lists[Int(node)].wildcards : lists[Int(node)].terminals
                guard let next = list.first(where: { bound < view.definitions[Int($0)].rank }) else { return }
                candidate = next
            }
            let rank = view.definitions[Int(candidate)].rank
            if rank < bestRank {
                best = candidate
                bestRank = rank
            }
        }
    }

    /// Every definition whose expansion matches some path that `expansion` also matches.
    func overlapping(_ expansion: ExpandedPattern) -> [Int32] {
        var found: [Int32] = []
        walk(0, depth: 0, expansion, &found)
        return found
    }

    private func walk(_ node: Int32, depth: Int, _ expansion: ExpandedPattern, _ found: inout [Int32]) {
        let lists = self.lists[Int(node)]
        // A wildcard here matches any longer path, and the expansion matches paths at least this long.
        found += lists.wildcards
        if depth == expansion.segments.count {
            found += lists.terminals
            if expansion.hasWildcard {
                for child in children(of: node) { collect(child, &found) }
            }
            return
        }
        switch expansion.segments[depth] {
        case .literal(let literal):
            let child = storage.literalChild(of: node, literal: literal)
            if child >= 0 { walk(child, depth: depth + 1, expansion, &found) }
        case .variable:
            for (_, child) in lists.literals { walk(child, depth: depth + 1, expansion, &found) }
        }
        let variable = self.node(node).variable
        if variable >= 0 { walk(variable, depth: depth + 1, expansion, &found) }
    }

    private func children(of node: Int32) -> [Int32] {
        var result = lists[Int(node)].literals.map(\.child)
        if self.node(node).variable >= 0 { result.append(self.node(node).variable) }
        return result
    }

    /// Every definition in the subtree.
    private func collect(_ node: Int32, _ found: inout [Int32]) {
        var pending = [node]
        while let next = pending.popLast() {
            found += lists[Int(next)].terminals
            found += lists[Int(next)].wildcards
            pending += children(of: next)
        }
    }
}
