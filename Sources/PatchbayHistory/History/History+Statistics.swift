extension History {
    /// The size of the history: actions, checkpoints and the bytes its steps take.
    public var statistics: HistoryStatistics {
        let timeline = timelines[selected]
        return HistoryStatistics(actions: timeline.count, branches: timelines.count, checkpoints: timeline.checkpoints.count,
                                 checkpointInterval: timeline.interval, stepBytes: timeline.steps.byteCount)
    }
}
