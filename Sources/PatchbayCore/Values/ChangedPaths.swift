/// The paths where two values may differ, as a tree: those a run of changes touched (the steps of
/// a history between two states). Comparing the two values only there gives what comparing all
/// of them would, at a cost that grows with the changes instead of with the values.
package struct ChangedPaths: Sendable {
    /// Whether a change was made here or above: the whole value may differ.
    fileprivate var isWhole = false
    /// The changed paths below, by their first component.
    fileprivate var children: [ValueChange.PathComponent: ChangedPaths] = [:]

    package init() {}

    /// Notes a change at `path`.
    package mutating func insert(_ path: ArraySlice<ValueChange.PathComponent>) {
        guard !isWhole else { return }
        guard let first = path.first else {
            isWhole = true
            children = [:]
            return
        }
        children[first, default: ChangedPaths()].insert(path.dropFirst())
    }
}

extension Value {
    /// The changes `changes(to:)` gives, for an `other` that differs from this value at most at
    /// `paths`: objects are compared at the keys `paths` names alone (everywhere else the two
    /// hold the same values, which compare equal and give no change), so a state of 10,000 keys
    /// of which a step changed one costs one comparison, not 10,000. Arrays, and what `paths`
    /// marks as changed whole, are compared all through, as `changes(to:)` does.
    package func changes(to other: Value, within paths: ChangedPaths) -> [ValueChange] {
        var changes: [ValueChange] = []
        Self.diff(self, other, within: paths, path: [], into: &changes)
        return changes
    }

    private static func diff(_ old: Value, _ new: Value, within paths: ChangedPaths, path: [ValueChange.PathComponent],
                             into changes: inout [ValueChange]) {
        guard !paths.isWhole, case .object(let a) = old, case .object(let b) = new else {
            diff(old, new, path: path, into: &changes)
            return
        }
        var keys: [String] = []
        for component in paths.children.keys {
            guard case .key(let key) = component else {
                // An index into what is an object now: compared whole, as the paths do not say.
                diff(old, new, path: path, into: &changes)
                return
            }
            keys.append(key)
        }
        // As `changes(to:)`: a value that wraps the other is one replacement. Only a changed key
        // can hold it, as no value holds itself.
        if keys.contains(where: { key in b[key].map { isWhole(old, $0) } ?? false || a[key].map { isWhole(new, $0) } ?? false }) {
            changes.append(ValueChange(path: path, operation: .replace, old: old, new: new))
            return
        }
        // In the order `changes(to:)` reports them: the old keys in their order, then the new ones.
        let kept = keys.compactMap { key in a.index(forKey: key).map { (position: $0, key: key) } }.sorted { $0.position < $1.position }
        for (_, key) in kept {
            guard let oldValue = a[key], let within = paths.children[.key(key)] else { continue }
            if let newValue = b[key] {
                diff(oldValue, newValue, within: within, path: path + [.key(key)], into: &changes)
            } else {
                changes.append(ValueChange(path: path + [.key(key)], operation: .remove, old: oldValue, new: nil))
            }
        }
        let added = keys.filter { a[$0] == nil }.compactMap { key in b.index(forKey: key).map { (position: $0, key: key) } }
            .sorted { $0.position < $1.position }
        for (_, key) in added {
            guard let newValue = b[key] else { continue }
            changes.append(ValueChange(path: path + [.key(key)], operation: .add, old: nil, new: newValue))
        }
    }
}
