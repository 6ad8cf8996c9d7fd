@_spi(Shell) import PatchbayCore

/// A named node of a shell graph, with named input and output ports carrying `Value`s.
class GraphNode: NodeCore {
    let name: String
    let kind: NodeKind
    private(set) var inputs: [InputPort] = []
    private(set) var outputs: [OutputPort<Value>] = []
    unowned let graph: Graph

    init(graph: Graph, name: String, kind: NodeKind) {
        self.graph = graph
        self.name = name
        self.kind = kind
        super.init(engine: graph.engine, label: name)
    }

    @discardableResult
    final func addInput(_ name: String, local: Value? = nil) -> InputPort {
        let port = InputPort(owner: self, index: outputs.count + inputs.count, name: name, local: local)
        port.addressText = "\(self.name).\(name)"
        inputs.append(port)
        return port
    }

    @discardableResult
    final func addOutput(_ name: String, remembers: Bool = true, initial: Value? = nil) -> OutputPort<Value> {
        let port = OutputPort<Value>(owner: self, index: outputs.count + inputs.count, name: name, remembers: remembers,
                                     initial: initial, isEqual: ==)
        port.addressText = "\(self.name).\(name)"
        outputs.append(port)
        return port
    }

    final func input(_ name: String) -> InputPort? { inputs.first { $0.name == name } }

    final func output(_ name: String) -> OutputPort<Value>? { outputs.first { $0.name == name } }

    /// The port a node's name reads in expressions: a variable's value, a knot's state, a patch's
    /// first output.
    var primaryOutput: OutputPort<Value>? { outputs.first }

    /// Arrivals whose expressions read other nodes (a wire's `when` or transform, a pipe), held
    /// until the node's turn in the wave so that they read values settled in it.
    private var heldArrivals: [() -> Void] = []
    private var isReleasingArrivals = false

    /// Called when a value arrives on one of the node's inputs during a wave.
    func inputDidArrive(_ input: InputPort, _ delivery: Delivery) {
        // While held arrivals are released the node is being evaluated already.
        if !isReleasingArrivals { schedule() }
    }

    /// Runs `arrival` when the node's turn comes in this wave, after every node it samples.
    final func hold(_ arrival: @escaping () -> Void) {
        heldArrivals.append(arrival)
        schedule()
    }

    /// Runs the held arrivals, in the order they came; the first thing an evaluation does.
    final func releaseHeldArrivals() {
        guard !heldArrivals.isEmpty else { return }
        let arrivals = heldArrivals
        heldArrivals.removeAll()
        isReleasingArrivals = true
        defer { isReleasingArrivals = false }
        for arrival in arrivals { arrival() }
    }

    override func evaluate() {
        releaseHeldArrivals()
    }

    /// The nodes fed through instantaneous edges; a wire into a queued input, or one that only
    /// attaches, is not one.
    override var downstreamNodes: [NodeCore] {
        outputs.flatMap { output in
            output.receivers.filter { ($0 as? Wire)?.target.isInstantaneous ?? true }.map(\.node)
        }
    }

    /// The nodes feeding this one through instantaneous edges: the sources of its wires, but
    /// delay edges and wires into queued inputs or inputs that only attach.
    var upstreamNodes: [GraphNode] {
        inputs.flatMap { input in
            input.isInstantaneous ? input.wires.compactMap { $0.isDelay ? nil : $0.source.owner as? GraphNode } : []
        }
    }

    override func detachAll() {
        for output in outputs {
            output.detachAllReceivers()
            output.removeAllListeners()
        }
        for input in inputs { input.observers.removeAllListeners() }
    }

    /// What the node holds that a command can change (its ports' values and causes, its
    /// inputs' local values, its marks), as a closure that puts it back without sending
    /// anything (see `Graph.mark()`).
    override func saved() -> (() -> Void)? { savedPorts(except: nil) }

    /// `saved()`, but for the value of `skipped`, which stays as it is when put back (a store's
    /// state: its history puts it back, and the reducers change it in place, so holding it here
    /// would copy the whole state at every dispatch).
    final func savedPorts(except skipped: OutputPort<Value>?) -> () -> Void {
        let outputs = self.outputs.map { ($0 === skipped ? nil : $0.value, $0.cause) }
        let inputs = self.inputs.map { ($0.value, $0.cause, $0.localValue) }
        let (failure, isStale) = (self.failure, self.isStale)
        return { [self] in
            for (port, (value, cause)) in zip(self.outputs, outputs) {
                if port !== skipped { port.store(value) }
                port.cause = cause
            }
            for (port, (value, cause, local)) in zip(self.inputs, inputs) {
                port.reset(to: value)
                port.cause = cause
                port.localValue = local
            }
            self.failure = failure
            self.isStale = isStale
        }
    }

    /// The nodes this node reads in expressions without being triggered by them (samples), for
    /// evaluation order (wires and pipes into the node are counted by the graph).
    var sampledNames: [String] { [] }

    /// Called when the node is removed from its graph.
    func willRemove() {
        engine.cancelTimers(of: self)
    }

    /// Emits a value the node was given (a `set`, or an arrival on a variable's input). A good
    /// value clears the node's failed and stale marks; its dependents then
    /// hear it even if it did not change, so that their marks clear too.
    final func publish(_ port: OutputPort<Value>, _ newValue: Value, cause: Cause?, _ delivery: Delivery) {
        let wasMarked = clearMarks()
        emit(port, newValue, cause: cause, wasMarked ? .event : delivery)
    }

    /// Emits one output; returns whether it changed.
    @discardableResult
    final func emit(_ port: OutputPort<Value>, _ value: Value, cause: Cause?, _ delivery: Delivery) -> Bool {
        willChange()
        let before = port.cause
        // A port that sends again for the same cause (every action a store handles in one
        // command) keeps its link: links never change, so an equal one need not be made.
        if let before, before.previous === cause, before.text == port.addressText {
            return port.emit(value, delivery)
        }
        port.cause = Cause(port.addressText, after: cause)
        if port.emit(value, delivery) { return true }
        port.cause = before
        return false
    }

    /// Emits the outputs computed in one activation together. Returns whether any output changed.
    @discardableResult
    final func emitAll(_ values: [(OutputPort<Value>, Value)], cause: Cause?, _ delivery: Delivery) -> Bool {
        var changed = false
        for (port, value) in values where emit(port, value, cause: cause, delivery) { changed = true }
        return changed
    }
}

extension OutputPort where Value == PatchbayCore.Value {
    /// The address of the port, `node.port`.
    var address: PortAddress { PortAddress(node: (owner as! GraphNode).name, port: name) }
}
