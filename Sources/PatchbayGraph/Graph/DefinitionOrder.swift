@_spi(Shell) import PatchbayCore

/// Orders the definitions of a script: each after those it must follow (a wire after both its
/// nodes, the receivers of a port in the order they were attached, nodes in creation order).
///
/// The constraints come from one real history of the graph, so an order always exists; should
/// they ever form a cycle, the items left are taken by index.
struct DefinitionOrder {
    private var successors: [[Int]]
    private var predecessorCounts: [Int]

    /// Items `0..<count`, as yet unconstrained.
    init(count: Int) {
        successors = Array(repeating: [], count: count)
        predecessorCounts = Array(repeating: 0, count: count)
    }

    /// Requires `earlier` to come before `later`.
    mutating func require(_ earlier: Int, before later: Int) {
        guard earlier != later else { return }
        successors[earlier].append(later)
        predecessorCounts[later] += 1
    }

    /// Every item once, each after the items required before it. Of the items that may come
    /// next, a preferred one (a connection, placed as soon as both its ends exist) goes first;
    /// ties go to the lower index.
    func sorted(preferring isPreferred: (Int) -> Bool) -> [Int] {
        var remaining = predecessorCounts
        // Both kept sorted from high to low, so that `popLast` takes the lowest index.
        var preferred: [Int] = []
        var others: [Int] = []
        func makeReady(_ item: Int) {
            if isPreferred(item) { Self.insert(item, into: &preferred) } else { Self.insert(item, into: &others) }
        }
        for item in remaining.indices where remaining[item] == 0 { makeReady(item) }
        var order: [Int] = []
        order.reserveCapacity(remaining.count)
        var placed = Array(repeating: false, count: remaining.count)
        while order.count < remaining.count {
            let next: Int
            if let item = preferred.popLast() ?? others.popLast() {
                next = item
            } else {
                // A cycle: take the lowest index not yet placed.
                next = placed.firstIndex(of: false)!
                remaining[next] = 0
            }
            guard !placed[next] else { continue }
            placed[next] = true
            order.append(next)
            for successor in successors[next] where !placed[successor] {
                remaining[successor] -= 1
                if remaining[successor] == 0 { makeReady(successor) }
            }
        }
        return order
    }

    /// Inserts `item` into `list`, which is sorted from high to low.
    private static func insert(_ item: Int, into list: inout [Int]) {
        var low = 0
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle] > item { low = middle + 1 } else { high = middle }
        }
        list.insert(item, at: low)
    }
}
