/// How large a history is, for `history stats`.
@_spi(Shell)
public struct HistoryStatistics: Sendable, Equatable {
    /// The actions of the current timeline.
    public var actions: Int
    /// The timelines, `main` included.
    public var branches: Int
    /// The full states the current timeline keeps, the initial state included.
    public var checkpoints: Int
    /// How many steps after its last checkpoint the current timeline keeps the next one.
    public var checkpointInterval: Int
    /// The bytes that the current timeline's steps (actions and changes) take in their compact
    /// form, without the checkpoints. Steps a branch shares with another are counted in both.
    public var stepBytes: Int

    /// Statistics with these figures.
    public init(actions: Int, branches: Int, checkpoints: Int, checkpointInterval: Int, stepBytes: Int) {
        self.actions = actions
        self.branches = branches
        self.checkpoints = checkpoints
        self.checkpointInterval = checkpointInterval
        self.stepBytes = stepBytes
    }
}
