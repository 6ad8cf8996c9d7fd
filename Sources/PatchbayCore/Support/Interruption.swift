import Synchronization

/// A way to stop a running command from outside: Ctrl-C in the shell.
///
/// The executable's SIGINT handler calls `request()`, which only increments an atomic counter
/// and so is safe in a signal handler. The command runs inside `during(_:)`, which makes the
/// interruption `current` for its task; long loops call `Interruption.check()` and stop with
/// `InterruptionError` once a request came. Requests count from the start of `during(_:)`: a
/// Ctrl-C between two commands interrupts neither.
///
/// ```swift
/// let interruption = Interruption()
/// try interruption.during {
///     for step in steps {
///         try Interruption.check()
///         run(step)
///     }
/// }
/// ```
///
/// A loop that checks very often can read `Interruption.current` once and call
/// `throwIfRequested()` on it, one relaxed atomic load per call.
package final class Interruption: Sendable {
    /// Requests made since the interruption was created; a counter rather than a flag, so that
    /// a request made while one is being answered is not lost.
    private let requests = Atomic<Int>(0)
    /// The value of `requests` when the running command started.
    private let answered = Atomic<Int>(0)

    package init() {}

    /// The interruption of the command running on this task, if it can be interrupted.
    @TaskLocal package static var current: Interruption?

    /// Asks the running command to stop. Async-signal-safe: an atomic increment and nothing else.
    package func request() {
        requests.wrappingAdd(1, ordering: .relaxed)
    }

    /// Whether `request()` was called since the running command started (or, outside
    /// `during(_:)`, since the last `forgetRequests()`).
    package var isRequested: Bool {
        requests.load(ordering: .relaxed) != answered.load(ordering: .relaxed)
    }

    /// Forgets the requests made so far.
    package func forgetRequests() {
        answered.store(requests.load(ordering: .relaxed), ordering: .relaxed)
    }

    /// Throws `InterruptionError` when a request came since the running command started.
    package func throwIfRequested() throws(InterruptionError) {
        if isRequested { throw InterruptionError() }
    }

    /// Runs `body` as one command that `request()` interrupts: earlier requests are forgotten,
    /// and the interruption is `current` while `body` runs.
    package func during<Result>(_ body: () throws -> Result) rethrows -> Result {
        forgetRequests()
        return try Self.$current.withValue(self, operation: body)
    }

    /// Throws `InterruptionError` when the running command was asked to stop; does nothing
    /// outside `during(_:)`.
    package static func check() throws(InterruptionError) {
        try current?.throwIfRequested()
    }
}

/// A command stopped by `Interruption`.
package struct InterruptionError: Error, Sendable, Equatable, CustomStringConvertible {
    package init() {}

    /// `interrupted; nothing changed`: a command that stops this way must leave the state as
    /// it was before it started.
    package var description: String { "interrupted; nothing changed" }
}
