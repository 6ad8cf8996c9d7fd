extension History {
    /// Where a history stands, so that the actions recorded after it can be taken back (a
    /// command that failed as a whole, like a dispatch loop that never settles).
    struct Mark {
        let timelineCount: Int
        let selected: Int
        let count: Int
        let current: Int
        let forks: Int
        let rewrites: Int
    }

    /// Where the history stands now.
    func mark() -> Mark {
        Mark(timelineCount: timelines.count, selected: selected, count: count, current: current, forks: forks, rewrites: rewrites)
    }

    /// Takes back what was recorded since `mark`: the actions appended and the branches they
    /// forked. Returns `false`, changing nothing, when the history was rewritten since (a skip,
    /// a sweep, a commit or revert): only appends can be taken back.
    func rollBack(to mark: Mark) -> Bool {
        guard rewrites == mark.rewrites, timelines.count >= mark.timelineCount,
              timelines[mark.selected].count >= mark.count else { return false }
        timelines.removeLast(timelines.count - mark.timelineCount)
        selected = mark.selected
        timelines[selected].truncate(to: mark.count)
        current = mark.current
        forks = mark.forks
        return true
    }
}
