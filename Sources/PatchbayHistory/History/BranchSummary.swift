/// One timeline of a history, as `branch` lists it.
@_spi(Shell)
public struct BranchSummary: Sendable, Equatable {
    /// `main`, or `b1`, `b2`, ... in the order the branches were forked.
    public var name: String
    /// How many actions the branch has, those before its fork included.
    public var count: Int
    /// The branch it was forked from; `nil` for `main`.
    public var forkedFrom: String?
    /// The index of the state it was forked from; `nil` for `main`.
    public var forkIndex: Int?
    /// Whether it is the current branch.
    public var isCurrent: Bool

    /// A branch line.
    public init(name: String, count: Int, forkedFrom: String?, forkIndex: Int?, isCurrent: Bool) {
        self.name = name
        self.count = count
        self.forkedFrom = forkedFrom
        self.forkIndex = forkIndex
        self.isCurrent = isCurrent
    }
}
