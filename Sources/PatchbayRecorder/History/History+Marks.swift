package import PatchbayCore

extension History {
    /// Where a history stands, so that the actions recorded after it can be taken back (a
    /// command that failed as a whole, like a dispatch loop that never settles).
    package struct Mark {
        package let timelineCount: Int
        let selected: Int
        package let count: Int
        package let current: Int
        let forks: Int
        package let rewrites: Int
    }

    /// Where the history stands now.
    package func mark() -> Mark {
        Mark(timelineCount: timelines.count, selected: selected, count: count, current: current, forks: forks, rewrites: rewrites)
    }

    /// Takes back what was recorded since `mark`: the actions appended and the branches they
    /// forked, and returns the state at the mark. Returns `nil`, changing nothing, when the
    /// history was rewritten since (a skip, a sweep, a commit or revert): only appends can be
    /// taken back.
    package func rollBack(to mark: Mark) -> Value? {
        guard rewrites == mark.rewrites, timelines.count >= mark.timelineCount,
              timelines[mark.selected].count >= mark.count,
              // From the mark's own timeline: the live state belongs to the current one.
              let state = try? timelines[mark.selected].state(at: mark.current, live: nil, liveIndex: current) else { return nil }
        timelines.removeLast(timelines.count - mark.timelineCount)
        selected = mark.selected
        timelines[selected].truncate(to: mark.count)
        current = mark.current
        forks = mark.forks
        return state
    }
}
