@_spi(Shell) public import PatchbayCore

extension History {
    /// Every action of the current timeline after which the value at `path` is not the same as
    /// before: one that changed `path`, something inside it or a container of it, or inserted or
    /// removed an array element before it (which moves another element there). In index order,
    /// with the values at `path` before and after (`nil` where absent); empty when the value
    /// never changed.
    ///
    /// With `identity`, the path is followed by the identities of the elements it leads to (see
    /// `IdentityPath`): an action that only moves the element, or inserts or removes others
    /// before it, did not change it.
    public func blame(_ path: [ValueChange.PathComponent], identity: IdentityPath? = nil) -> [Blame] {
        blame(path, identity: identity, checking: { (_, _) throws(Never) in })
    }

    /// `blame(_:identity:)`, calling `check` every 1024 actions with how many it has read of
    /// how many, so that a long history can show its progress and be stopped (Ctrl-C) by a
    /// `check` that throws; what it throws ends the blame.
    public func blame<E: Error>(_ path: [ValueChange.PathComponent], identity: IdentityPath? = nil,
                                checking check: (_ done: Int, _ total: Int) throws(E) -> Void) throws(E) -> [Blame] {
        let steps = timelines[selected].steps
        guard steps.count > 0 else { return [] }
        var state = initial
        var lines: [Blame] = []
        var changes: [ValueChange] = []
        for index in 1...steps.count {
            if index % 1024 == 0 { try check(index, steps.count) }
            changes.removeAll(keepingCapacity: true)
            var reader = ChangeReader(step: steps.reader(at: index), values: .new)
            while reader.next() { changes.append(reader.change) }
            let reached = if let identity {
                changes.contains { $0.path.starts(with: identity.watched) || identity.watched.starts(with: $0.path) }
            } else {
                changes.contains { Self.change($0, reaches: path) }
            }
            guard reached else {
                for change in changes { try? state.apply(change) }
                continue
            }
            let old = identity.map { $0.value(in: state) } ?? state.value(at: path)
            for change in changes { try? state.apply(change) }
            let new = identity.map { $0.value(in: state) } ?? state.value(at: path)
            if !Value.same(old, new) {
                lines.append(Blame(index: index, action: steps.record(at: index).step.action, old: old, new: new))
            }
        }
        return lines
    }

    /// Whether `change` can alter the value at `path`: it is at the path, inside it or above it,
    /// or it inserts or removes an element of an array on the way at or before the path's index.
    static func change(_ change: ValueChange, reaches path: [ValueChange.PathComponent]) -> Bool {
        for (depth, (changed, wanted)) in zip(change.path, path).enumerated() where changed != wanted {
            guard depth == change.path.count - 1, change.operation != .replace,
                  case .index(let changedIndex) = changed, case .index(let wantedIndex) = wanted else { return false }
            return changedIndex <= wantedIndex
        }
        return true
    }
}
