@_spi(Shell) import PatchbayCore

/// Where two states that started out equal may have come to differ, as two lists of steps are
/// applied to them (the steps before and after a `skip`), so that comparing the states costs
/// what differs rather than the whole state.
///
/// Outside the paths noted, the two states are equal: a change reaches only what is under its
/// path, and an array insertion or removal, which moves the later elements, is noted at the
/// array.
struct Divergence {
    private var paths: [[ValueChange.PathComponent]] = []

    /// Notes one step, whose changes were `first` on the first state and `second` on the other.
    mutating func note(first: [ValueChange], second: [ValueChange]) {
        if first == second {
            // The same changes keep equal parts equal; only moves can bring a difference noted
            // at one path to another.
            guard !paths.isEmpty else { return }
            for change in first where Self.moves(change) { add(Array(change.path.dropLast())) }
        } else {
            for change in first + second { add(Self.moves(change) ? Array(change.path.dropLast()) : change.path) }
        }
    }

    /// Whether the two states are equal (`==`) now; forgets the paths where they agree.
    mutating func agree(_ first: Value, _ second: Value) -> Bool {
        paths.removeAll { first.value(at: $0) == second.value(at: $0) }
        return paths.isEmpty
    }

    private mutating func add(_ path: [ValueChange.PathComponent]) {
        guard !paths.contains(where: { path.starts(with: $0) }) else { return }
        paths.removeAll { $0.starts(with: path) }
        paths.append(path)
    }

    /// Whether the change inserts or removes an array element.
    private static func moves(_ change: ValueChange) -> Bool {
        guard change.operation != .replace, case .index? = change.path.last else { return false }
        return true
    }
}
