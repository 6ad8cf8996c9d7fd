import PatchbayCore

/// A full state kept by a timeline, from which the states around it are replayed.
struct Checkpoint {
    var index: Int
    var state: Value

    /// The fewest steps between two checkpoints.
    static let minimumInterval = 32

    /// How many steps to leave before the next checkpoint after `state`: about as many as the
    /// state has leaves, so that a checkpoint costs a constant amount of memory per step
    /// whatever the state's size, and replaying to any state applies at most that many steps.
    static func interval(after state: Value) -> Int {
        max(minimumInterval, leafCount(of: state))
    }

    /// The scalars and empty containers in `value`, a long string counting as one per 32 bytes
    /// (what a leaf costs), so that a few large strings also space the checkpoints out.
    /// Iterative, so that depth does not matter.
    static func leafCount(of value: Value) -> Int {
        var leaves = 0
        var pending = [value]
        while let next = pending.popLast() {
            switch next {
            case .array(let elements) where !elements.isEmpty:
                pending.append(contentsOf: elements)
            case .object(let members) where !members.isEmpty:
                pending.append(contentsOf: members.values)
            case .string(let string):
                leaves += 1 + string.utf8.count / 32
            default:
                leaves += 1
            }
        }
        return leaves
    }
}
