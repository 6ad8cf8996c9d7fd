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
        /// The navigation stack and how many URLs had been routed: a command that routes from
        /// the graph and then fails as a whole takes its navigation back too.
        fileprivate let stack: NavigationStack
        fileprivate let routeCount: Int
    }

    /// Marks where the graph stands now. Until the mark is released (`release(_:)`), the first
    /// `tick` after it saves the clock and the nodes the tick can reach before it fires anything
    /// (a cost in proportion to those nodes, paid only by a tick that has something to fire).
    /// Marks nest: each is released before the one made before it.
    public func mark() -> Mark {
        openMarks.append(savesBeforeTicks.count)
        return Mark(saves: savesBeforeTicks.count, stack: stack, routeCount: routeHistory.count)
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
    /// values, causes and marks of the nodes the first tick could reach, without sending
    /// anything.
    /// The navigation stack and the URLs routed go back to what they were at the mark.
    /// What else changed since the mark (nodes made, stores' histories) is the caller's to take
    /// back.
    public func rollBack(to mark: Mark) {
        defer {
            if stack != mark.stack {
                stack = mark.stack
                bindLivePresenters()
            }
            if routeHistory.count > mark.routeCount { routeHistory.removeSubrange(mark.routeCount...) }
        }
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
            clock: engine.clock, lastNodeID: engine.nextNodeID, nodes: nodesATickReaches().map { $0.saved() },
            routeHistory: routeHistory, stack: stack, transactionID: engine.transactionID))
    }

    /// The nodes a tick can change: the owners of the pending timers, the targets of the delay
    /// edges, and whatever they feed, over any edge (wires, a store's `dispatch` included,
    /// pipes, derived nodes, delay edges, bindings). Nodes made while the tick runs are not
    /// among them: they are not taken back.
    func nodesATickReaches() -> [GraphNode] {
        var seen: Set<ObjectIdentifier> = []
        var reached: [GraphNode] = []
        func visit(_ node: GraphNode) {
            if seen.insert(ObjectIdentifier(node)).inserted { reached.append(node) }
        }
        for timer in engine.clock.timers {
            if let owner = timer.owner, let node = engine.nodes[owner] as? GraphNode { visit(node) }
        }
        let delays = delayWires
        for wire in delays { visit(wire.target.graphNode) }
        var next = 0
        while next < reached.count {
            let node = reached[next]
            next += 1
            for output in node.outputs {
                for receiver in output.receivers {
                    switch receiver {
                    case let wire as Wire: visit(wire.target.graphNode)
                    case let pipe as KnotPipe: visit(pipe.knot)
                    case let trigger as DerivedNode.Trigger: visit(trigger.derived)
                    default: break
                    }
                }
            }
            for binding in bindings where binding.involves(node) {
                visit(binding.left)
                visit(binding.right)
            }
        }
        return reached
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
