@_spi(Shell) import PatchbayCore

/// The nodes waiting for evaluation in a wave, served lowest rank first and, within a rank, in
/// creation order. A binary heap.
struct RankQueue {
    private var heap: [NodeCore] = []

    var isEmpty: Bool { heap.isEmpty }

    mutating func insert(_ node: NodeCore) {
        heap.append(node)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popFirst() -> NodeCore? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let first = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, Self.precedes(heap[left], heap[smallest]) { smallest = left }
            if right < heap.count, Self.precedes(heap[right], heap[smallest]) { smallest = right }
            guard smallest != parent else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }

    private static func precedes(_ a: NodeCore, _ b: NodeCore) -> Bool {
        a.rank != b.rank ? a.rank < b.rank : a.id < b.id
    }
}
