import Foundation
@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

/// The interruption SIGINT requests: a process-wide constant, because a signal handler is a C
/// function that can reach nothing else. Its state is atomic; see `Interruption`.
private let signalInterruption = Interruption()

/// What SIGINT (Ctrl-C, or `kill -INT`) does while the executable runs: it requests the
/// interruption of the running command and nothing else, so the process goes on and can end
/// cleanly. The command stops at its next check (`Interruption.check()`, which evaluations,
/// ticks, replays and inspections call often) with "interrupted; nothing changed".
///
/// - Interactive, the shell stays: the interrupted command fails and the prompt comes back.
///   While libedit edits a line, ^C is an ordinary key that abandons the line (the terminal is
///   in `-isig` mode), and no signal is involved. Without libedit (a `dumb` terminal), SIGINT
///   interrupts the blocking read (the handler is installed without `SA_RESTART`), which the
///   plain reader reports as an abandoned line.
/// - In scripts, the run ends after the interrupted command, the recording closed, with exit
///   status 130 (128 + SIGINT), as a shell's would. A SIGINT that lands once a command ended
///   stops a file at its next line, which the error names (`ScriptRunner.stopInterrupted`).
final class InterruptSignal {
    private var previous = sigaction()

    /// The interruption the handler requests; bind it with `during(_:)` around the commands.
    var interruption: Interruption { signalInterruption }

    /// Installs the handler.
    init() {
        signalInterruption.forgetRequests()
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in signalInterruption.request() }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, &previous)
    }

    /// Whether SIGINT arrived since the last call (or since the command started); forgets it.
    @discardableResult
    func clear() -> Bool {
        defer { signalInterruption.forgetRequests() }
        return signalInterruption.isRequested
    }

    /// Whether SIGINT arrived since the last `clear()`.
    var wasReceived: Bool { signalInterruption.isRequested }

    /// Reads from `descriptor` as `read(2)` does, except that a SIGINT that arrived before the
    /// call, or arrives while it waits, ends it with -1 and `errno` `EINTR`. The wait polls (every
    /// 50 ms): a signal that lands between a check of the flag and a blocking `read` would not
    /// interrupt that read, and the process would wait for input it may never get.
    func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            if wasReceived {
                errno = EINTR
                return -1
            }
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, 50)
            if polled > 0 || (polled < 0 && errno != EINTR) {
                return Foundation.read(descriptor, buffer.baseAddress, buffer.count)
            }
        }
    }

    /// Puts back the SIGINT action from before.
    func restore() {
        sigaction(SIGINT, &previous, nil)
    }
}
