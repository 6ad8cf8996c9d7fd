@_spi(Shell) public import PatchbayCore

/// A source of events with no memory (GlueKit's `Signal`; an event port).
///
/// ```swift
/// let engine = Engine()
/// let taps = Signal<Int>(in: engine)
/// let connection = taps.subscribe { print("tap \($0)") }
/// taps.send(1)          // prints "tap 1"
/// ```
/// A send made while the engine is busy (from a subscriber) is queued and delivered after the
/// current transaction, never nested.
///
/// `send`, `map` and `filter` are `@inlinable`, so that the chain runs code specialized for the
/// client's types.
@_spi(Shell)
public final class Signal<Value> {
    @usableFromInline let core: SourceNode<Value>

    /// - Parameter label: how errors name the signal.
    @inlinable
    public init(in engine: Engine, label: String = "signal") {
        core = SourceNode(engine: engine, label: label, port: "out", remembers: false, initial: nil, isEqual: nil)
    }

    /// Delivers `value` to every subscriber and downstream node.
    @inlinable
    public func send(_ value: Value) {
        core.send(value)
    }

    /// Ends the signal: later sends are refused and reported to the engine.
    public func close() {
        core.isClosed = true
    }

    /// Whether `close()` was called.
    public var isClosed: Bool { core.isClosed }

    /// The signal as a read-only source of events.
    @inlinable
    public var source: EventSource<Value> { EventSource(port: core.output) }

    /// Calls `callback` with every later event, in attach order with other subscribers.
    public func subscribe(_ callback: @escaping (Value) -> Void) -> Connection {
        source.subscribe(callback)
    }

    /// Events transformed by `transform`.
    @inlinable
    public func map<Output>(_ transform: @escaping (Value) -> Output) -> EventSource<Output> {
        source.map(transform)
    }

    /// The events `isIncluded` accepts.
    @inlinable
    public func filter(_ isIncluded: @escaping (Value) -> Bool) -> EventSource<Value> {
        source.filter(isIncluded)
    }
}

/// A read-only stream of events: a signal, or a signal mapped or filtered.
@_spi(Shell)
public struct EventSource<Value> {
    @usableFromInline let port: OutputPort<Value>

    @usableFromInline
    init(port: OutputPort<Value>) {
        self.port = port
    }

    /// Calls `callback` with every later event.
    public func subscribe(_ callback: @escaping (Value) -> Void) -> Connection {
        port.subscribe(future: true, callback)
    }

    /// Events transformed by `transform`, one node further down the graph.
    @inlinable
    public func map<Output>(_ transform: @escaping (Value) -> Output) -> EventSource<Output> {
        EventSource<Output>(port: MapNode(from: port, remembers: false, isEqual: nil, label: "map", transform).output)
    }

    /// The events `isIncluded` accepts.
    @inlinable
    public func filter(_ isIncluded: @escaping (Value) -> Bool) -> EventSource<Value> {
        EventSource(port: FilterNode(from: port, label: "filter", isIncluded).output)
    }
}
