@_spi(Shell) public import PatchbayCore

extension Graph {
    /// The timers pending, in the order they fire: what a recording that starts now holds, so
    /// that its replay fires them as this session will.
    public var pendingTimers: [PendingTimer] {
        engine.clock.inFiringOrder.compactMap { timer in
            guard let purpose = timer.purpose, let owner = timer.owner,
                  let node = engine.nodes[owner] as? GraphNode else { return nil }
            return PendingTimer(due: timer.due, node: node.name, purpose: purpose)
        }
    }

    /// What a recording that starts now could not carry into its replay, for `record` to
    /// refuse with what to do; `nil` when it can carry everything: an open transaction, a
    /// navigation stack (which no definition rebuilds), or an `after` timer whose reducer was
    /// removed or replaced since it was set (it runs the old body, which no definition makes).
    public var whatARecordingCannotCarry: String? {
        if engine.isInTransaction { return "a transaction is open: end it with 'commit' or 'abort' first" }
        if !stack.isEmpty {
            return "the navigation stack holds \(stack.entries.count) screen\(stack.entries.count == 1 ? "" : "s"), which a replay cannot "
                + "rebuild: close \(stack.entries.count == 1 ? "it" : "them") with 'back' first, or 'reset'"
        }
        for timer in engine.clock.inFiringOrder {
            guard case .reducer(let id, _, _)? = timer.purpose, let owner = timer.owner,
                  let store = engine.nodes[owner] as? StoreNode else { continue }
            if !store.reducers.contains(where: { $0 === timer.source }) {
                let now = store.reducers.contains { $0.id == id } ? "was replaced" : "was removed"
                return "a timer of \(store.name)'s reducer \(id) is pending at \(timer.due) ms, and \(id) \(now) since: a replay would "
                    + "not run what it runs; 'tick \(timer.due - engine.clock.now)' first"
            }
        }
        return nil
    }

    /// Makes `timers` (the `pendingTimers` of the session a recording started in, listed in
    /// the order they fire) the pending timers, in place of those pending now: a replay does it
    /// after the recording's opening made the nodes they belong to. Each is a store's `after`
    /// reducer, a `delay` patch's value, or a `timer` patch's next tick (whose count it sets
    /// too). Throws, and changes nothing, when a timer's node or reducer is not there.
    public func setPendingTimers(_ timers: [PendingTimer]) throws(GraphError) {
        var setters: [() -> Void] = []
        for timer in timers {
            let node = try node(timer.node)
            switch timer.purpose {
            case .reducer(let id, let action, let index):
                let store = try store(timer.node)
                guard let reducer = store.reducers.first(where: { $0.id == id && $0.delay != nil }) else {
                    throw .unknownReducer(id, existing: store.reducers.filter { $0.delay != nil }.map(\.id))
                }
                setters.append { self.scheduleDelayed(reducer, action: action, from: index, in: store, at: timer.due) }
            case .delay, .period:
                guard let patch = node as? PatchNode, patch.behavior.sets(timer.purpose) else {
                    let expected = if case .delay = timer.purpose { "a delay patch" } else { "a timer patch" }
                    throw .wrongKind(timer.node, kind: node.kind, expected: "the recording has a timer of \(expected) there")
                }
                setters.append { patch.behavior.setAgain(timer.purpose, at: timer.due, in: patch) }
            }
        }
        engine.clock.timers.removeAll()
        for set in setters { set() }
    }
}
