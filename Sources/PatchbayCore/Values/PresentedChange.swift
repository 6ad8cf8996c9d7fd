/// A difference between two values as people read it: the changes of an RFC 6902 patch
/// (`Value.changes(to:)`, which matches array elements by position), except in arrays whose
/// elements are objects that each have an identity (an `id` field, say): there the elements are
/// matched by that identity, so an element removed, inserted or moved is one change, not a
/// change at every position after it.
///
/// It is for showing only: the patches that are recorded and applied stay positional.
package enum PresentedChange: Sendable, Equatable {
    /// A change as a patch has it; in an array matched by identity, an element's change is at
    /// its new index, an insertion at its new index and a removal at its old one.
    case change(ValueChange)
    /// An element of the array at `array` that kept its identity (`key`: `id`) but changed
    /// place, from index `from` to index `to`, besides what was inserted and removed.
    case move(array: [ValueChange.PathComponent], from: Int, to: Int, key: String, id: Value)

    /// Where the change is: a move's new place.
    package var path: [ValueChange.PathComponent] {
        switch self {
        case .change(let change): change.path
        case .move(let array, _, let to, _, _): array + [.index(to)]
        }
    }

    /// `path` as expressions write it (`items[2].qty`).
    package var pathText: String { ValueChange.pathText(path) }
}

extension Value {
    /// `changes`, the positional changes from this value to `new` (as `changes(to:)` gives
    /// them), presented with the elements of arrays of objects matched by the member `key` (see
    /// `PresentedChange`). An array is matched by identity when every element on both sides is an
    /// object whose `key` is a scalar, no two on one side with the same, and the positional
    /// changes in it are more than insertions or removals alone (those read the same either way);
    /// any other change is shown as it is, in its place. With no `key`, the changes as they are.
    package func presented(_ changes: [ValueChange], to new: Value, identity key: String?) -> [PresentedChange] {
        presented(changes, to: new, identity: key, shortcut: true)
    }

    /// `presented(_:to:identity:)`; with `shortcut` off, every array with a change inside an
    /// element is matched by identity without first asking whether that can read differently
    /// (`mayPresentByIdentity(_:key:)`): the reference the tests hold the shortcut to.
    package func presented(_ changes: [ValueChange], to new: Value, identity key: String?, shortcut: Bool) -> [PresentedChange] {
        guard let key, changes.contains(where: { Self.mayNeedIdentity($0, key: shortcut ? key : nil) }) else {
            return changes.map(PresentedChange.change)
        }
        var presented: [PresentedChange] = []
        var matched: Set<[ValueChange.PathComponent]> = []
        var checked: [[ValueChange.PathComponent]: Bool] = [:]
        for change in changes {
            guard let array = identityArray(of: change, in: new, key: key, among: changes, shortcut: shortcut, checked: &checked) else {
                presented.append(.change(change))
                continue
            }
            guard matched.insert(array).inserted,
                  case .array(let old)? = value(at: array), case .array(let current)? = new.value(at: array) else { continue }
            presented += Self.matching(old, current, at: array, key: key, shortcut: shortcut)
        }
        return presented
    }

    /// Whether any of `changes` may read differently with array elements matched by the member
    /// `key`: when none does, the presentation is the changes as they are, and needs no state
    /// (so that showing one changed item of 100,000 costs that item, not two states).
    ///
    /// Matched by identity, an array's elements read differently from matched by position only
    /// when some index holds another element after the step than before. Every element keeps
    /// its index when no change replaces an element whole or touches an element's `key` (its
    /// identity): an element inserted, removed or moved shifts those after it, and since the
    /// identities in an array matched by identity are distinct, each shifted position then
    /// shows its `key` changed (or the element replaced), which this catches. Insertions or
    /// removals alone read the same either way.
    package static func mayPresentByIdentity(_ changes: [ValueChange], key: String) -> Bool {
        changes.contains { mayNeedIdentity($0, key: key) }
    }

    /// Whether `change` replaces an element whole or touches an element's `key`; without a
    /// `key`, whether it replaces an element or changes anything inside one.
    private static func mayNeedIdentity(_ change: ValueChange, key: String?) -> Bool {
        let path = change.path
        for (depth, component) in path.enumerated() {
            guard case .index = component else { continue }
            if depth == path.count - 1 {
                if change.operation == .replace { return true }
            } else if key == nil {
                return true
            } else if case .key(let member) = path[depth + 1], member == key {
                return true
            }
        }
        return false
    }

    /// The shallowest array on `change`'s path that is matched by identity, if one is.
    private func identityArray(of change: ValueChange, in new: Value, key: String, among changes: [ValueChange], shortcut: Bool,
                               checked: inout [[ValueChange.PathComponent]: Bool]) -> [ValueChange.PathComponent]? {
        for (depth, component) in change.path.enumerated() {
            guard case .index = component else { continue }
            let array = Array(change.path[..<depth])
            if let known = checked[array] {
                if known { return array }
                continue
            }
            let matches = Self.needsIdentity(changes, under: array, key: shortcut ? key : nil)
                && Self.identities(of: value(at: array), key: key) != nil && Self.identities(of: new.value(at: array), key: key) != nil
            checked[array] = matches
            if matches { return array }
        }
        return nil
    }

    /// Whether some element of the array at `array` may hold another index after `changes` than
    /// before (see `mayPresentByIdentity(_:key:)`): one replaced whole or its `key` changed;
    /// without a `key`, whether the changes are more than insertions alone or removals alone.
    private static func needsIdentity(_ changes: [ValueChange], under array: [ValueChange.PathComponent], key: String?) -> Bool {
        let depth = array.count
        return changes.contains { change in
            let path = change.path
            guard path.count > depth, path.starts(with: array) else { return false }
            if path.count == depth + 1 { return change.operation == .replace }
            guard let key else { return true }
            if case .key(let member) = path[depth + 1] { return member == key }
            return false
        }
    }

    /// The identities of an array's elements by index, when it is one whose elements are all
    /// objects with a scalar `key`, each its own; `nil` otherwise.
    private static func identities(of value: Value?, key: String) -> [String]? {
        guard case .array(let elements)? = value else { return nil }
        var seen = Set<String>()
        var identities: [String] = []
        identities.reserveCapacity(elements.count)
        for element in elements {
            guard case .object(let members) = element, let id = members[key], let identity = identity(id),
                  seen.insert(identity).inserted else { return nil }
            identities.append(identity)
        }
        return identities
    }

    /// A scalar's identity, its kind with its text (`1` is not `"1"`); `nil` for others.
    private static func identity(_ value: Value) -> String? {
        switch value {
        case .string(let text): "s" + text
        case .int(let number): "i\(number)"
        case .decimal(let number): "d\(number)"
        case .bool(let flag): flag ? "t" : "f"
        default: nil
        }
    }

    /// The elements of `old` and `new` (the array at `path`, matched by the member `key`): the
    /// changes inside the elements kept (at their new index), then the insertions, the removals
    /// (last first, as a patch removes them), and the moves of the elements whose order among
    /// those kept changed, fewest possible.
    private static func matching(_ old: [Value], _ new: [Value], at path: [ValueChange.PathComponent], key: String,
                                 shortcut: Bool) -> [PresentedChange] {
        let oldIdentities = identities(of: .array(old), key: key) ?? []
        let newIdentities = identities(of: .array(new), key: key) ?? []
        let oldPlaces = Dictionary(uniqueKeysWithValues: oldIdentities.enumerated().map { ($1, $0) })
        let newPlaces = Set(newIdentities)
        var inside: [PresentedChange] = []
        var insertions: [PresentedChange] = []
        var kept: [(old: Int, new: Int)] = []
        for (index, element) in new.enumerated() {
            let place = path + [.index(index)]
            guard let was = oldPlaces[newIdentities[index]] else {
                insertions.append(.change(ValueChange(path: place, operation: .add, old: nil, new: element)))
                continue
            }
            kept.append((was, index))
            let before = old[was]
            inside += before.presented(before.changes(to: element), to: element, identity: key, shortcut: shortcut).map { $0.rebased(under: place) }
        }
        let removals = old.indices.reversed().filter { !newPlaces.contains(oldIdentities[$0]) }.map { index in
            PresentedChange.change(ValueChange(path: path + [.index(index)], operation: .remove, old: old[index], new: nil))
        }
        let staying = Self.longestIncreasing(kept.map(\.old))
        let moves = kept.indices.filter { !staying.contains($0) }.map { position in
            let (from, to) = kept[position]
            let id: Value = if case .object(let members) = new[to], let id = members[key] { id } else { .null }
            return PresentedChange.move(array: path, from: from, to: to, key: key, id: id)
        }
        return inside + insertions + removals + moves
    }

    /// The positions of a longest increasing subsequence of `values` (distinct numbers), the one
    /// that keeps the most values at the rank they had: the elements not in it are those moved.
    package static func longestIncreasing(_ values: [Int]) -> Set<Int> {
        let count = values.count
        guard count > 1 else { return Set(values.indices) }
        var rank = [Int](repeating: 0, count: count)
        for (order, position) in values.indices.sorted(by: { values[$0] < values[$1] }).enumerated() { rank[position] = order }
        // A Fenwick tree over ranks of the best chain ending below each rank: its length first,
        // then how many of its values stay at their rank.
        var tree = [(score: Int, end: Int)](repeating: (0, -1), count: count + 1)
        var previous = [Int](repeating: -1, count: count)
        var scores = [Int](repeating: 0, count: count)
        for position in 0..<count {
            var best = (score: 0, end: -1)
            var node = rank[position]
            while node > 0 {
                if tree[node].score > best.score { best = tree[node] }
                node -= node & -node
            }
            let score = best.score + (count + 1) + (rank[position] == position ? 1 : 0)
            scores[position] = score
            previous[position] = best.end
            node = rank[position] + 1
            while node <= count {
                if score > tree[node].score { tree[node] = (score, position) }
                node += node & -node
            }
        }
        var chain = Set<Int>()
        var position = scores.indices.max { scores[$0] < scores[$1] } ?? -1
        while position >= 0 {
            chain.insert(position)
            position = previous[position]
        }
        return chain
    }
}

extension PresentedChange {
    /// The change with `prefix` before its path.
    func rebased(under prefix: [ValueChange.PathComponent]) -> PresentedChange {
        switch self {
        case .change(var change):
            change.path = prefix + change.path
            return .change(change)
        case .move(let array, let from, let to, let key, let id):
            return .move(array: prefix + array, from: from, to: to, key: key, id: id)
        }
    }
}

/// A path whose array indexes stand, where the array's elements have identities (see
/// `Value.presented(_:to:identity:)`), for the elements at those indexes in one state: in other
/// states it leads to the same elements wherever they are, as `blame` follows them.
@_spi(Shell)
public struct IdentityPath: Sendable {
    /// A step of the path: a key, an index, or the element whose `key` is `id`.
    public enum Step: Sendable, Equatable {
        case key(String)
        case index(Int)
        case element(key: String, id: Value)
    }

    /// The steps, from the root.
    public let steps: [Step]
    /// The path up to the first element followed by identity: only a change at it, inside it
    /// or above it can change the value at this path.
    public let watched: [ValueChange.PathComponent]

    /// `path` with the elements it leads to in `state` followed by their member `key`; `nil`
    /// when no array on the way has elements with identities (the path is positional).
    public init?(_ path: [ValueChange.PathComponent], in state: Value, identity key: String) {
        var steps: [Step] = []
        var watched: [ValueChange.PathComponent]?
        var current: Value? = state
        for (depth, component) in path.enumerated() {
            switch component {
            case .key(let name):
                steps.append(.key(name))
            case .index(let index):
                if case .array(let elements)? = current, elements.indices.contains(index),
                   IdentityPath.identifies(elements, key: key), case .object(let members) = elements[index], let id = members[key] {
                    steps.append(.element(key: key, id: id))
                    if watched == nil { watched = Array(path[..<depth]) }
                } else {
                    steps.append(.index(index))
                }
            }
            current = current?.value(at: [component])
        }
        guard let watched else { return nil }
        self.steps = steps
        self.watched = watched
    }

    /// Whether every element is an object with a scalar `key`, each its own.
    private static func identifies(_ elements: [Value], key: String) -> Bool {
        var seen = Set<String>()
        return elements.allSatisfy { element in
            guard case .object(let members) = element, let id = members[key] else { return false }
            let text: String
            switch id {
            case .string(let string): text = "s" + string
            case .int(let number): text = "i\(number)"
            case .decimal(let number): text = "d\(number)"
            case .bool(let flag): text = flag ? "t" : "f"
            default: return false
            }
            return seen.insert(text).inserted
        }
    }

    /// The value this path leads to in `state`; `nil` where it leads nowhere (an element that
    /// is not there).
    public func value(in state: Value) -> Value? {
        var current = state
        for step in steps {
            switch step {
            case .key(let name):
                guard let next = current.value(at: [.key(name)]) else { return nil }
                current = next
            case .index(let index):
                guard let next = current.value(at: [.index(index)]) else { return nil }
                current = next
            case .element(let key, let id):
                guard case .array(let elements) = current, let next = elements.first(where: { element in
                    if case .object(let members) = element, let member = members[key] { return Value.isIdentical(member, id) }
                    return false
                }) else { return nil }
                current = next
            }
        }
        return current
    }
}
