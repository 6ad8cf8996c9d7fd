@_spi(Shell) import PatchbayCore

extension Graph {
    /// What `wire` did.
    public struct WireOutcome: Sendable, Equatable {
        /// The wire that drove the input before, now replaced.
        public var replaced: String?
        /// The new wire, as `wire` takes it.
        public var wire: String
    }

    /// `wire SRC.PORT -> DST.PORT [--future] [when EXPR] [: EXPR]`, or with `~>` (`isDelay`) a
    /// delay edge. Wiring a wired input replaces its wire in one step; into an
    /// input that accepts many wires (`InputPort.acceptsManyWires`) the wire is added, and
    /// replaces only a wire from the same source. The source's value, if it has one, arrives at
    /// once, unless `future` (GlueKit's `futureValues`; a delay edge, where values cross only on
    /// `tick`, never replays).
    @discardableResult
    public func wire(from sourceAddress: PortAddress, to targetAddress: PortAddress, when condition: Expression? = nil,
                     transform: Expression? = nil, isDelay: Bool = false, future: Bool = false) throws(GraphError) -> WireOutcome {
        let source = try outputPort(sourceAddress)
        let target = try inputPort(targetAddress)
        _ = try nodesRead((condition?.freeNames ?? []) + (transform?.freeNames ?? []))
        let sourceNode = source.owner as! GraphNode
        let targetNode = target.graphNode
        if !isDelay, target.isInstantaneous, let path = path(from: targetNode, to: sourceNode) {
            throw .cycle(path.map(\.name) + [targetNode.name])
        }
        let old = target.wireReplaced(byOneFrom: source)
        let replaced = old.map { old in
            WireChange.Place(wire: old, receiver: old.source.place(of: old), input: target.wires.firstIndex { $0 === old },
                             tick: engine.tickHandlers[ObjectIdentifier(old)])
        }
        if let old { detach(old) }
        let wire = Wire(graph: self, from: source, to: target, condition: condition, transform: transform, isDelay: isDelay,
                        isFuture: future && !isDelay)
        // Last, as it was made last: a script that rebuilds the graph makes the wires of an input
        // in this order.
        target.wires.append(wire)
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

    /// `unwire DST.PORT`, or `unwire SRC.PORT -> DST.PORT` (`source`): removes the input's wire,
    /// or its wire from `source`. An input that several wires drive needs `source`. An input
    /// left without wires goes back to its local value.
    /// - Returns: the wire removed, as `wire` takes it.
    @discardableResult
    public func unwire(_ address: PortAddress, from source: PortAddress? = nil) throws(GraphError) -> String {
        let input = try inputPort(address)
        let wire: Wire
        if let source {
            let output = try outputPort(source)
            guard let match = input.wires.first(where: { $0.source === output }) else {
                throw .noSuchWire(from: source, to: address, existing: input.wires.map(\.text))
            }
            wire = match
        } else {
            guard let only = input.wires.first else { throw .notWired(address) }
            guard input.wires.count == 1 else { throw .severalWires(address, wires: input.wires.map(\.text)) }
            wire = only
        }
        removeWire(wire)
        return wire.definition
    }

    /// Removes a wire from the graph; its input, left without wires, goes back to its local value.
    func removeWire(_ wire: Wire) {
        detach(wire)
        rankAll()
        revert(wire.target)
    }

    /// The delay edges in the order they were made, the order they cross in at each tick.
    var delayWires: [Wire] {
        nodes.values.flatMap { $0.inputs.flatMap(\.wires) }.filter(\.isDelay).sorted {
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
        wire.target.wires.removeAll { $0 === wire }
    }

    /// Puts back a wire that `detach(_:)` removed, in its place among its source's receivers
    /// and its input's wires (or with its tick handler, a delay edge), without delivering
    /// anything. A wire it would replace goes.
    func reattach(_ place: WireChange.Place) {
        let wire = place.wire
        if let current = wire.target.wireReplaced(byOneFrom: wire.source) { detach(current) }
        if wire.isDelay {
            engine.tickHandlers[ObjectIdentifier(wire)] = place.tick
        } else {
            wire.source.attach(wire, at: place.receiver)
        }
        let wires = wire.target.wires
        wire.target.wires.insert(wire, at: Swift.min(place.input ?? wires.endIndex, wires.endIndex))
    }

    /// Delivers an input's local value after its last wire went away; without one it becomes
    /// empty. An input that other wires still drive stays as it is.
    func revert(_ input: InputPort) {
        guard input.wires.isEmpty else { return }
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
        _ = try nodesRead((condition?.freeNames ?? []) + body.readNames)
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
        forEachReadName { name, _ in if !names.contains(name) { names.append(name) } }
        return names
    }

    /// Where the statements first read the node `name`, for an error about that name.
    public func rangeOfFirstRead(of name: String) -> Range<Int>? {
        var found: Range<Int>?
        forEachReadName { read, range in if found == nil, read == name { found = range } }
        return found
    }

    /// Calls `body` with each name the statements read and where, in order.
    private func forEachReadName(_ body: (String, Range<Int>) -> Void) {
        func collect(_ statements: [StatementNode]) {
            for statement in statements {
                switch statement {
                case .assign(let path, _, let value, _):
                    collect(path)
                    value.forEachFreeName(body)
                case .delete(let path, _):
                    collect(path)
                case .conditional(let test, let then, let otherwise, _):
                    test.forEachFreeName(body)
                    collect(then)
                    collect(otherwise)
                case .emit(_, let value, _):
                    value.forEachFreeName(body)
                case .dispatch(_, let value, _):
                    value?.forEachFreeName(body)
                case .drop:
                    break
                }
            }
        }
        func collect(_ path: StatePath) {
            for case .index(let index) in path.components { index.forEachFreeName(body) }
        }
        collect(statements)
    }
}
