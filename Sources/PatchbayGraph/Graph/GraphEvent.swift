@_spi(Shell) public import PatchbayCore

/// Something a graph reports while values flow: probe and log output, and errors of nodes.
@_spi(Shell)
public enum GraphEvent: Sendable, Equatable {
    /// A probe saw `value` delivered on `port` in transaction `transaction`.
    case probe(port: String, value: Value, transaction: Int)
    /// A `log` patch received `value`.
    case log(node: String, value: Value, transaction: Int)
    /// A node failed, or a loop of writes did not settle.
    case error(EngineError)
    /// A store handled an action that no `dispatch` command sent: one from a wire, or an
    /// `after` reducer's.
    /// Indirect, so that the far more common probe events stay small to store and copy.
    indirect case dispatched(StoreStep<ValueChange>)
    /// A URL was routed that no `route` command asked for: one that arrived on `router.open`.
    indirect case routed(Navigation)
}
