@_spi(Shell) import PatchbayCore

/// Something a port delivers values to during a wave: the next node of a chain, a wire, a patch
/// input.
@usableFromInline
protocol Receiver<Input>: AnyObject {
    associatedtype Input
    /// The node the receiver belongs to, for ranks and cycle checks.
    var node: NodeCore { get }
    func receive(_ value: Input, _ delivery: Delivery)
}
