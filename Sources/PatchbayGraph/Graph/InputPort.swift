@_spi(Shell) import PatchbayCore

/// An input port of a graph node. It has a local value (set with `set NODE.PORT = ...`), used while
/// no wire drives it, and at most one wire (rewiring replaces it in one step), but for an event
/// input that merges (`acceptsManyWires`), which takes a wire from each source it is wired from.
final class InputPort: PortCore, Receiver {
    let name: String
    /// The value set directly on the input; what it reverts to when unwired.
    var localValue: Value? { willSet { owner.willChange() } }
    /// The wires that drive the input, oldest first: at most one, unless `acceptsManyWires`.
    var wires: [Wire] = []
    /// Whether the input merges what its wires deliver: every value that arrives is handled, in
    /// arrival order (a store's `dispatch`, a signal's `send`, ...), so a wire into it adds to
    /// the wires there, and replaces only the one from the same source.
    var acceptsManyWires = false
    /// The wire delivering the value that is arriving now, while it arrives (`nil` for a local
    /// value): what a node that records where a value came from reads.
    private(set) var arrivingWire: Wire?
    /// The value that arrived most recently, whether from the wire or the local value.
    private(set) var value: Value?
    /// Whether a value arrived in the current wave, and whether as an event.
    private(set) var arrival: Delivery?
    /// The values that arrived earlier in the current wave than `value`, oldest first: an event
    /// port may send several events in one wave (a patch emitting it several times in one run).
    private(set) var earlierArrivals: [Value] = []
    /// Whether what arrives is handled after the current transaction (a store's `dispatch`), so
    /// that a wire into it is not an instantaneous edge and may close a loop.
    var isQueued = false
    /// Whether what arrives only attaches the node to its source (a tap's `view` input): the node
    /// computes nothing from it, so it is no arrival, and a wire into the input is not an
    /// instantaneous edge (a tap may drive its own view's inputs).
    var onlyAttaches = false
    /// Whether a wire into the input is an instantaneous edge, which ranks and cycle checks follow.
    var isInstantaneous: Bool { !isQueued && !onlyAttaches }
    /// Probes on the input are listeners of this port, which repeats what arrives.
    let observers: OutputPort<Value>

    init(owner: GraphNode, index: Int, name: String, local: Value?) {
        self.name = name
        self.localValue = local
        self.value = local
        observers = OutputPort(owner: owner, index: index, name: name, remembers: true, initial: local, isEqual: nil)
        super.init(owner: owner, index: index)
    }

    var node: NodeCore { owner }

    var graphNode: GraphNode { owner as! GraphNode }

    var address: PortAddress { PortAddress(node: graphNode.name, port: name) }

    /// The wire a new wire from `source` replaces: the input's wire, or, into an input that
    /// accepts many wires, the one from the same source.
    func wireReplaced(byOneFrom source: OutputPort<Value>) -> Wire? {
        acceptsManyWires ? wires.first { $0.source === source } : wires.first
    }

    /// Hands `value` over as `wire` delivers it.
    func receive(_ value: Value, _ delivery: Delivery, from wire: Wire) {
        arrivingWire = wire
        defer { arrivingWire = nil }
        receive(value, delivery)
    }

    func receive(_ value: Value, _ delivery: Delivery) {
        owner.willChange()
        if onlyAttaches {
            self.value = value
            observers.emit(value, .event)
            return
        }
        if arrival != nil, let earlier = self.value { earlierArrivals.append(earlier) }
        self.value = value
        arrival = arrival == .event ? .event : delivery
        observers.emit(value, .event)
        graphNode.inputDidArrive(self, delivery)
    }

    /// Forgets the arrival once the node has been evaluated.
    func consumeArrival() {
        arrival = nil
        if !earlierArrivals.isEmpty { earlierArrivals.removeAll() }
    }

    /// Every value that arrived in the current wave, oldest first.
    var arrivals: [Value] {
        guard arrival != nil, let value else { return [] }
        return earlierArrivals + [value]
    }

    /// Replaces the value without an arrival (used when the node is created).
    func reset(to value: Value?) {
        owner.willChange()
        self.value = value
        observers.store(value)
    }
}
