@_spi(Shell) public import PatchbayCore

extension History {
    /// The branches, in creation order: `main` first.
    public var branches: [BranchSummary] {
        timelines.enumerated().map { position, timeline in
            BranchSummary(name: timeline.name, count: timeline.count, forkedFrom: timeline.forkedFrom,
                          forkIndex: timeline.forkIndex, isCurrent: position == selected)
        }
    }

    /// The state branch `name` is at, without switching to it: for the current branch its
    /// current step (the caller's `live` state), for another its last state, where `checkout`
    /// would go. An unknown name throws `.unknownBranch` with the existing names.
    public func state(ofBranch name: String, current live: Value) throws(HistoryError) -> Value {
        guard let position = timelines.firstIndex(where: { $0.name == name }) else {
            throw .unknownBranch(store: store, name: name, branches: timelines.map(\.name))
        }
        if position == selected { return live }
        let timeline = timelines[position]
        do throws(StepFailure) {
            return try timeline.state(at: timeline.count, live: Value?.none, liveIndex: current)
        } catch {
            throw inconsistency(error)
        }
    }

    /// The action types of the current timeline, each once.
    public var actionTypes: Set<String> {
        let steps = timelines[selected].steps
        guard steps.count > 0 else { return [] }
        var types: Set<String> = []
        for index in 1...steps.count {
            if case .string(let type)? = steps.record(at: index).step.action["type"] { types.insert(type) }
        }
        return types
    }

    /// Makes branch `name` current, at its last state (`current` becomes its count), and returns
    /// that state. `current` is the caller's live state, as for `state(at:current:)`. An unknown
    /// name throws `.unknownBranch` with the existing names.
    public func checkout(_ name: String, current live: Value) throws(HistoryError) -> Value {
        guard let position = timelines.firstIndex(where: { $0.name == name }) else {
            throw .unknownBranch(store: store, name: name, branches: timelines.map(\.name))
        }
        let timeline = timelines[position]
        let state: Value
        do throws(StepFailure) {
            // The live state belongs to the current branch only. (A bare `nil` would be `Value.null`.)
            let start: Value? = position == selected ? live : Value?.none
            state = try timeline.state(at: timeline.count, live: start, liveIndex: current)
        } catch {
            throw inconsistency(error)
        }
        selected = position
        current = timeline.count
        return state
    }
}
