#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The monotonic clock, in nanoseconds from an arbitrary origin.
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Keeps a value alive as far as the optimiser can tell, so the code computing it is not removed.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Returns its argument through a call the optimiser does not look into, so that a closure
/// passed through it is called indirectly and a constant passed through it is not folded.
@inline(never)
func opaque<T>(_ value: T) -> T {
    value
}

/// Times one trial of `workload`: prepares it (untimed), runs the hot loop between two clock
/// readings and checks the checksum. Returns nanoseconds per operation, or the trial's own
/// `measurement` when it has one.
func measure(_ workload: Workload) throws -> Double {
    let trial = try workload.prepare()
    let start = monotonicNanoseconds()
    let checksum = try trial.run()
    let end = monotonicNanoseconds()
    blackHole(checksum)
    guard checksum == trial.expectedChecksum else {
        throw CorrectnessFailure(description: "checksum \(checksum), expected \(trial.expectedChecksum)")
    }
    if let measurement = trial.measurement { return measurement() }
    return Double(end - start) / Double(workload.operations)
}
