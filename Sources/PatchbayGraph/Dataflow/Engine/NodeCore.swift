@_spi(Shell) import PatchbayCore

/// What every node shares: identity, rank, and the failed and stale marks (a failing node keeps
/// its last value, its dependents are stale, until a good value clears the marks).
///
/// A node's rank is 0 for a source and otherwise more than the rank of every node feeding it
/// through an instantaneous edge, so evaluating in rank order sees every input settled (a diamond
/// never sees a mix of old and new).
@usableFromInline
class NodeCore {
    /// Unowned: the engine holds its nodes. A node used after its engine was released traps.
    @usableFromInline unowned let engine: Engine
    /// Creation order: ties between equal ranks go to the older node.
    private(set) var id = 0
    @usableFromInline var rank = 0
    var isScheduled = false
    /// How errors and runaway reports name the node (`x`, `counter`).
    var label: String
    /// Why the node's last evaluation failed; it keeps its last good value meanwhile.
    var failure: String? { willSet { willChange() } }
    /// Whether an upstream node failed, so this node's value may be out of date.
    var isStale = false { willSet { willChange() } }
    /// The undo scope the node was last saved in (see `Engine.openUndoScope()`).
    var savedGeneration = 0

    @usableFromInline
    init(engine: Engine, label: String) {
        self.engine = engine
        self.label = label
        self.id = engine.register(self)
    }

    /// Computes the node's outputs from its inputs; called once per wave when scheduled.
    func evaluate() {}

    /// What the node holds that a transaction can change, as a closure that puts it back
    /// without sending anything; `nil` for a node nothing takes back. Called before the node
    /// first changes in an undo scope (see `willChange()`).
    func saved() -> (() -> Void)? { nil }

    /// Called before anything of the node changes: while an undo scope is open, saves the node
    /// the first time in that scope. (Without one, a load and a compare.)
    @inline(__always)
    final func willChange() {
        let generation = engine.undoGeneration
        if generation != 0 && generation != savedGeneration { engine.save(self) }
    }

    /// The nodes this one feeds through instantaneous edges.
    var downstreamNodes: [NodeCore] { [] }

    /// Drops every edge, so that the node and its neighbours can be released.
    func detachAll() {}

    /// Asks for an evaluation in the current wave (at most one per wave).
    final func schedule() {
        guard !isScheduled else { return }
        isScheduled = true
        engine.queue.insert(self)
    }

    /// Raises this node's rank, and its dependents', so that it follows a node of rank `upstream`.
    @usableFromInline
    final func follow(rank upstream: Int) {
        guard rank <= upstream else { return }
        rank = upstream + 1
        for node in downstreamNodes { node.follow(rank: rank) }
    }

    /// Marks the node failed, keeping its value, and everything downstream stale.
    final func markFailed(_ message: String) {
        failure = message
        engine.report(.nodeFailed(node: label, message: message))
        markDependentsStale()
    }

    final func markDependentsStale() {
        var pending = downstreamNodes
        var seen = Set<ObjectIdentifier>()
        while let node = pending.popLast() {
            guard seen.insert(ObjectIdentifier(node)).inserted else { continue }
            node.isStale = true
            pending += node.downstreamNodes
        }
    }

    /// Clears the marks after a good evaluation; returns whether the node was failed or stale,
    /// in which case its dependents must hear from it even if its value did not change.
    final func clearMarks() -> Bool {
        let wasMarked = failure != nil || isStale
        failure = nil
        isStale = false
        return wasMarked
    }
}

/// How a value travels.
///
/// A value port never passes on a value equal to the one it holds, whatever started the wave
/// (equal values stop): what it sends on is a `.change`, unless it was forced with an `.event`.
/// An event port sends on every value as an `.event`.
@usableFromInline
enum Delivery {
    /// A value port's new value: equal to the port's value, it stops there.
    case change
    /// A value its writer knows to differ from the port's (a store step that changed something):
    /// stored without comparing the two, then sent on as a `.change`.
    case knownChange
    /// An event: always delivered, never deduplicated. On a value port it forces the value
    /// through although it did not change (`touch`, a mark cleared, a tap).
    case event
}
