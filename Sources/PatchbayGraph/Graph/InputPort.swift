import PatchbayCore

/// An input port of a graph node. It has a local value (set with `set NODE.PORT = ...`), used
/// while no wire drives it, and at most one wire (SPEC 4.3 rule 2).
final class InputPort: PortCore, Receiver {
    let name: String
    /// The value set directly on the input; what it reverts to when unwired.
    var localValue: Value?
    /// The wire that drives the input, if any.
    var wire: Wire?
    /// The value that arrived most recently, whether from the wire or the local value.
    private(set) var value: Value?
    /// Whether a value arrived in the current wave, and whether as an event.
    private(set) var arrival: Delivery?
    /// Whether what arrives is handled after the current transaction (a store's `dispatch`), so
    /// that a wire into it is not an instantaneous edge and may close a loop.
    var isQueued = false
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

    func receive(_ value: Value, _ delivery: Delivery) {
        self.value = value
        arrival = arrival == .event ? .event : delivery
        observers.emit(value, .event)
        graphNode.inputDidArrive(self, delivery)
    }

    /// Forgets the arrival once the node has been evaluated.
    func consumeArrival() {
        arrival = nil
    }

    /// Replaces the value without an arrival (used when the node is created).
    func reset(to value: Value?) {
        self.value = value
        observers.store(value)
    }
}
