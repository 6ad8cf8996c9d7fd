extension Engine {
    /// Where an undo scope began: which scope, and how long the undo log was then.
    struct UndoMark: Sendable, Equatable {
        let id: Int
        let start: Int
    }

    /// An open undo scope, and the generation nodes are saved under in it.
    struct UndoScope {
        var mark: UndoMark
        var generation: Int
    }

    /// A node saved: what puts it back, and the generation it was saved under before (which
    /// tells, when the scope closes, whether the enclosing scope had saved it already).
    struct UndoEntry {
        let node: NodeCore
        let previousGeneration: Int
        let restore: () -> Void
    }

    /// Opens an undo scope. Until it closes, every node is saved (`NodeCore.saved()`) just
    /// before it first changes in the scope, so that `undo(to:)` can put every node back as it
    /// was when the scope opened: a command that fails as a whole changes nothing. Scopes nest;
    /// closing the outermost drops what was saved. The cost is paid only while a scope is open:
    /// one save per node that changes.
    ///
    /// The invariant: a node whose `savedGeneration` is the innermost scope's generation has
    /// an entry in the log, made since that generation began (or kept for it when a scope inside
    /// it closed) and before the node's first change in it.
    func openUndoScope() -> UndoMark {
        lastUndoGeneration += 1
        let mark = UndoMark(id: lastUndoGeneration, start: undoLog.count)
        undoScopes.append(UndoScope(mark: mark, generation: mark.id))
        undoGeneration = mark.id
        return mark
    }

    /// Closes `mark`'s scope (and any opened after it that is still open). What was saved stays
    /// for the enclosing scope, if there is one, but for the saves of nodes the enclosing scope
    /// had saved already (its older save puts them back further): so a command that runs a
    /// hundred thousand inner commands on one store (an import) keeps one save of it, and
    /// taking it back costs as little as one inner command's.
    func closeUndoScope(_ mark: UndoMark) {
        guard let index = undoScopes.lastIndex(where: { $0.mark == mark }) else { return }
        undoScopes.removeSubrange(index...)
        if let enclosing = undoScopes.last {
            undoGeneration = enclosing.generation
            var kept = mark.start
            for position in mark.start..<undoLog.count {
                let entry = undoLog[position]
                // Saved in the enclosing scope from now on, by this save or by the older one.
                entry.node.savedGeneration = enclosing.generation
                guard entry.previousGeneration != enclosing.generation else { continue }
                undoLog[kept] = entry
                kept += 1
            }
            undoLog.removeSubrange(kept...)
        } else {
            undoGeneration = 0
            undoLog.removeAll(keepingCapacity: undoLog.count < 1024)
        }
    }

    /// Puts every node saved since `mark` back as it was then, newest save first, without
    /// sending anything; the scopes opened after it close. The scope stays open under a new
    /// generation: what changes from now on is saved again.
    func undo(to mark: UndoMark) {
        guard let index = undoScopes.lastIndex(where: { $0.mark == mark }) else { return }
        undoGeneration = 0  // restoring saves nothing
        for entry in undoLog[mark.start...].reversed() { entry.restore() }
        undoLog.removeSubrange(mark.start...)
        undoScopes.removeSubrange((index + 1)...)
        lastUndoGeneration += 1
        undoScopes[index].generation = lastUndoGeneration
        undoGeneration = lastUndoGeneration
    }

    func save(_ node: NodeCore) {
        let previous = node.savedGeneration
        node.savedGeneration = undoGeneration
        if let restore = node.saved() { undoLog.append(UndoEntry(node: node, previousGeneration: previous, restore: restore)) }
    }
}
