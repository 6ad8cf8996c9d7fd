@_spi(Shell) import PatchbayCore

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

/// One expansion of one route, as compiled into the trie: its rank and its target.
struct RouteDefinition: Sendable, BitwiseCopyable {
    var rank: RouteRank
    var target: RouteTarget

    /// The route's `RouteID.rawValue`.
    var route: Int { target.route }
    /// The index of the expansion in the route's pattern.
    var expansion: Int { target.expansion }
}

/// What a match needs of the expansion it chose: the route and expansion, whether the route has a
/// guard, and the shape of its parameters.
struct RouteTarget: Sendable, BitwiseCopyable {
    private var routeNumber: Int32
    /// The index of the expansion's `RouteShape` in the trie's storage.
    var shape: Int32
    // Patterns have at most 2^`RoutePattern.maximumGroups` expansions.
    private var expansionNumber: UInt16
    var hasGuard: Bool

    init(route: Int, expansion: Int, hasGuard: Bool, shape: Int32) {
        routeNumber = Int32(route)
        expansionNumber = UInt16(expansion)
        self.hasGuard = hasGuard
        self.shape = shape
    }

    /// The route's `RouteID.rawValue`.
    var route: Int { Int(routeNumber) }
    /// The index of the expansion in the route's pattern.
    var expansion: Int { Int(expansionNumber) }

    /// A placeholder, for nodes without terminal and searches without match.
    static let none = RouteTarget(route: 0, expansion: 0, hasGuard: false, shape: 0)
}

/// How to build a match's parameters from the path: which segments are variables, with their
/// names as indices into the trie's interned names, and where the wildcard starts. Expansions
/// alike share one shape, so that the shapes a match reads are few and stay in the cache.
struct RouteShape: Sendable, BitwiseCopyable {
    /// A variable: its segment and its name's index in `RouteTrie.names`.
    struct Capture: Sendable, BitwiseCopyable, Hashable {
        var position: Int32
        var name: Int32
    }

    /// The first segment the wildcard takes, or -1 without wildcard.
    var wildcardAt: Int32
    /// The variables are in the storage's captures from `capturesStart`.
    var captureCount: Int32
    var capturesStart: Int32
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
    /// Shapes by their wildcard position and variables, each once.
    private var shapeIndex: [ShapeKey: Int32] = [:]

    private struct ShapeKey: Hashable {
        var wildcardAt: Int
        var captures: [RouteShape.Capture]
    }

    init() { view = storage.view }

    func definition(_ index: Int32) -> RouteDefinition { storage.definitions[Int(index)] }

    var definitionCount: Int { storage.definitions.count }

    private func node(_ index: Int32) -> Node { storage.nodes[Int(index)] }

    /// Adds one expansion of a route.
    mutating func insert(_ expansion: ExpandedPattern, route: Int, index: Int, rank: RouteRank, hasGuard: Bool) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        var node: Int32 = 0
        var path: [Int32] = [0]
        for (position, segment) in expansion.segments.enumerated() {
            switch segment {
            case .literal(let literal):
                var child = storage.literalChild(of: node, literal: literal)
                if child < 0 {
                    // A new node followed by a variable gets its variable child next: an even index
                    // puts both in one cache line (nodes take half a line), so a match passing
                    // through both reads one line.
                    if position + 1 < expansion.segments.count, case .variable = expansion.segments[position + 1],
                        storage.nodes.count % 2 == 1
                    {
                        _ = storage.addNode()
                        lists.append(Lists())
                    }
                    child = storage.addNode()
                    lists.append(Lists())
                    storage.insertLiteral(parent: node, literal: literal, child: child)
                    lists[Int(node)].literals.append((literal, child))
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
        var captures: [RouteShape.Capture] = []
        for (position, segment) in expansion.segments.enumerated() {
            guard case .variable(let name) = segment else { continue }
            var number = nameIndex[name]
            if number == nil {
                number = Int32(names.count)
                names.append(name)
                nameIndex[name] = number
            }
            captures.append(RouteShape.Capture(position: Int32(position), name: number!))
        }
        let key = ShapeKey(wildcardAt: expansion.hasWildcard ? expansion.segments.count : -1, captures: captures)
        var shape = shapeIndex[key]
        if shape == nil {
            shape = storage.addShape(wildcardAt: key.wildcardAt, captures: captures)
            shapeIndex[key] = shape
        }
        let target = RouteTarget(route: route, expansion: index, hasGuard: hasGuard, shape: shape!)
        let definition = storage.addDefinition(RouteDefinition(rank: rank, target: target))
        let at = Int(node)
        let definitions = storage.definitions
        if expansion.hasWildcard {
            let position = lists[at].wildcards.firstIndex { rank < definitions[Int($0)].rank } ?? lists[at].wildcards.count
            lists[at].wildcards.insert(definition, at: position)
            storage.setBestWildcard(node, lists[at].wildcards[0])
        } else {
            let position = lists[at].terminals.firstIndex { rank < definitions[Int($0)].rank } ?? lists[at].terminals.count
            lists[at].terminals.insert(definition, at: position)
            let best = lists[at].terminals[0]
            storage.updateNode(node) { $0.setTerminal(best, definitions[Int(best)].target) }
        }
        for node in path { storage.lowerMinRank(node, to: rank) }
        view = storage.view
    }

    /// The target of the smallest-ranked definition that matches the request's path with a rank
    /// greater than `bound` (any rank when nil), or nil; `view` and `lists` are the trie's, and
    /// `lists` are read only when `bound` is set.
    static func best(
        _ view: TrieStorage.View, _ lists: UnsafeBufferPointer<Lists>, _ request: RouteRequest, after bound: RouteRank?
    ) -> RouteTarget? {
        var search = Search(view: view, lists: lists, request: request, bound: bound)
        search.visit(0, depth: 0)
        return search.best >= 0 ? search.bestTarget : nil
    }

    private struct Search {
        let view: TrieStorage.View
        let lists: UnsafeBufferPointer<Lists>
        let request: RouteRequest
        let bound: RouteRank?
        /// The best definition so far, or -1.
        var best: Int32 = -1
        var bestTarget = RouteTarget.none
        /// The rank of `best` once read: ranks are read only to compare matches, which most
        /// searches never do.
        var knownBestRank: RouteRank?

        init(view: TrieStorage.View, lists: UnsafeBufferPointer<Lists>, request: RouteRequest, bound: RouteRank?) {
            self.view = view
            self.lists = lists
            self.request = request
            self.bound = bound
        }

        /// The rank of the best definition so far (`best` must be set).
        mutating func bestRank() -> RouteRank {
            if let knownBestRank { return knownBestRank }
            let rank = view.definitions[Int(best)].rank
            knownBestRank = rank
            return rank
        }

        mutating func visit(_ index: Int32, depth: Int) {
            let node = view.nodes[Int(index)]
            // Pruning matters only once there is a match to beat; until then, leave the ranks unread.
            if best >= 0, !(view.minRanks[Int(index)] < bestRank()) { return }
            if node.hasWildcard {
                consider(view.bestWildcards[Int(index)], nil, index, wildcard: true)
            }
            if depth == request.count {
                if node.bestTerminal >= 0 { consider(node.bestTerminal, node.terminal, index, wildcard: false) }
                return
            }
            var literal: Int32 = -1
            if node.hasLiterals {
                literal = view.literalChild(of: index, key: request.segmentKey(depth), bytes: request.segment(depth))
            }
            let variable = node.variable
            if literal >= 0, variable >= 0 {
                if !(view.minRanks[Int(variable)] < view.minRanks[Int(literal)]) {
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

        /// Takes the node's best terminal or wildcard definition (whose target is given, when at
        /// hand) if it beats the best so far; after a declined guard, the first one in the node's
        /// list past the bound.
        @inline(__always)
        private mutating func consider(_ first: Int32, _ firstTarget: RouteTarget?, _ node: Int32, wildcard: Bool) {
            var candidate = first
            var target = firstTarget
            var rank: RouteRank?
            if let bound {
                let firstRank = view.definitions[Int(first)].rank
                rank = firstRank
                if !(bound < firstRank) {
                    let list = wildcard ? lists[Int(node)].wildcards : lists[Int(node)].terminals
                    guard let next = list.first(where: { bound < view.definitions[Int($0)].rank }) else { return }
                    candidate = next
                    target = nil
                    rank = view.definitions[Int(next)].rank
                }
            }
            if best >= 0 {
                let candidateRank = rank ?? view.definitions[Int(candidate)].rank
                guard candidateRank < bestRank() else { return }
                rank = candidateRank
            }
            best = candidate
            knownBestRank = rank
            bestTarget = target ?? view.definitions[Int(candidate)].target
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
