@_spi(Shell) package import PatchbayCore
@_spi(Shell) package import PatchbayRecorder

extension History {
    /// The events that rebuild this history, read in order by `Inspection`: the store with the
    /// initial state, each timeline's actions in the order the timelines were made (a branch by
    /// a jump to its fork, then its own actions), the skipped actions, and last the current
    /// branch and state. A recording that starts while the store exists begins with them.
    ///
    /// `live` is the store's state (the state at `current`); it ends the events as a checkpoint.
    /// `hosted` marks the store line of an app's store the shell hosts.
    package func snapshot(of name: String, live: Value, hosted: Bool = false) -> [SessionEvent] {
        snapshot(of: name, live: live, hosted: hosted) { () throws(Never) in }
    }

    /// `snapshot(of:live:hosted:)`, calling `check` every 1024 actions: what it throws (Ctrl-C)
    /// stops it.
    package func snapshot<Failure: Error>(of name: String, live: Value, hosted: Bool = false,
                                          checking check: () throws(Failure) -> Void) throws(Failure) -> [SessionEvent] {
        var events: [SessionEvent] = [.store(name: name, state: initial, hosted: hosted)]
        var built: [String] = []
        for timeline in timelines {
            let start = timeline.forkIndex ?? 0
            if let parent = timeline.forkedFrom {
                if built.last != parent { events.append(.checkout(store: name, branch: parent)) }
                events.append(.jump(store: name, index: start))
            }
            var skipped: [Int] = []
            if start < timeline.count {
                for index in start + 1...timeline.count {
                    if index % 1_024 == 0 { try check() }
                    let step = timeline.steps.record(at: index).step(store: name)
                    if step.skipped { skipped.append(index) }
                    events.append(.action(step.patchForm, hash: nil))
                }
            }
            // A skipped action changed nothing: marking it skipped recomputes nothing.
            events += skipped.map { SessionEvent.skip(store: name, index: $0, skipped: true, recomputed: []) }
            // The steps a branch shares with its parent came with the parent's flags as they are
            // now; those skipped or taken back on one side since the fork are set again here.
            if let parent = timelines.first(where: { $0.name == timeline.forkedFrom }), start > 0 {
                for index in 1...start {
                    let isSkipped = timeline.steps.flags(at: index).contains(.skipped)
                    guard isSkipped != parent.steps.flags(at: index).contains(.skipped) else { continue }
                    events.append(.skip(store: name, index: index, skipped: isSkipped, recomputed: []))
                }
            }
            built.append(timeline.name)
        }
        if built.last != branch { events.append(.checkout(store: name, branch: branch)) }
        if current != count { events.append(.jump(store: name, index: current)) }
        events.append(.checkpoint(store: name, index: current, state: live))
        return events
    }
}
