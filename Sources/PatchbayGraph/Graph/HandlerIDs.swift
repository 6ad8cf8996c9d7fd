/// The ids of a graph's reducers (or of its middleware) with the store each belongs to: whether
/// an id is taken, whose it is, and the lowest free one, each found in constant time (amortised)
/// however many there are, so that making N of them costs in proportion to N.
struct HandlerIDs {
    /// `r` for reducers, `m` for middleware.
    let prefix: String
    private var owners: [String: StoreNode] = [:]
    /// Every number below this one is taken (the lowest free one is this or above).
    private var lowestFree = 1

    init(prefix: String) {
        self.prefix = prefix
    }

    /// The store that has the handler `id`.
    func owner(of id: String) -> StoreNode? { owners[id] }

    /// Whether a handler has the id `id`.
    func contains(_ id: String) -> Bool { owners[id] != nil }

    /// The lowest free id: `r1`, `r2`, ...
    mutating func lowestFreeID() -> String {
        while owners[prefix + "\(lowestFree)"] != nil { lowestFree += 1 }
        return prefix + "\(lowestFree)"
    }

    mutating func insert(_ id: String, of store: StoreNode) {
        owners[id] = store
    }

    mutating func remove(_ id: String) {
        owners[id] = nil
        if let number = Int(id.dropFirst(prefix.count)), number < lowestFree { lowestFree = Swift.max(1, number) }
    }
}
