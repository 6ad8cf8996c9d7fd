@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayRecorder

/// One line of actions from the initial state: `main`, or a branch forked from another timeline.
///
/// It keeps every step's changes in a `StepLog` and full states only at checkpoints; any other
/// state is replayed from a nearby one (see `Timeline+Replay`).
package struct Timeline {
    var name: String
    var forkedFrom: String?
    var forkIndex: Int?
    var steps = StepLog()
    /// In index order; the first is state 0.
    var checkpoints: [Checkpoint]
    /// How many steps after the last checkpoint the next one comes.
    var interval: Int
    /// The first step that removes an object key whose position is not known yet: undoing it
    /// would put the key last, so replays do not go backward through it. Such steps come after
    /// the last checkpoint; making the next checkpoint finds their positions.
    var firstUnresolved: Int?

    init(name: String, initial: Value) {
        self.name = name
        checkpoints = [Checkpoint(index: 0, state: initial)]
        interval = Checkpoint.interval(after: initial)
    }

    var count: Int { steps.count }

    /// Appends the next step, whose state is `state`; keeps that state when a checkpoint is due.
    mutating func append(_ record: StepRecord, after state: Value) {
        append(after: state) { record.write(to: &$0) }
    }

    /// Appends the next step, whose record `write` writes (see `StepLog.append`), and whose state
    /// is `state`; keeps that state when a checkpoint is due.
    /// Always inlined into `History.record` (see there).
    @inline(__always)
    mutating func append(after state: Value, _ write: (inout ByteWriter) -> Bool) {
        let unresolved = steps.append(write)
        let index = steps.count
        if unresolved, firstUnresolved == nil { firstUnresolved = index }
        if index - checkpoints[checkpoints.count - 1].index >= interval {
            resolvePositions(through: index)
            checkpoints.append(Checkpoint(index: index, state: state))
            interval = Checkpoint.interval(after: state)
        }
    }

    /// Keeps the steps up to `count` and the checkpoints among them.
    mutating func truncate(to count: Int) {
        steps.truncate(to: count)
        while let last = checkpoints.last, last.index > count { checkpoints.removeLast() }
        if let first = firstUnresolved, first > count { firstUnresolved = nil }
    }

    /// A new timeline sharing this one's steps up to `index`.
    func forked(at index: Int, name: String) -> Timeline {
        var branch = self
        branch.name = name
        branch.forkedFrom = self.name
        branch.forkIndex = index
        branch.truncate(to: index)
        return branch
    }

    /// Finds the positions of the keys removed since the last checkpoint, by replaying the steps
    /// from it through `end` and reading each position before its removal. A step whose changes
    /// do not apply (the recorder's caller is at fault) stops the search; its later steps then
    /// stay unresolved, which only costs replays their backward direction.
    private mutating func resolvePositions(through end: Int) {
        guard firstUnresolved != nil, let start = checkpoints.last, start.index < end else { return }
        var state = start.state
        for index in start.index + 1...end {
            var found: [(position: Int, slot: Int)] = []
            var applies = true
            do {
                var changes = ChangeReader(step: steps.reader(at: index), values: .new)
                while applies, changes.next() {
                    if let slot = changes.slot, changes.position == nil, let current = state.keyPosition(at: changes.path) {
                        found.append((current, slot))
                    }
                    do { try state.apply(changes.change) } catch { applies = false }
                }
            }
            // The reader is gone, so that filling in the slots does not copy the chunk.
            for (position, slot) in found { steps.setPosition(position, slot: slot, at: index) }
            guard applies else { return }
        }
        firstUnresolved = nil
    }
}
