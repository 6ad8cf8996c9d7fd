/// A node with no inputs that the outside writes to: a signal, a variable, a state node.
final class SourceNode<Value>: NodeCore {
    private(set) var output: OutputPort<Value>!
    /// The value written inside an explicit transaction, not yet committed.
    var pending: Value?
    var isClosed = false

    init(engine: Engine, label: String, port: String, remembers: Bool, initial: Value?,
         isEqual: ((Value, Value) -> Bool)?) {
        super.init(engine: engine, label: label)
        output = OutputPort(owner: self, name: port, remembers: remembers, initial: initial, isEqual: isEqual)
    }

    override var downstreamNodes: [NodeCore] { output.receivers.map(\.node) }

    override func detachAll() {
        output.detachAllReceivers()
        output.removeAllListeners()
    }

    /// The value a reader sees: a write pending in the open transaction wins.
    var currentValue: Value? { pending ?? output.value }

    /// Writes a new value to a value port: now, at commit, or after the current transaction.
    func write(_ value: Value, _ delivery: Delivery = .change) {
        switch engine.writeMode {
        case .immediate:
            engine.runTransaction { output.emit(value, delivery) }
        case .buffered:
            let isFirst = pending == nil
            pending = value
            if isFirst || delivery == .event {
                engine.bufferedWrites.append(BufferedWrite(
                    apply: { [unowned self] in
                        if let pending { output.emit(pending, delivery) }
                        pending = nil
                    },
                    discard: { [unowned self] in pending = nil }))
            }
        case .queued:
            engine.enqueue(label) { [unowned self] in write(value, delivery) }
        }
    }

    /// Sends an event: now, at commit (in send order), or after the current transaction.
    func send(_ value: Value) {
        guard !isClosed else {
            engine.report(.closed(label))
            return
        }
        switch engine.writeMode {
        case .immediate:
            engine.runTransaction { output.emit(value, .event) }
        case .buffered:
            engine.bufferedEvents.append { [unowned self] in output.emit(value, .event) }
        case .queued:
            engine.enqueue(label) { [unowned self] in send(value) }
        }
    }
}
