@_spi(Shell) import PatchbayCore

/// A node computed from several inputs. It is scheduled when any input changes and evaluated
/// once per wave, after all of them (rank order), so it never sees a mix of old and new values.
final class CombineNode<Output>: NodeCore {
    private let compute: () -> Output?
    private(set) var output: OutputPort<Output>!

    init(engine: Engine, label: String, isEqual: ((Output, Output) -> Bool)?, compute: @escaping () -> Output?) {
        self.compute = compute
        super.init(engine: engine, label: label)
        output = OutputPort(owner: self, name: "value", remembers: true, initial: compute(), isEqual: isEqual)
    }

    /// Makes `port` one of this node's inputs.
    func listen<Input>(to port: OutputPort<Input>) {
        follow(rank: port.owner.rank)
        port.attach(Trigger(node: self))
    }

    override func evaluate() {
        if let value = compute() { output.emit(value, .change) }
    }

    override var downstreamNodes: [NodeCore] { output.receivers.map(\.node) }

    override func detachAll() {
        output.detachAllReceivers()
        output.removeAllListeners()
    }

    /// Schedules its node when an input delivers.
    final class Trigger<Input>: Receiver {
        unowned let node: NodeCore

        init(node: NodeCore) { self.node = node }

        func receive(_ value: Input, _ delivery: Delivery) { node.schedule() }
    }
}
