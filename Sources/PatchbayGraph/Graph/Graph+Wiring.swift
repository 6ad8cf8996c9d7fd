import PatchbayCore

extension Graph {
    /// What `wire` did.
    public struct WireOutcome: Sendable, Equatable {
        /// The wire that drove the input before, now replaced.
        public var replaced: String?
        /// The new wire, as `wire` takes it.
        public var wire: String
    }

    /// `wire SRC.PORT -> DST.PORT [--future] [when EXPR] [: EXPR]`, or with `~>` (`isDelay`) a
    /// delay edge. Wiring a wired input replaces its wire in one step; the source's value, if it
    /// has one, arrives at once, unless `future` (GlueKit's `futureValues`; a delay edge, where
    /// values cross only on `tick`, never replays).
    @discardableResult
    public func wire(from sourceAddress: PortAddress, to targetAddress: PortAddress, when condition: Expression? = nil,
                     transform: Expression? = nil, isDelay: Bool = false, future: Bool = false) throws(GraphError) -> WireOutcome {
        let source = try outputPort(sourceAddress)
        let target = try inputPort(targetAddress)
        let sourceNode = source.owner as! GraphNode
        let targetNode = target.graphNode
        if !isDelay, target.isInstantaneous, let path = path(from: targetNode, to: sourceNode) {
            throw .cycle(path.map(\.name) + [targetNode.name])
        }
        let old = target.wire
        let replaced = old.map { old in (wire: old, place: old.source.place(of: old), tick: engine.tickHandlers[ObjectIdentifier(old)]) }
        if let old { detach(old) }
        let wire = Wire(graph: self, from: source, to: target, condition: condition, transform: transform, isDelay: isDelay,
                        isFuture: future && !isDelay)
        target.wire = wire
        wires[targetAddress] = wire
        defined(.wire(wire))
        if isDelay {
            nextDelayOrder += 1
            engine.tickHandlers[ObjectIdentifier(wire)] = TickHandler(order: nextDelayOrder) { [unowned self, unowned wire] in
                // `why` names the tick that carried the value across:
                // `set a = 5 → a.value → tick (a.value ~> b.set) → b.value`.
                if let value = wire.source.value {
                    wire.deliver(value, .change, cause: Cause("\(cause) (\(wire.text))", after: wire.source.cause))
                }
            }
        } else {
            source.attach(wire)
        }
        if old != nil {
            rankAll()  // the old wire's edge is gone, which may lower ranks
        } else {
            if !isDelay, target.isInstantaneous { rankNewEdge(from: sourceNode, to: targetNode) }
            rankNewSamples(wire.sampledNames, readBy: targetNode)
        }
        ownIfConnectorOpen(wire)
        noteWireChange(made: wire, replaced: replaced)
        if !isDelay, !future, let value = source.value {
            transaction { wire.deliver(value, .change) }
        }
        return WireOutcome(replaced: old?.text, wire: wire.definition)
    }

    /// `unwire DST.PORT`: the input goes back to its local value.
    public func unwire(_ address: PortAddress) throws(GraphError) {
        let input = try inputPort(address)
        guard let wire = input.wire else { throw .notWired(address) }
        detach(wire)
        rankAll()
        revert(input)
    }

    /// The delay edges in the order they were made, the order they cross in at each tick.
    /// (`wires` is a dictionary, whose order changes from process to process: nothing that is
    /// printed, saved or run in turn may follow it.)
    var delayWires: [Wire] {
        wires.values.filter(\.isDelay).sorted {
            (engine.tickHandlers[ObjectIdentifier($0)]?.order ?? 0) < (engine.tickHandlers[ObjectIdentifier($1)]?.order ?? 0)
        }
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

    /// Puts back a wire that `detach(_:)` removed, in its place among its source's receivers
    /// (`place`) or with its tick handler (a delay edge), without delivering anything.
    func reattach(_ wire: Wire, place: Int?, tick: TickHandler?) {
        if let current = wire.target.wire { detach(current) }
        if wire.isDelay {
            engine.tickHandlers[ObjectIdentifier(wire)] = tick
        } else {
            wire.source.attach(wire, at: place)
        }
        wire.target.wire = wire
        wires[wire.target.address] = wire
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
        rankNewEdge(from: sourceNode, to: knot)
        rankNewSamples(pipe.sampledNames, readBy: knot)
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
}

extension Graph {
    /// `unbind A B`: ends the bindings between two variables (in either order); both keep their
    /// values.
    /// - Returns: the bindings ended, as `A <-> B`.
    @discardableResult
    public func unbind(_ first: String, _ second: String) throws(GraphError) -> [String] {
        let a = try node(first), b = try node(second)
        let ended = bindings.filter { $0.involves(a) && $0.involves(b) && a !== b }
        guard !ended.isEmpty else { throw .notBound(first, second, existing: bindings.map(\.text)) }
        for binding in ended { binding.disconnect() }
        bindings.removeAll { binding in ended.contains { $0 === binding } }
        return ended.map(\.text)
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

    /// Stops keeping the two variables equal.
    func disconnect() {
        for connection in connections { connection.disconnect() }
        connections.removeAll()
    }

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
                case .dispatch(_, let value, _):
                    value?.collectFreeNames(into: &names)
                case .drop:
                    break
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
