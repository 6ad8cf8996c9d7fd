@_spi(Shell) import PatchbayCore
public import Synchronization

/// An output: a value port (remembers its last value, equal values stop, replays to new
/// subscribers; a publink) or an event port (remembers nothing).
///
/// ## The hot path
/// `emit`, `attach` and the port's initializer are `@inlinable`, so that a client's typed graph
/// (`Signal<Int>`, `map`) runs code specialized for its types instead of generic code that looks up
/// type metadata at every step. Each receiver is reached through an `Edge` whose closure was made
/// where the receiver's type is known. Every edge and listener is retained while it is called, so
/// a receiver may detach itself or others from its own callback.
@usableFromInline
final class OutputPort<Value>: PortCore {
    @usableFromInline let name: String
    @usableFromInline let remembers: Bool
    @usableFromInline let isEqual: ((Value, Value) -> Bool)?
    /// The last value of a value port; always `nil` for an event port.
    @usableFromInline var value: Value?
    /// Where values go during a wave, in attach order.
    @usableFromInline var edges: [Edge<Value>] = []
    /// The subscribers, called when the transaction settles.
    @usableFromInline let listeners = ListenerList<Value>()
    /// What this transaction delivered, for the listeners.
    @usableFromInline var buffered: [(value: Value, delivery: Delivery)] = []
    @usableFromInline var valueBeforeTransaction: Value?
    /// Calls the listeners with `buffered`: `deliverBuffered()`, made by the initializer so that
    /// the engine, which sees ports without their value type, still runs specialized code.
    @usableFromInline let flush: (OutputPort<Value>) -> Void

    @inlinable
    init(owner: NodeCore, index: Int = 0, name: String, remembers: Bool, initial: Value? = nil,
         isEqual: ((Value, Value) -> Bool)?) {
        self.name = name
        self.remembers = remembers
        self.value = remembers ? initial : nil
        self.isEqual = isEqual
        self.flush = { port in port.deliverBuffered() }
        super.init(owner: owner, index: index)
    }

    /// Sends a value on: stores it (value ports), passes it to receivers now, and to listeners
    /// when the transaction settles. A change equal to the current value stops here.
    ///
    /// What the receivers get is a `.change` from a value port, unless `delivery` forced it
    /// (`.event`), so that the next value port down compares again however the wave started;
    /// an event port sends events.
    /// - Returns: whether the value went on.
    @inlinable @inline(__always)
    @discardableResult
    func emit(_ newValue: Value, _ delivery: Delivery) -> Bool {
        let onward: Delivery
        if remembers {
            if delivery == .change, let old = value, let isEqual, isEqual(old, newValue) { return false }
            // Only a transaction whose first delivery is a change compares against the value
            // before it (`isChangedBack`); an event goes to the listeners regardless.
            if delivery == .change, !listeners.isEmpty, buffered.isEmpty { valueBeforeTransaction = value }
            value = newValue
            onward = delivery == .event ? .event : .change
        } else {
            onward = .event
        }
        // Re-reads `edges` at every step: a receiver may attach or detach edges of this port.
        var index = 0
        while index < edges.count {
            edges[index].deliver(newValue, onward)
            index += 1
        }
        if !listeners.isEmpty { buffer(newValue, remembers ? delivery : .event) }
        return true
    }

    /// Sets the stored value without delivering it (initial values, jumps).
    func store(_ newValue: Value?) {
        value = newValue
    }

    @inlinable
    func buffer(_ newValue: Value, _ delivery: Delivery) {
        if delivery == .change, let last = buffered.last, last.delivery == .change {
            buffered[buffered.count - 1] = (newValue, delivery)
        } else {
            buffered.append((newValue, delivery))
        }
        if !isAwaitingNotification {
            isAwaitingNotification = true
            engine.notifications.append(self)
        }
    }

    override func flushNotifications() {
        flush(self)
    }

    /// Calls the listeners with what the transaction delivered: every event, and a change only if
    /// the transaction did not change the value back.
    @inlinable
    func deliverBuffered() {
        isAwaitingNotification = false
        let before = valueBeforeTransaction
        valueBeforeTransaction = nil
        // Listeners attached while these values are delivered do not get them (they got a replay).
        let count = listeners.count
        listeners.isDelivering = true
        if buffered.count == 1 {
            let entry = buffered.removeLast()
            if entry.delivery != .change || !isChangedBack(from: before, to: entry.value) {
                listeners.deliver(entry.value, toFirst: count)
            }
        } else {
            let entries = buffered
            buffered = []
            for entry in entries { listeners.deliver(entry.value, toFirst: count) }
        }
        listeners.finishDelivering()
    }

    /// Whether the transaction's only change set the value back to what it was before.
    @inlinable
    func isChangedBack(from before: Value?, to value: Value) -> Bool {
        guard let before, let isEqual else { return false }
        return isEqual(before, value)
    }

    // MARK: Receivers and listeners

    /// The receivers, in attach order.
    var receivers: [any Receiver<Value>] { edges.map(\.receiver) }

    /// Adds a receiver, served after those attached before it.
    @inlinable
    func attach(_ receiver: some Receiver<Value>) {
        attach(receiver) { [receiver] value, delivery in receiver.receive(value, delivery) }
    }

    /// Adds a receiver that `deliver` serves in its place: a shortcut that does what
    /// `receiver.receive` would, such as a map node's closure emitting on its output directly.
    @inlinable
    func attach(_ receiver: some Receiver<Value>, deliver: @escaping (Value, Delivery) -> Void) {
        edges.append(Edge(receiver: receiver, deliver: deliver))
    }

    /// Adds a receiver at `place` among the others (at the end when `nil` or past it).
    func attach(_ receiver: some Receiver<Value>, at place: Int?) {
        let edge = Edge(receiver: receiver) { [receiver] value, delivery in receiver.receive(value, delivery) }
        edges.insert(edge, at: min(place ?? edges.count, edges.count))
    }

    /// Where `receiver` is among the receivers.
    func place(of receiver: any Receiver<Value>) -> Int? {
        edges.firstIndex { $0.receiver === receiver }
    }

    func detach(_ receiver: any Receiver<Value>) {
        edges.removeAll { $0.receiver === receiver }
    }

    func detachAllReceivers() {
        edges.removeAll()
    }

    /// Adds a listener; a value port that holds a value delivers it at once unless `future`.
    func subscribe(future: Bool, _ callback: @escaping (Value) -> Void) -> Connection {
        let listener = Listener(callback)
        listeners.append(listener)
        if remembers, !future, let value { callback(value) }
        return Connection { [listeners, listener] in
            listeners.disconnect(listener)
        }
    }

    var hasListeners: Bool { !listeners.isEmpty }

    func removeAllListeners() {
        listeners.disconnectAll()
    }
}

/// A receiver as its port holds it: the receiver, for inspection and `detach`, and the closure
/// that delivers to it, made where the receiver's type is known.
@usableFromInline
final class Edge<Value> {
    @usableFromInline let receiver: any Receiver<Value>
    @usableFromInline let deliver: (Value, Delivery) -> Void

    @inlinable
    init(receiver: any Receiver<Value>, deliver: @escaping (Value, Delivery) -> Void) {
        self.receiver = receiver
        self.deliver = deliver
    }
}

/// A port's subscribers, in attach order. Connections hold the list rather than the port, so
/// that a connection neither keeps the port alive nor needs a weak reference to it.
@usableFromInline
final class ListenerList<Value> {
    @usableFromInline var listeners: [Listener<Value>] = []
    /// While set, disconnected listeners stay in the array (marked), so that indexes and the
    /// listeners being called stay valid; `finishDelivering` removes them.
    @usableFromInline var isDelivering = false
    @usableFromInline var hasDisconnected = false

    @usableFromInline
    init() {}

    @inlinable
    var isEmpty: Bool { listeners.isEmpty }

    @inlinable
    var count: Int { listeners.count }

    func append(_ listener: Listener<Value>) {
        listeners.append(listener)
    }

    /// Calls the first `count` listeners that are still connected with `value`; while
    /// `isDelivering` is set, none leaves the array, so the indexes stay valid.
    @inlinable
    func deliver(_ value: Value, toFirst count: Int) {
        var index = 0
        while index < count {
            let listener = listeners[index]
            if listener.isConnected { listener.callback(value) }
            index += 1
        }
    }

    @usableFromInline
    func finishDelivering() {
        isDelivering = false
        if hasDisconnected { removeDisconnected() }
    }

    /// Ends one listener at once; it leaves the array now, or after the delivery in progress.
    func disconnect(_ listener: Listener<Value>) {
        listener.disconnect()
        if isDelivering { hasDisconnected = true } else { removeDisconnected() }
    }

    /// Ends every listener at once.
    func disconnectAll() {
        for listener in listeners { listener.disconnect() }
        if isDelivering { hasDisconnected = true } else { listeners.removeAll() }
    }

    private func removeDisconnected() {
        listeners.removeAll { !$0.isConnected }
        hasDisconnected = false
    }
}

/// A subscriber's callback, with the flag that ends it at once, even mid-delivery.
@usableFromInline
final class Listener<Value> {
    @usableFromInline let callback: (Value) -> Void
    /// The connection flag, read on every delivery. An `Atomic` so that it can be a `let`: a
    /// `var` would cost a dynamic exclusivity check per read, and a relaxed atomic load is a
    /// plain load. Nothing is concurrent here: the listener stays in its engine's isolation
    /// domain.
    @usableFromInline let connected = Atomic<Bool>(true)

    init(_ callback: @escaping (Value) -> Void) {
        self.callback = callback
    }

    @inlinable
    var isConnected: Bool { connected.load(ordering: .relaxed) }

    func disconnect() { connected.store(false, ordering: .relaxed) }
}
