extension Graph {
    /// Where a graph stands, so that what a `tick` changes after it can be taken back: a command
    /// that Ctrl-C stopped leaves the clock, its timers and every node as they were before it.
    ///
    /// The store histories have marks of their own (in the recorder); together they make the
    /// one way the shell takes a command back.
    public struct Mark: Sendable {
        /// How many saves were kept when the mark was made: the next one is the graph as it was
        /// before the first tick after the mark.
        fileprivate let saves: Int
    }

    /// Marks where the graph stands now. Until the mark is released (`release(_:)`), the first
    /// `tick` after it saves the clock and every node before it fires anything (a cost in
    /// proportion to the nodes, paid only by a tick that has something to fire). Marks nest: each
    /// is released before the one made before it.
    public func mark() -> Mark {
        openMarks.append(savesBeforeTicks.count)
        return Mark(saves: savesBeforeTicks.count)
    }

    /// Ends `mark` (and any mark made after it that is still open), dropping what was saved for
    /// it alone: a command's saves live as long as the command, or as the enclosing command
    /// that needs the same one.
    public func release(_ mark: Mark) {
        guard let index = openMarks.lastIndex(of: mark.saves) else { return }
        openMarks.removeSubrange(index...)
        let kept = openMarks.last.map { $0 + 1 } ?? 0
        if savesBeforeTicks.count > kept { savesBeforeTicks.removeSubrange(kept...) }
    }

    /// Takes back what the ticks since `mark` changed: the clock and its timers (but those of
    /// nodes made since, which go on, and of nodes removed since, which stay gone), and the
    /// values, causes and marks of every node that existed before, without sending anything.
    /// What else changed since the mark (nodes made, stores' histories) is the caller's to take
    /// back. Does nothing when no tick ran since.
    public func rollBack(to mark: Mark) {
        guard mark.saves < savesBeforeTicks.count else { return }
        let saved = savesBeforeTicks[mark.saves]
        savesBeforeTicks.removeSubrange(mark.saves...)
        for restore in saved.nodes { restore() }
        routeHistory = saved.routeHistory
        stack = saved.stack
        engine.transactionID = saved.transactionID
        engine.clock.putBack(saved.clock, isAlive: { engine.nodes[$0] != nil },
                             isNewer: { (engine.nodes[$0]?.id ?? 0) > saved.lastNodeID })
    }

    /// Saves the graph before a tick, when this is the first tick since the latest open mark.
    func saveBeforeTick() {
        guard let latest = openMarks.last, savesBeforeTicks.count == latest else { return }
        savesBeforeTicks.append(SavedGraph(
            clock: engine.clock, lastNodeID: nodes.values.map(\.id).max() ?? 0, nodes: nodes.values.map { $0.saved() },
            routeHistory: routeHistory, stack: stack, transactionID: engine.transactionID))
    }
}

/// The graph as it was before a tick (see `Graph.mark()`).
struct SavedGraph {
    var clock: VirtualClock
    /// The newest node's id then: the timers of newer nodes are not in `clock`.
    var lastNodeID: Int
    /// Each node's `saved()`.
    var nodes: [() -> Void]
    var routeHistory: [Navigation]
    var stack: NavigationStack
    var transactionID: Int
}
