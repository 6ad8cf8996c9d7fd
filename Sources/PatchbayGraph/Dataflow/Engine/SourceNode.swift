@_spi(Shell) import PatchbayCore

/// A node with no inputs that the outside writes to: a signal, a variable, a state node.
///
/// `write` and `send` are `@inlinable` for their common case, a write while the engine is idle,
/// so that a client's typed source runs specialized code from the write to its subscribers. The
/// other cases (buffered in a transaction, queued while busy, a closed signal) take
/// `writeLater` and `sendLater`.
@usableFromInline
final class SourceNode<Value>: NodeCore {
    /// Set once, by the initializer.
    @usableFromInline private(set) var output: OutputPort<Value>!
    /// The value written inside an explicit transaction, not yet committed.
    var pending: Value?
    @usableFromInline var isClosed = false

    @inlinable
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
    @inlinable
    func write(_ value: Value, _ delivery: Delivery = .change) {
        let engine = self.engine
        guard engine.phase == .idle else { return writeLater(value, delivery) }
        let output = self.output!
        engine.runTransaction { output.emit(value, delivery) }
    }

    /// `write` while the engine is not idle.
    @usableFromInline
    func writeLater(_ value: Value, _ delivery: Delivery) {
        switch engine.writeMode {
        case .immediate:
            write(value, delivery)
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
    @inlinable
    func send(_ value: Value) {
        let engine = self.engine
        guard engine.phase == .idle, !isClosed else { return sendLater(value) }
        let output = self.output!
        engine.runTransaction { output.emit(value, .event) }
    }

    /// `send` while the engine is not idle, or on a closed signal.
    @usableFromInline
    func sendLater(_ value: Value) {
        guard !isClosed else {
            engine.report(.closed(label))
            return
        }
        switch engine.writeMode {
        case .immediate:
            send(value)
        case .buffered:
            engine.bufferedEvents.append { [unowned self] in output.emit(value, .event) }
        case .queued:
            engine.enqueue(label) { [unowned self] in send(value) }
        }
    }
}
