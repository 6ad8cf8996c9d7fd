@_spi(Shell) public import PatchbayCore

/// A value that changes over time (GlueKit's `Variable`; a value port).
///
/// Subscribers get the current value at once, then every change; setting an equal value
/// (for `Equatable` values) does nothing. Inside `engine.transaction { }` writes are buffered
/// and subscribers hear once, with the net result.
///
/// ```swift
/// let count = Variable(0, in: engine)
/// let label = count.map { "count is \($0)" }
/// let connection = label.subscribe { print($0) }   // prints "count is 0"
/// count.value = 2                                    // prints "count is 2"
/// ```
///
/// Writing and `map` are `@inlinable`, so that they run code specialized for the client's types.
@_spi(Shell)
public final class Variable<Value> {
    @usableFromInline let core: SourceNode<Value>

    @usableFromInline
    init(core: SourceNode<Value>) {
        self.core = core
    }

    /// A variable of a type without equality: every write counts as a change.
    @inlinable
    public convenience init(_ initial: Value, in engine: Engine, label: String = "variable") {
        self.init(core: SourceNode(engine: engine, label: label, port: "value", remembers: true, initial: initial, isEqual: nil))
    }

    /// The current value; inside a transaction, the value written in it.
    public var value: Value {
        get { core.currentValue! }
        @inlinable set { core.write(newValue) }
    }

    /// Delivers the current value again although it did not change.
    public func touch() {
        core.write(value, .event)
    }

    /// The variable as a read-only value.
    @inlinable
    public var derived: Derived<Value> { Derived(port: core.output) }

    /// Calls `callback` with the current value now, then with every change.
    public func subscribe(_ callback: @escaping (Value) -> Void) -> Connection {
        core.output.subscribe(future: false, callback)
    }

    /// Calls `callback` with every later change, without the current value (GlueKit's
    /// `futureValues`).
    public func subscribeToFutureValues(_ callback: @escaping (Value) -> Void) -> Connection {
        core.output.subscribe(future: true, callback)
    }

    /// A value computed from this one; it changes only when the result changes.
    @inlinable
    public func map<Output: Equatable>(_ transform: @escaping (Value) -> Output) -> Derived<Output> {
        derived.map(transform)
    }

    /// A value computed from this one.
    @inlinable
    public func map<Output>(_ transform: @escaping (Value) -> Output) -> Derived<Output> {
        derived.map(transform)
    }
}

extension Variable where Value: Equatable {
    /// A variable whose equal writes do nothing.
    @inlinable
    public convenience init(_ initial: Value, in engine: Engine, label: String = "variable") {
        self.init(core: SourceNode(engine: engine, label: label, port: "value", remembers: true, initial: initial, isEqual: ==))
    }
}
