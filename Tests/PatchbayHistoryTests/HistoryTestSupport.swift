@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory
import PatchbayTestSupport

/// Whether two values are equal down to the order of their keys and the kind of their numbers:
/// their printed forms are the same.
func exactly(_ a: Value, _ b: Value) -> Bool {
    a.description == b.description && a == b
}

/// Makes random states and random changes to them, each change applied as a reducer would, so
/// that the changes turn each state into the next exactly (key order included).
struct StateMutator {
    var random: SplitMix64
    private var keys = 0

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// A random object with about `size` members, some of them nested objects and arrays.
    mutating func state(size: Int) -> Value {
        var members: [(ObjectKey, Value)] = []
        for _ in 0..<size { members.append((ObjectKey(freshKey()), value(depth: 2))) }
        return .object(Value.Members(members, uniquingKeysWith: { first, _ in first }))
    }

    /// Applies one to three random changes to `state` and returns them in order.
    mutating func mutate(_ state: inout Value) -> [ValueChange] {
        var changes: [ValueChange] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let change = randomChange(in: state)
            try! state.apply(change)
            changes.append(change)
        }
        return changes
    }

    /// A path to a random container of `state` (the root included).
    mutating func containerPath(in state: Value) -> [ValueChange.PathComponent] {
        var paths: [[ValueChange.PathComponent]] = []
        Self.collectContainers(state, path: [], into: &paths)
        return paths[Int.random(in: 0..<paths.count, using: &random)]
    }

    /// A path to a random value of `state`, the root excluded, or a path to nothing.
    mutating func anyPath(in state: Value) -> [ValueChange.PathComponent] {
        var paths: [[ValueChange.PathComponent]] = []
        Self.collectAll(state, path: [], into: &paths)
        paths.append([.key("never-there")])
        return paths[Int.random(in: 0..<paths.count, using: &random)]
    }

    private mutating func randomChange(in state: Value) -> ValueChange {
        let path = containerPath(in: state)
        let roll = Int.random(in: 0..<100, using: &random)
        switch state.value(at: path) {
        case .object(let members)?:
            if roll < 30 || members.isEmpty {
                return ValueChange(path: path + [.key(freshKey())], operation: .add, old: nil, new: value(depth: 1))
            }
            let key = members.keys[Int.random(in: 0..<members.count, using: &random)].string
            if roll < 55 {
                return ValueChange(path: path + [.key(key)], operation: .remove, old: members[key], new: nil)
            }
            return ValueChange(path: path + [.key(key)], operation: .replace, old: members[key], new: value(depth: 1))
        case .array(let elements)?:
            if roll < 30 || elements.isEmpty {
                let position = Int.random(in: 0...elements.count, using: &random)
                return ValueChange(path: path + [.index(position)], operation: .add, old: nil, new: value(depth: 1))
            }
            let position = Int.random(in: 0..<elements.count, using: &random)
            if roll < 55 {
                return ValueChange(path: path + [.index(position)], operation: .remove, old: elements[position], new: nil)
            }
            return ValueChange(path: path + [.index(position)], operation: .replace, old: elements[position], new: value(depth: 1))
        default:
            preconditionFailure("containerPath gives containers")
        }
    }

    private mutating func value(depth: Int) -> Value {
        switch Int.random(in: 0..<(depth > 0 ? 10 : 7), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2, 3: return .int(Int.random(in: -1000...1000, using: &random))
        case 4: return .decimal(Double(Int.random(in: -100...100, using: &random)) / 4)
        case 5, 6: return .string("s\(Int.random(in: 0..<50, using: &random))")
        case 7, 8:
            let count = Int.random(in: 0...3, using: &random)
            var members: [(ObjectKey, Value)] = []
            for _ in 0..<count { members.append((ObjectKey(freshKey()), value(depth: depth - 1))) }
            return .object(Value.Members(members, uniquingKeysWith: { first, _ in first }))
        default:
            return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in value(depth: depth - 1) })
        }
    }

    private mutating func freshKey() -> String {
        keys += 1
        return "k\(keys)"
    }

    private static func collectContainers(_ value: Value, path: [ValueChange.PathComponent], into paths: inout [[ValueChange.PathComponent]]) {
        switch value {
        case .object(let members):
            paths.append(path)
            for (key, member) in members { collectContainers(member, path: path + [.key(key.string)], into: &paths) }
        case .array(let elements):
            paths.append(path)
            for (index, element) in elements.enumerated() { collectContainers(element, path: path + [.index(index)], into: &paths) }
        default:
            break
        }
    }

    private static func collectAll(_ value: Value, path: [ValueChange.PathComponent], into paths: inout [[ValueChange.PathComponent]]) {
        if !path.isEmpty { paths.append(path) }
        switch value {
        case .object(let members):
            for (key, member) in members { collectAll(member, path: path + [.key(key.string)], into: &paths) }
        case .array(let elements):
            for (index, element) in elements.enumerated() { collectAll(element, path: path + [.index(index)], into: &paths) }
        default:
            break
        }
    }
}

/// The naive history the real one is checked against: every state of every branch kept whole.
struct NaiveHistory {
    struct Branch {
        var name: String
        var states: [Value]
        var entries: [StoreStep<ValueChange>]
    }

    var branches: [Branch]
    var selected = 0
    var current = 0
    private var forks = 0

    init(initial: Value) {
        branches = [Branch(name: "main", states: [initial], entries: [])]
    }

    var states: [Value] { branches[selected].states }
    var entries: [StoreStep<ValueChange>] { branches[selected].entries }
    var count: Int { branches[selected].entries.count }
    var live: Value { states[current] }

    /// Records like `History.record`; returns the name of the branch forked, if any.
    mutating func record(_ entry: StoreStep<ValueChange>, after state: Value) -> String? {
        var forked: String?
        if current < count {
            forks += 1
            var branch = branches[selected]
            branch.name = "b\(forks)"
            branch.states.removeSubrange((current + 1)...)
            branch.entries.removeSubrange(current...)
            branches.append(branch)
            selected = branches.count - 1
            forked = branch.name
        }
        branches[selected].states.append(state)
        branches[selected].entries.append(entry)
        current += 1
        return forked
    }
}

/// The test store of the skip tests: `{counters: {...}, items: [...]}` and five actions.
enum CounterReducer {
    static let initial: Value = ["counters": ["a": 0], "items": []]

    /// A random action: `Add` a number to a counter (creating it), `Drop` a counter, `Push` an
    /// item, `Pop` the last one, `Double` every counter. `Drop` of a missing counter and `Pop` of
    /// an empty list fail.
    static func action(_ random: inout SplitMix64) -> Value {
        let key = "c\(Int.random(in: 0..<6, using: &random))"
        switch Int.random(in: 0..<10, using: &random) {
        case 0...3: return ["type": "Add", "key": .string(key), "by": .int(Int.random(in: 1...9, using: &random))]
        case 4: return ["type": "Drop", "key": .string(key)]
        case 5, 6: return ["type": "Push", "value": .int(Int.random(in: 0...99, using: &random))]
        case 7, 8: return ["type": "Pop"]
        default: return ["type": "Double"]
        }
    }

    /// Runs `entry`'s action on `state`; on failure leaves it unchanged.
    static func reduce(_ state: inout Value, _ entry: StoreStep<ValueChange>) -> Reduction {
        guard case .object(let counters)? = state["counters"], case .array(let items)? = state["items"] else {
            return Reduction(changes: [], failure: "bad state")
        }
        var changes: [ValueChange] = []
        switch entry.type {
        case "Add":
            guard case .string(let key)? = entry.action["key"], case .int(let by)? = entry.action["by"] else { break }
            if case .int(let old)? = counters[key] {
                changes.append(ValueChange(path: [.key("counters"), .key(key)], operation: .replace, old: .int(old), new: .int(old + by)))
            } else {
                changes.append(ValueChange(path: [.key("counters"), .key(key)], operation: .add, old: nil, new: .int(by)))
            }
        case "Drop":
            guard case .string(let key)? = entry.action["key"] else { break }
            guard let old = counters[key] else { return Reduction(changes: [], failure: "no counter \(key)") }
            changes.append(ValueChange(path: [.key("counters"), .key(key)], operation: .remove, old: old, new: nil))
        case "Push":
            changes.append(ValueChange(path: [.key("items"), .index(items.count)], operation: .add, old: nil, new: entry.action["value"]))
        case "Pop":
            guard let last = items.last else { return Reduction(changes: [], failure: "nothing to pop") }
            changes.append(ValueChange(path: [.key("items"), .index(items.count - 1)], operation: .remove, old: last, new: nil))
        case "Double":
            for (key, value) in counters {
                guard case .int(let number) = value, number != 0 else { continue }
                changes.append(ValueChange(path: [.key("counters"), .key(key.string)], operation: .replace, old: value, new: .int(number * 2)))
            }
        default:
            return Reduction(changes: [], failure: "unknown action")
        }
        for change in changes { try! state.apply(change) }
        return Reduction(changes: changes)
    }

    /// The states of a list of actions, each skipped or not, with the entries as the store
    /// records them: the naive oracle of `setSkipped` and `sweep`.
    /// The states and steps of `actions`, as a history of `store` shows them.
    static func replay(_ actions: [(action: Value, skipped: Bool)], store: String = "the store")
        -> (states: [Value], entries: [StoreStep<ValueChange>]) {
        var state = initial
        var states = [state]
        var entries: [StoreStep<ValueChange>] = []
        for (offset, item) in actions.enumerated() {
            var entry = StoreStep<ValueChange>(store: store, index: offset + 1, action: item.action, changes: [], skipped: item.skipped)
            if !item.skipped {
                let reduction = reduce(&state, entry)
                entry.changes = reduction.changes
                entry.failure = reduction.failure
            }
            states.append(state)
            entries.append(entry)
        }
        return (states, entries)
    }
}
