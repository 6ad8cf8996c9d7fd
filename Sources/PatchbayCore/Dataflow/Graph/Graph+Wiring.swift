extension Graph {
    /// What `wire` did.
    public struct WireOutcome: Sendable, Equatable {
        /// The wire that drove the input before, now replaced.
        public var replaced: String?
        /// The new wire, as `wire` takes it.
        public var wire: String
    }

    /// `wire SRC.PORT -> DST.PORT [when EXPR] [: EXPR]`, or with `~>` (`isDelay`) a delay edge.
    /// Wiring a wired input replaces its wire in one step; the source's value, if it has one,
    /// arrives at once (except over a delay edge, where values cross only on `tick`).
    @discardableResult
    public func wire(from sourceAddress: PortAddress, to targetAddress: PortAddress, when condition: Expression? = nil,
                     transform: Expression? = nil, isDelay: Bool = false) throws(GraphError) -> WireOutcome {
        let source = try outputPort(sourceAddress)
        let target = try inputPort(targetAddress)
        let sourceNode = source.owner as! GraphNode
        let targetNode = target.graphNode
        if !isDelay, !target.isQueued, let path = path(from: targetNode, to: sourceNode) {
            throw .cycle(path.map(\.name) + [targetNode.name])
        }
        let old = target.wire
        if let old { detach(old) }
        let wire = Wire(graph: self, from: source, to: target, condition: condition, transform: transform, isDelay: isDelay)
        target.wire = wire
        wires[targetAddress] = wire
        if isDelay {
            nextDelayOrder += 1
            engine.tickHandlers[ObjectIdentifier(wire)] = TickHandler(order: nextDelayOrder) { [unowned wire] in
                if let value = wire.source.value { wire.deliver(value, .change) }
            }
        } else {
            source.attach(wire)
        }
        recomputeRanks()
        if !isDelay, let value = source.value {
            transaction { wire.deliver(value, .change) }
        }
        return WireOutcome(replaced: old?.text, wire: wire.definition)
    }

    /// `unwire DST.PORT`: the input goes back to its local value.
    public func unwire(_ address: PortAddress) throws(GraphError) {
        let input = try inputPort(address)
        guard let wire = input.wire else { throw .notWired(address) }
        detach(wire)
        recomputeRanks()
        revert(input)
    }

    /// Removes a wire from the graph, leaving its input's value as it is.
    func detach(_ wire: Wire) {
        if wire.isDelay {
            engine.tickHandlers[ObjectIdentifier(wire)] = nil
        } else {
            wire.source.detach(wire)
        }
        wire.target.wire = nil
        wires[wire.target.address] = nil
    }

    /// Delivers an input's local value after its wire went away; without one it becomes empty.
    func revert(_ input: InputPort) {
        if let local = input.localValue {
            deliver(local, to: input, cause: rootCause)
        } else {
            input.reset(to: nil)
        }
    }

    /// `pipe SRC.PORT -> KNOT [when EXPR] : STATEMENTS`
    public func pipe(from sourceAddress: PortAddress, to knotName: String, when condition: Expression?,
                     body: StatementBlock) throws(GraphError) {
        let source = try outputPort(sourceAddress)
        let target = try node(knotName)
        guard let knot = target as? KnotNode else {
            throw .wrongKind(knotName, kind: target.kind, expected: "pipe feeds knots")
        }
        let sourceNode = source.owner as! GraphNode
        if let path = path(from: knot, to: sourceNode) {
            throw .cycle(path.map(\.name) + [knot.name])
        }
        let pipe = KnotPipe(graph: self, from: source, to: knot, condition: condition, body: body)
        knot.addPipe(pipe)
        source.attach(pipe)
        recomputeRanks()
    }

    /// `bind A B`: keeps two variables equal. B takes A's value now; afterwards a change of
    /// either is written to the other after the transaction, and equal values stop there.
    public func bind(_ first: String, _ second: String) throws(GraphError) {
        guard first != second else { throw .bindToItself(first) }
        let a = try node(first), b = try node(second)
        guard let left = a as? VariableNode else {
            throw .wrongKind(first, kind: a.kind, expected: "bind works on variables")
        }
        guard let right = b as? VariableNode else {
            throw .wrongKind(second, kind: b.kind, expected: "bind works on variables")
        }
        let binding = Binding(left: left, right: right)
        binding.connections = [
            left.value.subscribe(future: true) { [unowned self, unowned right] value in
                write(right, right.value, value, pending: \.pending)
            },
            right.value.subscribe(future: true) { [unowned self, unowned left] value in
                write(left, left.value, value, pending: \.pending)
            },
        ]
        bindings.append(binding)
        if let value = left.current { write(right, right.value, value, pending: \.pending) }
    }

    // MARK: Order and cycles

    /// The nodes on a path of instantaneous edges from `start` to `end`, both included.
    func path(from start: GraphNode, to end: GraphNode) -> [GraphNode]? {
        var parent: [ObjectIdentifier: GraphNode] = [:]
        var queue = [start]
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(start)]
        while !queue.isEmpty {
            let node = queue.removeFirst()
            if node === end {
                var path = [node]
                var current = node
                while let previous = parent[ObjectIdentifier(current)] {
                    path.insert(previous, at: 0)
                    current = previous
                }
                return path
            }
            for case let next as GraphNode in node.downstreamNodes where seen.insert(ObjectIdentifier(next)).inserted {
                parent[ObjectIdentifier(next)] = node
                queue.append(next)
            }
        }
        return nil
    }

    /// Ranks every node: after every node that feeds it, and after every node its expressions
    /// sample unless that node is downstream of it (then it reads the value from before the wave).
    func recomputeRanks() {
        let all = Array(nodes.values)
        var edges: [ObjectIdentifier: [GraphNode]] = [:]
        for node in all {
            for case let next as GraphNode in node.downstreamNodes where next !== node {
                edges[ObjectIdentifier(node), default: []].append(next)
            }
        }
        var withSamples = edges
        for node in all {
            for name in sampledNames(of: node) {
                guard let sampled = nodes[name], sampled !== node, path(from: node, to: sampled) == nil else { continue }
                withSamples[ObjectIdentifier(sampled), default: []].append(node)
            }
        }
        if let ranks = Self.longestPaths(all, withSamples) ?? Self.longestPaths(all, edges) {
            for node in all { node.rank = ranks[ObjectIdentifier(node)] ?? 0 }
        }
    }

    /// Ranks by longest path from a source, or `nil` when the edges have a cycle.
    private static func longestPaths(_ nodes: [GraphNode], _ edges: [ObjectIdentifier: [GraphNode]]) -> [ObjectIdentifier: Int]? {
        var indegree: [ObjectIdentifier: Int] = [:]
        for targets in edges.values { for target in targets { indegree[ObjectIdentifier(target), default: 0] += 1 } }
        var ready = nodes.filter { indegree[ObjectIdentifier($0), default: 0] == 0 }
        var rank: [ObjectIdentifier: Int] = [:]
        var visited = 0
        while let node = ready.popLast() {
            visited += 1
            let id = ObjectIdentifier(node)
            for target in edges[id] ?? [] {
                let targetID = ObjectIdentifier(target)
                rank[targetID] = Swift.max(rank[targetID] ?? 0, (rank[id] ?? 0) + 1)
                indegree[targetID]! -= 1
                if indegree[targetID] == 0 { ready.append(target) }
            }
        }
        return visited == nodes.count ? rank : nil
    }

    /// The nodes read as samples by the expressions that run as part of `node`.
    func sampledNames(of node: GraphNode) -> [String] {
        var names: [String] = []
        for input in node.inputs {
            if let wire = input.wire {
                names += wire.condition?.freeNames ?? []
                names += wire.transform?.freeNames ?? []
            }
        }
        if let knot = node as? KnotNode {
            for pipe in knot.pipes { names += (pipe.condition?.freeNames ?? []) + pipe.body.readNames }
        }
        return names + node.sampledNames
    }
}

/// Two variables kept equal by `bind`.
final class Binding {
    unowned let left: VariableNode
    unowned let right: VariableNode
    var connections: [Connection] = []

    init(left: VariableNode, right: VariableNode) {
        self.left = left
        self.right = right
    }

    func involves(_ node: GraphNode) -> Bool { left === node || right === node }

    var text: String { "\(left.name) <-> \(right.name)" }
}

extension StatementBlock {
    /// The names the statements read: nodes, as samples (locals of lambdas excluded).
    var readNames: [String] {
        var names: [String] = []
        func collect(_ statements: [StatementNode]) {
            for statement in statements {
                switch statement {
                case .assign(let path, _, let value, _):
                    collect(path)
                    value.collectFreeNames(into: &names)
                case .delete(let path, _):
                    collect(path)
                case .conditional(let test, let then, let otherwise, _):
                    test.collectFreeNames(into: &names)
                    collect(then)
                    collect(otherwise)
                case .emit(_, let value, _):
                    value.collectFreeNames(into: &names)
                }
            }
        }
        func collect(_ path: StatePath) {
            for case .index(let index) in path.components { index.collectFreeNames(into: &names) }
        }
        collect(statements)
        return names
    }
}
