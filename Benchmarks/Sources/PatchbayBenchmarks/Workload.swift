/// Code whose hot loop is timed: one side of a benchmark row.
struct Workload {
    /// The operations one trial performs; a trial's time per operation is its time divided by this.
    var operations: Int
    /// Builds a trial's inputs, untimed; called afresh for every trial.
    var prepare: () throws -> Trial
}

/// A prepared trial: the hot loop, the only code that is timed, and the checksum it must return.
struct Trial {
    /// What `run` must return; anything else is a correctness failure.
    var expectedChecksum: Int
    /// Performs the workload's operations and returns a checksum of their results, so that
    /// neither the work nor its results can be optimised away.
    var run: () throws -> Int
    /// For a row that measures something other than the time of `run` per operation (bytes per
    /// step, the median of single operations timed one by one): that figure, read after `run`.
    var measurement: (() -> Double)? = nil
}

/// A benchmark computed a wrong result: the run fails whatever the mode.
struct CorrectnessFailure: Error, CustomStringConvertible {
    var description: String
}
