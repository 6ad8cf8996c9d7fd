@_spi(Shell) import PatchbayCore

/// How the graph ranks its nodes, kept up to date as it grows: a wave evaluates nodes in rank
/// order, ties in creation order, so each runs once, after all its inputs, and reads settled values.
///
/// A node's rank is the length of the longest path reaching it over two kinds of edges:
/// - instantaneous edges: a wire into an input that is not queued, a pipe, a derived node's
///   dependency (`downstreamNodes`);
/// - samples: a node read by an expression that runs as part of another (a wire's `when` or
///   transform, a pipe, a patch's code) comes before the reader, unless the reader reaches it
///   over instantaneous edges (then the reader sees the value from before the wave: a
///   "feedback" sample, which orders nothing).
///
/// If the samples would order some nodes in a cycle (two nodes sampling each other), no sample
/// orders anything and the ranks follow the instantaneous edges alone.
///
/// Creating a node, a wire or a pipe only raises ranks, so it is done incrementally: the new
/// edges raise the ranks downstream of them, and only as far as needed. Anything else (a
/// removal, a replaced wire, a sample that turns into feedback, or a graph whose samples are
/// cyclic) ranks the whole graph again (`rankAll`), which is what every change did before.
struct RankIndex {
    /// The nodes whose expressions sample each name, whether or not a node has that name yet.
    var readers: [String: [ObjectIdentifier: GraphNode]] = [:]
    /// Samples `(sampled, reader)` where the reader reaches the sampled node over instantaneous
    /// edges, so that they order nothing.
    var feedback: Set<SamplePair> = []
    /// Set when samples would order nodes in a cycle: ranks follow instantaneous edges alone,
    /// and every change ranks the whole graph again.
    var ignoresSamples = false

    struct SamplePair: Hashable {
        var sampled: ObjectIdentifier
        var reader: ObjectIdentifier
    }

    mutating func register(_ names: [String], readBy reader: GraphNode) {
        for name in names { readers[name, default: [:]][ObjectIdentifier(reader)] = reader }
    }
}

extension Graph {
    // MARK: Growing the graph

    /// Ranks a node just added to `nodes`, with its dependencies (a derived node's) already
    /// attached and no other edge.
    func rankNewNode(_ node: GraphNode) {
        guard !ranks.ignoresSamples else { return rankAll() }
        let sampled = sampledNames(of: node)
        ranks.register(sampled, readBy: node)
        var rank = 0
        for upstream in node.upstreamNodes where upstream !== node { rank = Swift.max(rank, upstream.rank + 1) }
        for name in sampled {
            guard let source = nodes[name], source !== node else { continue }
            if reaches(node, source) {
                ranks.feedback.insert(.init(sampled: ObjectIdentifier(source), reader: ObjectIdentifier(node)))
            } else {
                rank = Swift.max(rank, source.rank + 1)
            }
        }
        node.rank = rank
        // Readers that named the node before it existed now sample it.
        for reader in (ranks.readers[node.name] ?? [:]).values where reader !== node {
            guard addSample(of: node, readBy: reader) else { return rankAll() }
        }
    }

    /// Ranks after a new instantaneous edge from `upstream` to `downstream`.
    func rankNewEdge(from upstream: GraphNode, to downstream: GraphNode) {
        guard !ranks.ignoresSamples else { return rankAll() }
        guard raise(downstream, above: upstream) else { return rankAll() }
    }

    /// Ranks after `reader` started sampling `names` (a new wire's `when` or transform, a pipe).
    func rankNewSamples(_ names: [String], readBy reader: GraphNode) {
        guard !ranks.ignoresSamples else { return rankAll() }
        ranks.register(names, readBy: reader)
        for name in names {
            guard let source = nodes[name], source !== reader else { continue }
            guard addSample(of: source, readBy: reader) else { return rankAll() }
        }
    }

    /// Orders `reader` after `source`, unless the sample is feedback.
    /// - Returns: `false` when the sample closes a cycle, so that the whole graph must be ranked.
    private func addSample(of source: GraphNode, readBy reader: GraphNode) -> Bool {
        let pair = RankIndex.SamplePair(sampled: ObjectIdentifier(source), reader: ObjectIdentifier(reader))
        if ranks.feedback.contains(pair) { return true }
        if reaches(reader, source) {
            ranks.feedback.insert(pair)
            return true
        }
        return raise(reader, above: source)
    }

    /// Raises `node` above `upstream`, and whatever follows it as far as needed, to keep every
    /// edge going up in rank.
    /// - Returns: `false` when the raise meets a cycle (through samples, since instantaneous
    ///   cycles are refused before), and the ranks are left half raised for `rankAll` to redo.
    ///   The raise comes back to `upstream` when the new edge closes the cycle. It can also meet
    ///   one that does not go through `upstream` (samples registered by name before their node
    ///   existed): a node raised to more than `nodes.count` above `upstream` is at the end of a
    ///   path longer than the graph has nodes, which must go round a cycle. Without that bound,
    ///   such a raise went round the cycle for ever.
    private func raise(_ node: GraphNode, above upstream: GraphNode) -> Bool {
        guard node.rank <= upstream.rank else { return true }
        guard node !== upstream else { return false }
        node.rank = upstream.rank + 1
        let highest = upstream.rank + nodes.values.count
        var pending = [node]
        while let current = pending.popLast() {
            for next in orderedSuccessors(of: current) where next.rank <= current.rank {
                if next === upstream || current.rank >= highest { return false }
                next.rank = current.rank + 1
                pending.append(next)
            }
        }
        return true
    }

    /// The nodes that must rank above `node`: those it feeds, and those that sample it (feedback
    /// excepted).
    private func orderedSuccessors(of node: GraphNode) -> [GraphNode] {
        var next: [GraphNode] = []
        for case let target as GraphNode in node.downstreamNodes where target !== node { next.append(target) }
        if let readers = ranks.readers[node.name] {
            let sampled = ObjectIdentifier(node)
            for (id, reader) in readers where reader !== node && !ranks.feedback.contains(.init(sampled: sampled, reader: id)) {
                next.append(reader)
            }
        }
        return next
    }

    // MARK: Paths

    /// Whether a path of instantaneous edges leads from `start` to `end` (`start !== end`).
    ///
    /// Ranks go up along every instantaneous edge, so only nodes ranked below `end` can be on
    /// such a path: the search never looks past them.
    func reaches(_ start: GraphNode, _ end: GraphNode) -> Bool {
        guard start.rank < end.rank else { return false }
        var pending = [start]
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(start)]
        while let node = pending.popLast() {
            for case let next as GraphNode in node.downstreamNodes {
                if next === end { return true }
                if next.rank < end.rank, seen.insert(ObjectIdentifier(next)).inserted { pending.append(next) }
            }
        }
        return false
    }

    /// The nodes on a shortest path of instantaneous edges from `start` to `end`, both included;
    /// `[start]` when they are the same node.
    func path(from start: GraphNode, to end: GraphNode) -> [GraphNode]? {
        var parent: [ObjectIdentifier: GraphNode] = [:]
        var queue = [start]
        var head = 0
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(start)]
        while head < queue.count {
            let node = queue[head]
            head += 1
            if node === end {
                var path = [node]
                var current = node
                while let previous = parent[ObjectIdentifier(current)] {
                    path.append(previous)
                    current = previous
                }
                return path.reversed()
            }
            // Only nodes ranked below `end` (or `end` itself) can lead to it.
            for case let next as GraphNode in node.downstreamNodes
            where (next === end || next.rank < end.rank) && seen.insert(ObjectIdentifier(next)).inserted {
                parent[ObjectIdentifier(next)] = node
                queue.append(next)
            }
        }
        return nil
    }

    // MARK: Ranking the whole graph

    /// Ranks every node from scratch, and rebuilds the index of samples.
    func rankAll() {
        let all = Array(nodes.values)
        var position: [ObjectIdentifier: Int] = [:]
        for (index, node) in all.enumerated() { position[ObjectIdentifier(node)] = index }
        var edges = [[Int]](repeating: [], count: all.count)
        for (index, node) in all.enumerated() {
            for case let next as GraphNode in node.downstreamNodes where next !== node {
                if let target = position[ObjectIdentifier(next)] { edges[index].append(target) }
            }
        }
        // Instantaneous edges alone first: those ranks order every path the samples are checked
        // against (and are the answer when the samples are cyclic).
        guard let instantaneous = Self.longestPaths(edges) else { return }
        for (index, node) in all.enumerated() { node.rank = instantaneous[index] }
        var index = RankIndex()
        var withSamples = edges
        for (readerIndex, reader) in all.enumerated() {
            let names = sampledNames(of: reader)
            index.register(names, readBy: reader)
            for name in names {
                guard let source = nodes[name], source !== reader, let sourceIndex = position[ObjectIdentifier(source)] else { continue }
                if reaches(reader, source) {
                    index.feedback.insert(.init(sampled: ObjectIdentifier(source), reader: ObjectIdentifier(reader)))
                } else {
                    withSamples[sourceIndex].append(readerIndex)
                }
            }
        }
        if let ranked = Self.longestPaths(withSamples) {
            for (position, node) in all.enumerated() { node.rank = ranked[position] }
        } else {
            index.ignoresSamples = true
        }
        ranks = index
    }

    /// The length of the longest path reaching each node, or `nil` when the edges have a cycle.
    private static func longestPaths(_ edges: [[Int]]) -> [Int]? {
        var indegree = [Int](repeating: 0, count: edges.count)
        for targets in edges { for target in targets { indegree[target] += 1 } }
        var ready = indegree.indices.filter { indegree[$0] == 0 }
        var rank = [Int](repeating: 0, count: edges.count)
        var visited = 0
        while let node = ready.popLast() {
            visited += 1
            for target in edges[node] {
                rank[target] = Swift.max(rank[target], rank[node] + 1)
                indegree[target] -= 1
                if indegree[target] == 0 { ready.append(target) }
            }
        }
        return visited == edges.count ? rank : nil
    }

    /// The nodes read as samples by the expressions that run as part of `node`.
    func sampledNames(of node: GraphNode) -> [String] {
        var names: [String] = []
        for input in node.inputs {
            for wire in input.wires { names += wire.sampledNames }
        }
        if let knot = node as? KnotNode {
            for pipe in knot.pipes { names += pipe.sampledNames }
        }
        return names + node.sampledNames
    }
}

extension Wire {
    /// The nodes the wire's `when` and transform read.
    var sampledNames: [String] { (condition?.freeNames ?? []) + (transform?.freeNames ?? []) }
}

extension KnotPipe {
    /// The nodes the pipe's `when` and statements read.
    var sampledNames: [String] { (condition?.freeNames ?? []) + body.readNames }
}
