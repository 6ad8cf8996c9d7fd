extension Graph {
    /// Where a graph stands, so that what a command changes after it can be taken back: a
    /// command that failed as a whole (a loop that never settled) or that Ctrl-C stopped leaves
    /// every node, the wires, the clock, its timers and the navigation as they were before it.
    ///
    /// The store histories have marks of their own (in the recorder); together they make the
    /// one way the shell takes a command back.
    public struct Mark: Sendable {
        /// The engine's undo scope: every node is saved before it first changes.
        fileprivate let undo: Engine.UndoMark
        /// How many saves were kept when the mark was made: the next one is the clock as it
        /// was before the first tick after the mark.
        fileprivate let saves: Int
        /// How many wires had been made or replaced since the oldest open mark.
        fileprivate let wireChanges: Int
        /// The navigation stack and how many URLs had been routed: a command that routes from
        /// the graph and then fails as a whole takes its navigation back too.
        fileprivate let stack: NavigationStack
        fileprivate let routeCount: Int
        /// How many marks are open with this one: a `router` node that a lookup made at this
        /// depth or deeper (`routerMadeUnderMarks`) is this mark's command's to take back.
        fileprivate let depth: Int
        /// The newest node's id when the mark was made: a node with a larger one was made since.
        fileprivate let lastNodeID: Int
        /// The sequence number of the latest timer set when the mark was made: the timers the
        /// command sets after it (a dispatch's `after` reducers) go when it is taken back.
        fileprivate let timerSequence: Int
    }

    /// Marks where the graph stands now. Until the mark is released (`release(_:)`), every
    /// node is saved before it first changes (a cost in proportion to the nodes that change),
    /// every wire made or replaced is noted, and the first `tick` saves the clock.
    /// Marks nest: each is released before the one made before it.
    public func mark() -> Mark {
        openMarks.append(savesBeforeTicks.count)
        return Mark(undo: engine.openUndoScope(), saves: savesBeforeTicks.count, wireChanges: wireChanges.count, stack: stack,
                    routeCount: routeHistory.count, depth: openMarks.count, lastNodeID: engine.nextNodeID,
                    timerSequence: engine.clock.nextSequence)
    }

    /// Whether the node named `name` exists and was made after `mark`.
    public func isNode(_ name: String, madeSince mark: Mark) -> Bool {
        guard let node = nodes[name] else { return false }
        return node.id > mark.lastNodeID
    }

    /// Removes the nodes made after `mark`, the newest first, with their wires, probes and
    /// bindings (as `rm` does): with `rollBack(to:)`, what takes back a command that made nodes
    /// (a `load` that Ctrl-C stopped). Returns whether they are all gone: inside `begin` ...
    /// `commit` none can be removed.
    @discardableResult
    public func removeNodes(madeSince mark: Mark) -> Bool {
        let made = nodes.values.filter { $0.id > mark.lastNodeID }
        for node in made.reversed() { try? remove(node.name) }
        return !nodes.values.contains { $0.id > mark.lastNodeID }
    }

    /// Removes the `router` node when a lookup made it after `mark` and nothing uses it yet: a
    /// command that failed after it named `router` (`wire router.route -> nope.in`) changes
    /// nothing, not even the node list.
    public func dropRouterMade(since mark: Mark) {
        guard let router = provisionalRouter(sinceDepth: mark.depth) else { return }
        nodes[RouterNode.name] = nil
        routerMadeUnderMarks = nil
        engine.unregister(router)
        rankAll()
    }

    /// The `router` node when a lookup made it under a mark at `depth` or deeper whose command
    /// is still running, and nothing uses it yet (no wire, listener, probe or delayed wire): a
    /// node that command's failure takes back.
    func provisionalRouter(sinceDepth depth: Int) -> RouterNode? {
        guard let made = routerMadeUnderMarks, made >= depth, let router = nodes[RouterNode.name] as? RouterNode,
              router.outputs.allSatisfy({ $0.receivers.isEmpty && !$0.hasListeners }), router.inputs.allSatisfy(\.wires.isEmpty),
              !probes.keys.contains(where: { $0 == RouterNode.name || $0.hasPrefix(RouterNode.name + ".") }),
              !delayWires.contains(where: { $0.source.owner === router || $0.target.owner === router })
        else { return nil }
        return router
    }

    /// Ends `mark` (and any mark made after it that is still open), dropping what was saved for
    /// it alone: a command's saves live as long as the command, or as the enclosing command
    /// that needs the same one.
    public func release(_ mark: Mark) {
        engine.closeUndoScope(mark.undo)
        guard let index = openMarks.lastIndex(of: mark.saves) else { return }
        openMarks.removeSubrange(index...)
        let kept = openMarks.last.map { $0 + 1 } ?? 0
        if savesBeforeTicks.count > kept { savesBeforeTicks.removeSubrange(kept...) }
        if openMarks.isEmpty { wireChanges.removeAll() }
        // The command that made the router ended without taking it back: it stays.
        if let depth = routerMadeUnderMarks, openMarks.count < depth { routerMadeUnderMarks = nil }
    }

    /// Takes back what changed since `mark`, without sending anything: the values, causes and
    /// marks of every node, the wires made or replaced (a replaced wire comes back in its place
    /// among its source's receivers), the clock and its timers (those set since go, those fired
    /// since are pending again; but the timers of nodes made since go on, and those of nodes
    /// removed since stay gone), the navigation stack and the URLs routed. Nodes made or removed since, and the stores' histories, are the caller's to
    /// take back.
    public func rollBack(to mark: Mark) {
        engine.undo(to: mark.undo)
        if wireChanges.count > mark.wireChanges {
            for change in wireChanges[mark.wireChanges...].reversed() {
                if change.made.isLive { detach(change.made) }
                if let replaced = change.replaced { reattach(replaced) }
            }
            wireChanges.removeSubrange(mark.wireChanges...)
            rankAll()
        }
        defer {
            if stack != mark.stack {
                stack = mark.stack
                bindLivePresenters()
            }
            if routeHistory.count > mark.routeCount { routeHistory.removeSubrange(mark.routeCount...) }
        }
        if mark.saves < savesBeforeTicks.count {
            let saved = savesBeforeTicks[mark.saves]
            savesBeforeTicks.removeSubrange(mark.saves...)
            routeHistory = saved.routeHistory
            stack = saved.stack
            engine.transactionID = saved.transactionID
            engine.clock.putBack(saved.clock, isAlive: { engine.nodes[$0] != nil },
                                 isNewer: { (engine.nodes[$0]?.id ?? 0) > saved.lastNodeID })
        }
        engine.clock.removeTimers(setAfter: mark.timerSequence, keeping: { (engine.nodes[$0]?.id ?? 0) > mark.lastNodeID })
    }

    /// Notes a wire made (and the one it replaced, if any) while a mark is open.
    func noteWireChange(made: Wire, replaced: WireChange.Place?) {
        guard !openMarks.isEmpty else { return }
        wireChanges.append(WireChange(made: made, replaced: replaced))
    }

    /// Saves the clock before a tick, when this is the first tick since the latest open mark.
    func saveBeforeTick() {
        guard let latest = openMarks.last, savesBeforeTicks.count == latest else { return }
        savesBeforeTicks.append(SavedGraph(
            clock: engine.clock, lastNodeID: engine.nextNodeID, routeHistory: routeHistory, stack: stack,
            transactionID: engine.transactionID))
    }
}

/// A wire made while a mark was open, and the one it replaced, if any (a wire into an input
/// that accepts many wires replaces none, unless one came from the same source).
struct WireChange {
    /// A wire that was removed and where it was: among its source's receivers, among its
    /// input's wires, and its place in the tick order (a delay edge).
    struct Place {
        var wire: Wire
        var receiver: Int?
        var input: Int?
        var tick: TickHandler?
    }

    var made: Wire
    var replaced: Place?
}

/// The clock and the navigation as they were before a tick (see `Graph.mark()`).
struct SavedGraph {
    var clock: VirtualClock
    /// The newest node's id then: the timers of newer nodes are not in `clock`.
    var lastNodeID: Int
    var routeHistory: [Navigation]
    var stack: NavigationStack
    var transactionID: Int
}
