@_spi(Shell) import PatchbayCore

/// What every port shares: its place for ordering notifications.
@usableFromInline
class PortCore {
    @usableFromInline unowned let owner: NodeCore
    /// The owner's engine (unowned: the engine holds the nodes, which hold their ports).
    @usableFromInline unowned let engine: Engine
    /// The port's position among its node's ports.
    let index: Int
    @usableFromInline var isAwaitingNotification = false
    /// Why the port holds its value (`set a = 2`, `b.value`, `d.value`); kept by graph ports for
    /// `why`.
    var cause: Cause?
    /// `node.port`, for cause chains; set by graph nodes.
    var addressText = ""

    @usableFromInline
    init(owner: NodeCore, index: Int) {
        self.owner = owner
        self.engine = owner.engine
        self.index = index
    }

    /// Listeners are called in rank order of their node, then by port, then in attach order.
    final var notificationOrder: (Int, Int, Int) { (owner.rank, owner.id, index) }

    /// Calls the listeners with what the transaction delivered.
    func flushNotifications() {}
}
