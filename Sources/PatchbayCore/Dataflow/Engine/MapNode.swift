/// A node that transforms each value of one input (`map`), evaluated as soon as its input
/// delivers: with a single input it cannot see a mix of old and new values.
final class MapNode<Input, Output>: NodeCore, Receiver {
    private let transform: (Input) -> Output
    private(set) var output: OutputPort<Output>!

    init(from upstream: OutputPort<Input>, remembers: Bool, isEqual: ((Output, Output) -> Bool)?,
         label: String, _ transform: @escaping (Input) -> Output) {
        self.transform = transform
        super.init(engine: upstream.owner.engine, label: label)
        let initial = remembers ? upstream.value.map(transform) : nil
        output = OutputPort(owner: self, name: "value", remembers: remembers, initial: initial, isEqual: isEqual)
        follow(rank: upstream.owner.rank)
        upstream.attach(self)
    }

    var node: NodeCore { self }

    func receive(_ value: Input, _ delivery: Delivery) {
        output.emit(transform(value), delivery)
    }

    override var downstreamNodes: [NodeCore] { output.receivers.map(\.node) }

    override func detachAll() {
        output.detachAllReceivers()
        output.removeAllListeners()
    }
}

/// A node that passes on the events its predicate accepts.
final class FilterNode<Value>: NodeCore, Receiver {
    private let isIncluded: (Value) -> Bool
    private(set) var output: OutputPort<Value>!

    init(from upstream: OutputPort<Value>, label: String, _ isIncluded: @escaping (Value) -> Bool) {
        self.isIncluded = isIncluded
        super.init(engine: upstream.owner.engine, label: label)
        output = OutputPort(owner: self, name: "out", remembers: false, isEqual: nil)
        follow(rank: upstream.owner.rank)
        upstream.attach(self)
    }

    var node: NodeCore { self }

    func receive(_ value: Value, _ delivery: Delivery) {
        if isIncluded(value) { output.emit(value, delivery) }
    }

    override var downstreamNodes: [NodeCore] { output.receivers.map(\.node) }

    override func detachAll() {
        output.detachAllReceivers()
        output.removeAllListeners()
    }
}
