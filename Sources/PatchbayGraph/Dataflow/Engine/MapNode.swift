@_spi(Shell) import PatchbayCore

/// A node that transforms each value of one input (`map`), evaluated as soon as its input
/// delivers: with a single input it cannot see a mix of old and new values.
///
/// Its upstream port delivers through a closure that holds the transform and the output port
/// themselves, so a hop costs a call, the transform and `emit`, with no reference counting.
@usableFromInline
final class MapNode<Input, Output>: NodeCore, Receiver {
    @usableFromInline let transform: (Input) -> Output
    @usableFromInline private(set) var output: OutputPort<Output>!

    @inlinable
    init(from upstream: OutputPort<Input>, remembers: Bool, isEqual: ((Output, Output) -> Bool)?,
         label: String, _ transform: @escaping (Input) -> Output) {
        self.transform = transform
        super.init(engine: upstream.owner.engine, label: label)
        let initial = remembers ? upstream.value.map(transform) : nil
        let output = OutputPort(owner: self, name: "value", remembers: remembers, initial: initial, isEqual: isEqual)
        self.output = output
        follow(rank: upstream.owner.rank)
        // A change, whatever arrived: a value recomputed to an equal one stops here.
        upstream.attach(self) { [transform, output] value, _ in
            output.emit(transform(value), .change)
        }
    }

    @usableFromInline var node: NodeCore { self }

    @usableFromInline func receive(_ value: Input, _ delivery: Delivery) {
        output.emit(transform(value), .change)
    }

    override var downstreamNodes: [NodeCore] { output.receivers.map(\.node) }

    override func detachAll() {
        output.detachAllReceivers()
        output.removeAllListeners()
    }
}

/// A node that passes on the events its predicate accepts.
@usableFromInline
final class FilterNode<Value>: NodeCore, Receiver {
    @usableFromInline let isIncluded: (Value) -> Bool
    @usableFromInline private(set) var output: OutputPort<Value>!

    @inlinable
    init(from upstream: OutputPort<Value>, label: String, _ isIncluded: @escaping (Value) -> Bool) {
        self.isIncluded = isIncluded
        super.init(engine: upstream.owner.engine, label: label)
        let output = OutputPort<Value>(owner: self, name: "out", remembers: false, isEqual: nil)
        self.output = output
        follow(rank: upstream.owner.rank)
        upstream.attach(self) { [isIncluded, output] value, delivery in
            if isIncluded(value) { output.emit(value, delivery) }
        }
    }

    @usableFromInline var node: NodeCore { self }

    @usableFromInline func receive(_ value: Value, _ delivery: Delivery) {
        if isIncluded(value) { output.emit(value, delivery) }
    }

    override var downstreamNodes: [NodeCore] { output.receivers.map(\.node) }

    override func detachAll() {
        output.detachAllReceivers()
        output.removeAllListeners()
    }
}
