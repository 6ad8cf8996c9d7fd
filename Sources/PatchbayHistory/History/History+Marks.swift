@_spi(Shell) package import PatchbayCore

extension History {
    /// Where a history stands, so that what was recorded after it can be taken back (a command
    /// that failed as a whole, like a dispatch loop that never settles, or that Ctrl-C stopped).
    package struct Mark {
        let selected: Int
        /// The number of steps of each timeline: a command may append to several (a checkout
        /// between two dispatches).
        let counts: [Int]
        let current: Int
        let forks: Int
        package let rewrites: Int
        /// The history as it was before the first rewrite made while the mark was held.
        let undo: RewriteUndo
    }

    /// What a history was before a rewrite (a skip, a recomputation, a sweep, a commit or a
    /// revert), kept while a mark is held: marks taken while another is held share it, and it
    /// goes when the last of them does. Holding it costs little, since the timelines share
    /// their storage with the history's until the rewrite changes them.
    final class RewriteUndo {
        var before: Snapshot?
    }

    struct Snapshot {
        let timelines: [Timeline]
        let initial: Value
        let selected: Int
        let current: Int
        let forks: Int
        let rewrites: Int
    }

    /// Where the history stands now.
    package func mark() -> Mark {
        let undo = openUndo ?? RewriteUndo()
        openUndo = undo
        return Mark(selected: selected, counts: timelines.map(\.count), current: current, forks: forks, rewrites: rewrites, undo: undo)
    }

    /// Whether the history is where it was at `mark`.
    package func isUnchanged(since mark: Mark) -> Bool {
        rewrites == mark.rewrites && selected == mark.selected && current == mark.current
            && timelines.count == mark.counts.count && zip(timelines, mark.counts).allSatisfy { $0.count == $1 }
    }

    /// Called before each rewrite: while a mark is held, the first rewrite keeps the history as
    /// it was, so that rolling back to the mark takes the rewrite back too.
    func willRewrite() {
        if let undo = openUndo, undo.before == nil {
            undo.before = Snapshot(timelines: timelines, initial: initial, selected: selected, current: current, forks: forks,
                                   rewrites: rewrites)
        }
        rewrites += 1
    }

    /// Takes back what was recorded since `mark` (the actions appended and the branches they
    /// forked, and a rewrite made since, when it was the first one made while the mark was
    /// held) and returns the state at the mark. Returns `nil`, changing nothing, when that
    /// cannot be done: a rewrite an earlier mark's command made since.
    package func rollBack(to mark: Mark) -> Value? {
        var source = (timelines: timelines, initial: initial, current: current, rewrites: rewrites)
        if rewrites != mark.rewrites {
            guard let before = mark.undo.before, before.rewrites == mark.rewrites else { return nil }
            source = (before.timelines, before.initial, before.current, before.rewrites)
        }
        guard source.timelines.count >= mark.counts.count,
              zip(source.timelines, mark.counts).allSatisfy({ $0.count >= $1 }),
              // From the mark's own timeline: the live state belongs to the current one.
              let state = try? source.timelines[mark.selected].state(at: mark.current, live: nil, liveIndex: source.current)
        else { return nil }
        (timelines, initial, rewrites) = (source.timelines, source.initial, source.rewrites)
        timelines.removeLast(timelines.count - mark.counts.count)
        for (position, count) in mark.counts.enumerated() where timelines[position].count > count {
            timelines[position].truncate(to: count)
        }
        selected = mark.selected
        current = mark.current
        forks = mark.forks
        return state
    }
}
