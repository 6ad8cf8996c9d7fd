/// A subscriber's state: an `Int` cell behind a pointer, so adding to it is one load, one add
/// and one store, with no exclusivity check.
final class SumCell {
    let cell: UnsafeMutablePointer<Int>

    init() {
        cell = .allocate(capacity: 1)
        cell.initialize(to: 0)
    }

    deinit {
        cell.deallocate()
    }

    @inline(__always)
    func add(_ value: Int) {
        cell.pointee &+= value
    }

    var sum: Int { cell.pointee }

    static func total(_ cells: [SumCell]) -> Int {
        cells.reduce(0) { $0 &+ $1.sum }
    }
}
