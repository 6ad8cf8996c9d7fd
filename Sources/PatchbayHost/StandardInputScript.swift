import Foundation
@_spi(Shell) import PatchbayShell

/// Runs standard input as a script named `<stdin>`, line by line as it arrives.
enum StandardInputScript {
    /// Stops after the command during which SIGINT arrived, or at SIGINT while waiting for input;
    /// a SIGINT outside a command is an error at the line that would have come next.
    /// - Returns: whether a command failed.
    static func run(shell: Shell, keepGoing: Bool, output: OutputWriter, interrupts: InterruptSignal) -> Bool {
        var runner = ScriptRunner(shell: shell, name: "<stdin>", keepGoing: keepGoing, write: output.write)
        runner.flushOutput = output.flush
        var splitter = LineSplitter()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        reading: while !runner.isStopped {
            output.flush()
            let count = buffer.withUnsafeMutableBytes { interrupts.read(STDIN_FILENO, into: $0) }
            if interrupts.wasReceived { break }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            for line in splitter.append(buffer[..<count]) {
                runner.feed(line)
                output.flush()
                if runner.isStopped || interrupts.wasReceived { break reading }
            }
        }
        if interrupts.wasReceived {
            // Between two lines (or while waiting for one) the script stops at the next line,
            // and says so, as a script file does; an interrupted command said so itself.
            runner.stopInterrupted(beforeLine: true)
            output.flush()
            return runner.failures > 0
        }
        if !runner.isStopped, let last = splitter.finish() { runner.feed(last) }
        runner.finish()
        output.flush()
        return runner.failures > 0
    }
}
