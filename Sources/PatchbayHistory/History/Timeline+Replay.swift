@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayRecorder

/// A step whose changes do not apply to the state before it: the history was given changes that
/// do not match its states.
struct StepFailure: Error {
    var index: Int
    var reason: String
}

extension Timeline {
    /// The state at `index`, replayed from whichever known state is fewest steps away: the
    /// checkpoint at or before it (forward), the checkpoint after it (backward), or `live`, the
    /// caller's state at `liveIndex` (either way).
    func state(at index: Int, live: Value?, liveIndex: Int) throws(StepFailure) -> Value {
        let next = checkpoints.firstIndex(after: index)
        let previous = checkpoints[next - 1]
        var start = (index: previous.index, state: previous.state)
        if next < checkpoints.count, checkpoints[next].index - index < index - start.index,
           canUndo(through: checkpoints[next].index) {
            start = (checkpoints[next].index, checkpoints[next].state)
        }
        if let live, abs(liveIndex - index) < abs(start.index - index), liveIndex <= index || canUndo(through: liveIndex) {
            start = (liveIndex, live)
        }
        var state = start.state
        if start.index <= index {
            try forward(&state, from: start.index, to: index)
        } else {
            try backward(&state, from: start.index, to: index)
        }
        return state
    }

    /// Whether every step up to `index` can be undone with its keys put back in place.
    func canUndo(through index: Int) -> Bool {
        firstUnresolved.map { index < $0 } ?? true
    }

    /// Turns state `start` into state `end` (`start <= end`) by applying the steps between.
    func forward(_ state: inout Value, from start: Int, to end: Int) throws(StepFailure) {
        guard start < end else { return }
        for index in start + 1...end {
            var changes = ChangeReader(step: steps.reader(at: index), values: .new)
            while changes.next() {
                do throws(PathError) {
                    // A replacement, the common case, is set in place from the reader's path.
                    if changes.operation == .replace {
                        try state.set(changes.new ?? .null, at: changes.path)
                    } else {
                        try state.apply(changes.change)
                    }
                } catch {
                    throw StepFailure(index: index, reason: error.description)
                }
            }
        }
    }

    /// Turns state `start` into state `end` (`start >= end`) by undoing the steps between, last
    /// change first.
    func backward(_ state: inout Value, from start: Int, to end: Int) throws(StepFailure) {
        var pending: [(change: ValueChange, position: Int?)] = []
        var index = start
        while index > end {
            var changes = ChangeReader(step: steps.reader(at: index), values: .old)
            do throws(PathError) {
                while changes.next() {
                    if changes.isLast, pending.isEmpty, changes.operation == .replace {
                        // A step of one replacement, the common case: set in place.
                        try state.set(changes.old ?? .null, at: changes.path)
                    } else {
                        pending.append((changes.change, changes.position))
                    }
                }
                while let (change, position) = pending.popLast() {
                    try state.undo(change, position: position)
                }
            } catch {
                throw StepFailure(index: index, reason: error.description)
            }
            index -= 1
        }
    }
}

extension [Checkpoint] {
    /// The position of the first checkpoint after state `index` (`count` when there is none).
    func firstIndex(after index: Int) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle].index <= index { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
