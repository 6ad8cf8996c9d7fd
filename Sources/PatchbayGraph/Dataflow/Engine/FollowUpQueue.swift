@_spi(Shell) import PatchbayCore
import DequeModule

/// A write made while the engine was busy, waiting to run as a transaction of its own.
struct FollowUp {
    var label: String
    var write: () -> Void
}

/// Writes made from callbacks, first in first out, each run after the transaction that made it,
/// never nested.
struct FollowUpQueue {
    /// How many follow-up transactions one outermost write may cause before the engine stops a
    /// runaway loop.
    static let limit = 100

    private var items = Deque<FollowUp>()
    var isDraining = false

    var isEmpty: Bool { items.isEmpty }

    mutating func append(_ item: FollowUp) { items.append(item) }

    mutating func popFirst() -> FollowUp? { items.popFirst() }

    mutating func removeAll() { items.removeAll() }
}
