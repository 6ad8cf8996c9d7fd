@_spi(Shell) import PatchbayCore

/// The scheduler that every node of one dataflow graph shares: transactions, waves and the queue
/// of writes made from callbacks (PatchbayHost.docc/Dataflow.md states the rules they follow).
///
/// ## Concurrency
/// An engine and everything created in it form one isolation region: none of these types is
/// `Sendable`, so Swift's region checking keeps them on the thread, task or actor that made them
/// (an app typically keeps them on the main actor). There are no locks, so no lock is ever held
/// while user code runs. Instead, a write made while the engine is busy (from a subscriber, a
/// probe or a patch body's side effect) never runs nested: it is queued and runs afterwards as a
/// transaction of its own, first in, first out.
///
/// ## Ownership
/// Nodes belong to their engine: a node lives until it is removed or the engine is released.
/// Subscriptions are `Connection`s, which end when disconnected or released.
public final class Engine {
    @usableFromInline
    enum Phase {
        /// No transaction is running.
        case idle
        /// Inside `begin` ... `commit`: writes are buffered.
        case collecting
        /// A wave is running: nodes are being evaluated.
        case propagating
        /// Listeners are being called.
        case notifying
    }

    @usableFromInline var phase: Phase = .idle
    private var explicitDepth = 0
    /// The id of the newest transaction; every transaction gets the next one.
    public internal(set) var transactionID = 0

    /// Nodes waiting to be evaluated in this wave, lowest rank first.
    var queue = RankQueue()
    /// Ports with listeners to notify when the transaction's waves have settled.
    @usableFromInline var notifications: [PortCore] = []
    /// Variables written inside an explicit transaction, applied at commit if they changed.
    var bufferedWrites: [BufferedWrite] = []
    /// Events sent inside an explicit transaction, one wave each at commit, in send order.
    var bufferedEvents: [() -> Void] = []

    private var followUps = FollowUpQueue()
    /// The virtual clock and its timers.
    public internal(set) var clock = VirtualClock()
    /// What runs at the start of every tick (delay edges), by owner.
    var tickHandlers: [ObjectIdentifier: TickHandler] = [:]
    /// Every node, so that the engine can break the graph's reference cycles when it goes away.
    var nodes: [ObjectIdentifier: NodeCore] = [:]
    /// The id of the newest node (ids count up from 1).
    private(set) var nextNodeID = 0

    /// What puts back each node saved since the outermost open undo scope, in the order they
    /// were saved; where each open scope's part of it starts, oldest scope first; and the
    /// generation of the innermost scope, 0 when none is open (Engine+Undo.swift).
    var undoLog: [UndoEntry] = []
    var undoScopes: [UndoScope] = []
    var undoGeneration = 0
    var lastUndoGeneration = 0

    /// Called for every error the engine reports outside a failing call: a node that failed, a
    /// runaway loop of follow-up writes. The shell prints these.
    public var onError: ((EngineError) -> Void)?
    /// Errors reported since `takeErrors()` was last called, when no `onError` is set.
    private var pendingErrors: [EngineError] = []

    public init() {}

    deinit {
        for node in nodes.values { node.detachAll() }
    }

    /// Whether a transaction is open (`begin` without its `commit`).
    public var isInTransaction: Bool { explicitDepth > 0 }

    /// How deeply `begin` is nested.
    public var transactionDepth: Int { explicitDepth }

    // MARK: Nodes

    func register(_ node: NodeCore) -> Int {
        nextNodeID += 1
        nodes[ObjectIdentifier(node)] = node
        return nextNodeID
    }

    func unregister(_ node: NodeCore) {
        nodes[ObjectIdentifier(node)] = nil
    }

    // MARK: Errors

    func report(_ error: EngineError) {
        if let onError { onError(error) } else { pendingErrors.append(error) }
    }

    /// Returns and clears the errors reported while no `onError` handler was set.
    public func takeErrors() -> [EngineError] {
        defer { pendingErrors.removeAll() }
        return pendingErrors
    }

    // MARK: Writes

    /// How a write must be carried out now.
    enum WriteMode {
        /// Start a transaction of its own.
        case immediate
        /// Buffer until the explicit transaction commits.
        case buffered
        /// The engine is busy: queue as a follow-up transaction.
        case queued
    }

    var writeMode: WriteMode {
        switch phase {
        case .idle: .immediate
        case .collecting: .buffered
        case .propagating, .notifying: .queued
        }
    }

    /// Queues a write made while the engine is busy; `label` names what it writes, for the error
    /// a runaway loop reports.
    func enqueue(_ label: String, _ write: @escaping () -> Void) {
        guard !dropsFollowUps else { return }
        followUps.append(FollowUp(label: label, write: write))
    }

    /// Whether writes made while the engine is busy are dropped (see `droppingFollowUps`).
    private var dropsFollowUps = false

    /// Runs `body`, dropping the writes its waves would queue: a session put back as it was
    /// (after a command that failed as a whole) publishes the states it had, so that what is
    /// derived from them follows, but nothing wired to them dispatches or writes again.
    public func droppingFollowUps(_ body: () -> Void) {
        let saved = dropsFollowUps
        dropsFollowUps = true
        defer { dropsFollowUps = saved }
        body()
    }

    /// Runs `inject` as a transaction of its own: one wave, then the listeners, then any queued
    /// follow-ups (when this is the outermost write).
    @usableFromInline
    func runTransaction(_ inject: () -> Void) {
        transactionID += 1
        phase = .propagating
        inject()
        settle()
        finishTransaction()
    }

    /// Evaluates every scheduled node, lowest rank first.
    func settle() {
        while !queue.isEmpty, let node = queue.popFirst() {
            node.isScheduled = false
            node.willChange()
            node.evaluate()
        }
    }

    /// Calls the listeners of every port that changed, then runs queued writes.
    private func finishTransaction() {
        phase = .notifying
        if notifications.count > 1 {
            notifications.sort { a, b in a.notificationOrder < b.notificationOrder }
        }
        // By index: a listener's write adds no port now (it is queued), but the array is read
        // afresh at every step all the same.
        var index = 0
        while index < notifications.count {
            notifications[index].flushNotifications()
            index += 1
        }
        // For the common single port, `removeLast` is much cheaper than `removeAll(keepingCapacity:)`.
        if notifications.count == 1 {
            notifications.removeLast()
        } else {
            notifications.removeAll(keepingCapacity: true)
        }
        phase = .idle
        if !followUps.isEmpty { drainFollowUps() }
    }

    /// How many runaway loops of follow-ups were stopped so far: a `tick` ends at the timer
    /// whose transaction ran away.
    private(set) var runawayCount = 0

    private func drainFollowUps() {
        guard !followUps.isDraining else { return }
        followUps.isDraining = true
        defer { followUps.isDraining = false }
        var count = 0
        var labels: [String] = []
        while let next = followUps.popFirst() {
            count += 1
            if count > FollowUpQueue.limit {
                followUps.removeAll()
                runawayCount += 1
                report(.runaway(limit: FollowUpQueue.limit, ports: Self.distinct(labels)))
                return
            }
            labels.append(next.label)
            next.write()
        }
    }

    private static func distinct(_ labels: [String]) -> [String] {
        var seen = Set<String>()
        return labels.filter { seen.insert($0).inserted }
    }

    // MARK: Explicit transactions

    /// Opens a transaction (they nest): writes are buffered until the outermost `commit`.
    public func begin() throws(EngineError) {
        guard phase == .idle || phase == .collecting else { throw .busy("begin") }
        explicitDepth += 1
        phase = .collecting
    }

    /// Closes the innermost transaction. The outermost commit applies the net change of every
    /// variable in one wave, then each event sent meanwhile in a wave of its own, then notifies
    /// subscribers once per port.
    /// - Returns: whether this was the outermost commit (and so the writes took effect).
    @discardableResult
    public func commit() throws(EngineError) -> Bool {
        guard explicitDepth > 0, phase == .collecting else { throw .noTransaction("commit") }
        explicitDepth -= 1
        guard explicitDepth == 0 else { return false }
        let writes = bufferedWrites
        let events = bufferedEvents
        bufferedWrites.removeAll()
        bufferedEvents.removeAll()
        transactionID += 1
        phase = .propagating
        for write in writes { write.apply() }
        settle()
        for event in events {
            event()
            settle()
        }
        finishTransaction()
        return true
    }

    /// Drops every write of the open transaction (all nesting levels).
    public func abort() throws(EngineError) {
        guard explicitDepth > 0, phase == .collecting else { throw .noTransaction("abort") }
        for write in bufferedWrites { write.discard() }
        bufferedWrites.removeAll()
        bufferedEvents.removeAll()
        explicitDepth = 0
        phase = .idle
    }

    /// Runs `body` in a transaction: its writes take effect together when it returns. Called while
    /// the engine is busy, the whole body is queued as one follow-up transaction.
    public func transaction(_ body: @escaping () -> Void) {
        if writeMode == .queued {
            enqueue("transaction") { [unowned self] in transaction(body) }
            return
        }
        _ = try? begin()
        body()
        _ = try? commit()
    }
}

/// A variable written inside an explicit transaction.
struct BufferedWrite {
    var apply: () -> Void
    var discard: () -> Void
}
