/// An output: a value port (remembers its last value, equal values stop, replays to new
/// subscribers; a publink) or an event port (remembers nothing).
final class OutputPort<Value>: PortCore {
    let name: String
    let remembers: Bool
    let isEqual: ((Value, Value) -> Bool)?
    private(set) var value: Value?
    /// Where values go during a wave, in attach order.
    private(set) var receivers: [any Receiver<Value>] = []
    private(set) var listeners: [Listener<Value>] = []
    private var buffered: [(value: Value, delivery: Delivery)] = []
    private var valueBeforeTransaction: Value?
    private var isFlushing = false
    private var hasDisconnectedListeners = false

    init(owner: NodeCore, index: Int = 0, name: String, remembers: Bool, initial: Value? = nil,
         isEqual: ((Value, Value) -> Bool)?) {
        self.name = name
        self.remembers = remembers
        self.value = remembers ? initial : nil
        self.isEqual = isEqual
        super.init(owner: owner, index: index)
    }

    /// Sends a value on: stores it (value ports), passes it to receivers now, and to listeners
    /// when the transaction settles. A change equal to the current value stops here.
    /// - Returns: whether the value went on.
    @discardableResult
    func emit(_ newValue: Value, _ delivery: Delivery) -> Bool {
        if remembers {
            if delivery == .change, let old = value, let isEqual, isEqual(old, newValue) { return false }
            if !listeners.isEmpty, buffered.isEmpty { valueBeforeTransaction = value }
            value = newValue
        }
        var index = 0
        while index < receivers.count {
            receivers[index].receive(newValue, delivery)
            index += 1
        }
        if !listeners.isEmpty { buffer(newValue, delivery) }
        return true
    }

    /// Sets the stored value without delivering it (initial values, jumps).
    func store(_ newValue: Value?) {
        value = newValue
    }

    private func buffer(_ newValue: Value, _ delivery: Delivery) {
        if delivery == .change, let last = buffered.last, last.delivery == .change {
            buffered[buffered.count - 1] = (newValue, delivery)
        } else {
            buffered.append((newValue, delivery))
        }
        if !isAwaitingNotification {
            isAwaitingNotification = true
            owner.engine.notifications.append(self)
        }
    }

    override func flushNotifications() {
        isAwaitingNotification = false
        let entries = buffered
        let before = valueBeforeTransaction
        buffered.removeAll(keepingCapacity: true)
        valueBeforeTransaction = nil
        // Listeners attached while these values are delivered do not get them (they got a replay).
        let count = listeners.count
        isFlushing = true
        for entry in entries {
            if entries.count == 1, entry.delivery == .change, let before, let isEqual, isEqual(before, entry.value) {
                continue  // the transaction changed the value and changed it back
            }
            var index = 0
            while index < count {
                let listener = listeners[index]
                if listener.isConnected { listener.callback(entry.value) }
                index += 1
            }
        }
        isFlushing = false
        if hasDisconnectedListeners { compactListeners() }
    }

    // MARK: Receivers and listeners

    func attach(_ receiver: any Receiver<Value>) {
        receivers.append(receiver)
    }

    func detach(_ receiver: any Receiver<Value>) {
        receivers.removeAll { $0 === receiver }
    }

    func detachAllReceivers() {
        receivers.removeAll()
    }

    /// Adds a listener; a value port that holds a value delivers it at once unless `future`.
    func subscribe(future: Bool, _ callback: @escaping (Value) -> Void) -> Connection {
        let listener = Listener(callback)
        listeners.append(listener)
        if remembers, !future, let value { callback(value) }
        return Connection { [weak self, listener] in
            listener.isConnected = false
            self?.removeListener()
        }
    }

    var hasListeners: Bool { !listeners.isEmpty }

    private func removeListener() {
        if isFlushing { hasDisconnectedListeners = true } else { compactListeners() }
    }

    private func compactListeners() {
        listeners.removeAll { !$0.isConnected }
        hasDisconnectedListeners = false
    }

    func removeAllListeners() {
        for listener in listeners { listener.isConnected = false }
        listeners.removeAll()
    }
}

/// A subscriber's callback, with the flag that ends it at once, even mid-delivery.
final class Listener<Value> {
    let callback: (Value) -> Void
    var isConnected = true

    init(_ callback: @escaping (Value) -> Void) {
        self.callback = callback
    }
}
