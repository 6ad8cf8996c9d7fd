@_spi(Shell) public import PatchbayCore

/// A read-only value computed from other values: a variable's `map`, or several values combined.
///
/// It is evaluated once per wave, after everything it depends on, so it never mixes old and new
/// inputs (a diamond `d = b + c` over `b = a + 1`, `c = a * 2` sees `a` change once), and a
/// result equal to the previous one (for `Equatable` values) stops there.
@_spi(Shell)
public struct Derived<Value> {
    @usableFromInline let port: OutputPort<Value>

    @usableFromInline
    init(port: OutputPort<Value>) {
        self.port = port
    }

    /// The current value.
    public var value: Value { port.value! }

    /// Calls `callback` with the current value now, then with every change.
    public func subscribe(_ callback: @escaping (Value) -> Void) -> Connection {
        port.subscribe(future: false, callback)
    }

    /// Calls `callback` with every later change only.
    public func subscribeToFutureValues(_ callback: @escaping (Value) -> Void) -> Connection {
        port.subscribe(future: true, callback)
    }

    /// A value computed from this one; it changes only when the result changes.
    @inlinable
    public func map<Output: Equatable>(_ transform: @escaping (Value) -> Output) -> Derived<Output> {
        Derived<Output>(port: MapNode(from: port, remembers: true, isEqual: ==, label: "map", transform).output)
    }

    /// A value computed from this one.
    @inlinable
    public func map<Output>(_ transform: @escaping (Value) -> Output) -> Derived<Output> {
        Derived<Output>(port: MapNode(from: port, remembers: true, isEqual: nil, label: "map", transform).output)
    }
}

extension Derived {
    /// A value computed from two others, evaluated once per wave after both.
    public static func combining<A, B>(
        _ a: Derived<A>, _ b: Derived<B>, label: String = "combine", _ compute: @escaping (A, B) -> Value
    ) -> Derived<Value> {
        let (pa, pb) = (a.port, b.port)
        let node = CombineNode<Value>(engine: pa.owner.engine, label: label, isEqual: nil) {
            guard let x = pa.value, let y = pb.value else { return nil }
            return compute(x, y)
        }
        node.listen(to: pa)
        node.listen(to: pb)
        return Derived(port: node.output)
    }

    /// A value computed from many of the same type, evaluated once per wave after all of them.
    public static func combining<Input>(
        _ inputs: [Derived<Input>], label: String = "combine", _ compute: @escaping ([Input]) -> Value
    ) -> Derived<Value> {
        let ports = inputs.map(\.port)
        let engine = ports.first?.owner.engine ?? Engine()
        let node = CombineNode<Value>(engine: engine, label: label, isEqual: nil) {
            var values: [Input] = []
            values.reserveCapacity(ports.count)
            for port in ports {
                guard let value = port.value else { return nil }
                values.append(value)
            }
            return compute(values)
        }
        for port in ports { node.listen(to: port) }
        return Derived(port: node.output)
    }
}

extension Derived where Value: Equatable {
    /// A value computed from two others; it changes only when the result changes.
    public static func combining<A, B>(
        _ a: Derived<A>, _ b: Derived<B>, label: String = "combine", _ compute: @escaping (A, B) -> Value
    ) -> Derived<Value> {
        let (pa, pb) = (a.port, b.port)
        let node = CombineNode<Value>(engine: pa.owner.engine, label: label, isEqual: ==) {
            guard let x = pa.value, let y = pb.value else { return nil }
            return compute(x, y)
        }
        node.listen(to: pa)
        node.listen(to: pb)
        return Derived(port: node.output)
    }
}
