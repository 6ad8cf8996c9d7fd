package import PatchbayCore

/// A full state kept by a timeline, from which the states around it are replayed; and the one
/// policy that spaces full states out, in a history and in a session file alike.
package struct Checkpoint {
    package var index: Int
    package var state: Value

    package init(index: Int, state: Value) {
        self.index = index
        self.state = state
    }

    /// The fewest steps between two checkpoints.
    static let minimumInterval = 32
    /// The most: a replay to any state applies at most this many steps.
    static let maximumInterval = 100_000

    /// How many steps to leave before the next checkpoint after `state`: about as many as the
    /// state has leaves, so that a checkpoint costs a constant amount of memory per step
    /// whatever the state's size, and replaying to any state applies at most that many steps.
    package static func interval(after state: Value) -> Int {
        max(minimumInterval, leafCount(of: state, limit: maximumInterval))
    }

    /// The scalars and empty containers in `value`, a long string counting as one per 32 bytes
    /// (what a leaf costs), so that a few large strings also space the checkpoints out.
    /// Iterative, so that depth does not matter; only containers wait on the stack, so that a
    /// flat state of many keys is counted without copying its values.
    static func leafCount(of value: Value, limit: Int = .max) -> Int {
        var leaves = 0
        var containers: [Value] = []
        count(value, leaves: &leaves, containers: &containers)
        while leaves < limit, let next = containers.popLast() {
            switch next {
            case .array(let elements):
                for element in elements { count(element, leaves: &leaves, containers: &containers) }
            case .object(let members):
                for member in members.values { count(member, leaves: &leaves, containers: &containers) }
            default:
                break
            }
        }
        return min(leaves, limit)
    }

    /// Counts `value` if it is a leaf, or puts it on `containers` to count its elements later.
    private static func count(_ value: Value, leaves: inout Int, containers: inout [Value]) {
        switch value {
        case .array(let elements) where !elements.isEmpty:
            containers.append(value)
        case .object(let members) where !members.isEmpty:
            containers.append(value)
        case .string(let string):
            leaves += 1 + string.utf8.count / 32
        default:
            leaves += 1
        }
    }
}
