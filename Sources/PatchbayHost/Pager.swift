import Foundation
import PatchbayShell

/// Shows long output through the user's pager (`PAGER`, else `less -FRX`), at an interactive
/// terminal only: the shell says when output is long (`CommandOutcome.isLong`), this runs the
/// pager on it. `PAGER` set to an empty value, `--no-pager` and `set pager off` turn it off.
struct Pager {
    /// The command, run by `/bin/sh -c`.
    let command: String

    /// What `PAGER` asks for: `less -FRX` when it is not set (quit at once when the output fits,
    /// keep colours, leave the text on the screen); `nil` when it is set to nothing.
    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Pager? {
        guard let value = environment["PAGER"] else { return Pager(command: "less -FRX") }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : Pager(command: trimmed)
    }

    /// Pipes `lines` (standard output's) into the pager and waits for it; errors print after it.
    /// When the pager cannot run (not found, not executable), the lines print as they are,
    /// followed by an error saying so.
    func show(_ lines: [OutputLine], through output: OutputWriter) {
        output.flush()
        let text = lines.filter { $0.stream == .output }.map { $0.text + "\n" }.joined()
        let status = run(Array(text.utf8))
        if status == nil || status == 126 || status == 127 {
            lines.filter { $0.stream == .output }.forEach(output.write)
            let how = status.map { "exit status \($0)" } ?? "it could not start"
            output.write(OutputLine("error: the pager '\(command)' did not run (\(how)): set PAGER to one that does, "
                                    + "or turn paging off with 'set pager off'", to: .error))
        }
        lines.filter { $0.stream == .error }.forEach(output.write)
        output.flush()
    }

    /// Runs the pager on `bytes`; its exit status, or `nil` when it did not start.
    private func run(_ bytes: [UInt8]) -> Int32? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let pipe = Pipe()
        process.standardInput = pipe
        // A pager quit before the end (q in less) closes the pipe: the write fails, nothing dies.
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        // Its end is awaited through the termination handler: `waitUntilExit()` spins a run loop
        // that has been seen not to return on some Linux hosts.
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        do { try process.run() } catch { return nil }
        let descriptor = pipe.fileHandleForWriting.fileDescriptor
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    break
                }
                offset += written
            }
        }
        try? pipe.fileHandleForWriting.close()
        ended.wait()
        return process.terminationStatus
    }
}
