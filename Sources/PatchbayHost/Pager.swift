import Foundation
@_spi(Shell) import PatchbayShell

/// Shows long output through the user's pager (`PAGER`, else `less -FRX`), at an interactive
/// terminal only: the shell says when output is long (`CommandOutcome.isLong`), this runs the
/// pager on it. `PAGER` set to an empty value, `--no-pager` and `set pager off` turn it off.
///
/// The pager gets the terminal as a job-control shell gives it to a job (see `PagerProcess`),
/// so that it can read keys and set the terminal's modes. Whenever it does not end as a pager
/// should (it fails to start, exits with a status other than 0, is stopped or killed), the
/// output is printed in full after it, with an error saying what happened: nothing is lost.
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
    func show(_ lines: [OutputLine], through output: OutputWriter) {
        output.flush()
        let shown = lines.filter { $0.stream == .output }
        let text = shown.map { $0.text + "\n" }.joined()
        let end = PagerProcess.run(command, input: Array(text.utf8))
        if let failure = end.failure {
            shown.forEach(output.write)
            let error = OutputLine("error: the pager '\(command)' \(failure), so the output is printed in full: "
                                   + "set PAGER to one that works, or turn paging off with 'set pager off'", to: .error)
            (isatty(STDERR_FILENO) != 0 ? error.wrapped(toWidth: Terminal.width) : [error]).forEach(output.write)
        }
        lines.filter { $0.stream == .error }.forEach(output.write)
        output.flush()
    }
}

/// How a pager ended.
enum PagerEnd: Equatable {
    /// It exited with status 0, or the user's Ctrl-C (SIGINT) ended it: it showed what the user
    /// wanted to see.
    case quit
    /// It could not be started.
    case notStarted
    /// It exited with another status.
    case exited(Int32)
    /// A signal other than SIGINT ended it.
    case killed(Int32)
    /// It was stopped (Ctrl-Z, or by the terminal); it was then ended.
    case stopped(Int32)

    /// What went wrong, said after "the pager 'X'"; `nil` when nothing did.
    var failure: String? {
        switch self {
        case .quit: nil
        case .notStarted: "did not run (it could not start)"
        case .exited(let status) where status == 126 || status == 127: "did not run (exit status \(status))"
        case .exited(let status): "failed (exit status \(status))"
        case .killed(let signal): "was ended by \(Self.name(of: signal))"
        case .stopped(let signal): "was stopped (\(Self.name(of: signal))) and ended"
        }
    }

    /// `SIGTSTP` for the signals a pager is likely to meet, else `signal N`.
    static func name(of signal: Int32) -> String {
        let names = [SIGTSTP: "SIGTSTP", SIGSTOP: "SIGSTOP", SIGTTIN: "SIGTTIN", SIGTTOU: "SIGTTOU", SIGKILL: "SIGKILL",
                     SIGTERM: "SIGTERM", SIGHUP: "SIGHUP", SIGQUIT: "SIGQUIT", SIGABRT: "SIGABRT", SIGSEGV: "SIGSEGV",
                     SIGBUS: "SIGBUS", SIGPIPE: "SIGPIPE"]
        return names[signal] ?? "signal \(signal)"
    }

    /// The end a wait status (from `waitpid`) tells of an ended process.
    init(waitStatus status: Int32) {
        let signal = status & 0x7f
        if signal == 0 {
            let code = (status >> 8) & 0xff
            self = code == 0 ? .quit : .exited(code)
        } else {
            self = signal == SIGINT ? .quit : .killed(signal)
        }
    }
}

/// The pager as a job of its own: `/bin/sh -c COMMAND` in a new process group, given the
/// controlling terminal (made the terminal's foreground group with `tcsetpgrp`) while it runs,
/// and the terminal given back to the shell's group after it, with the terminal's modes as they
/// were before it (a pager that dies leaves them raw). SIGTTOU is ignored while the shell, in
/// the background then, takes the terminal back.
///
/// The child makes itself the foreground group before it runs the pager where the C library
/// can (glibc's `posix_spawn_file_actions_addtcsetpgrp_np`); the parent does it too, as shells
/// do, and a pager stopped by the terminal (SIGTTIN, SIGTTOU) before that is continued once.
/// Any other stop (Ctrl-Z) ends the pager.
enum PagerProcess {
    static func run(_ command: String, input: [UInt8]) -> PagerEnd {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return .notStarted }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        let terminal = ForegroundTerminal()
        let previousTTOU = signal(SIGTTOU, SIG_IGN)
        let previousPipe = signal(SIGPIPE, SIG_IGN)
        defer {
            terminal?.takeBack()
            signal(SIGTTOU, previousTTOU)
            signal(SIGPIPE, previousPipe)
        }

        let spawned = spawn(command, stdin: readEnd, terminal: terminal?.descriptor)
        close(readEnd)
        guard let pid = spawned else {
            close(writeEnd)
            return .notStarted
        }
        setpgid(pid, pid)
        terminal?.give(to: pid)

        // The input is written from another thread: a stopped pager does not read it, and a
        // full pipe would otherwise block the wait that sees it stopped.
        let written = DispatchSemaphore(value: 0)
        let writer = Thread {
            writeAll(input, to: writeEnd)
            close(writeEnd)
            written.signal()
        }
        writer.start()

        var end = PagerEnd.notStarted
        var continued = false
        var stopSignal: Int32?
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WUNTRACED)
            if result < 0 {
                if errno == EINTR { continue }
                break
            }
            if status & 0xff == 0x7f {
                let signal = (status >> 8) & 0xff
                if (signal == SIGTTIN || signal == SIGTTOU) && !continued && terminal != nil && stopSignal == nil {
                    continued = true
                    terminal?.give(to: pid)
                    kill(-pid, SIGCONT)
                } else {
                    stopSignal = stopSignal ?? signal
                    kill(-pid, SIGKILL)
                    kill(-pid, SIGCONT)
                }
                continue
            }
            end = stopSignal.map(PagerEnd.stopped) ?? PagerEnd(waitStatus: status)
            break
        }
        // Once the pager is gone nothing reads the pipe and the writer ends with EPIPE, unless
        // what the pager left of its group still holds the pipe: that is ended.
        if written.wait(timeout: .now() + .seconds(1)) == .timedOut {
            kill(-pid, SIGKILL)
            written.wait()
        }
        return end
    }

    /// Runs `/bin/sh -c COMMAND NAME ARGUMENTS...` as a job of its own that reads the terminal
    /// itself (an editor): it is given the terminal while it runs, and continued when the
    /// terminal or Ctrl-Z stops it (the shell waits for it, as for a foreground job that cannot
    /// be put in the background). Returns how it ended.
    static func runAtTerminal(_ command: String, arguments: [String]) -> PagerEnd {
        let terminal = ForegroundTerminal()
        let previousTTOU = signal(SIGTTOU, SIG_IGN)
        defer {
            terminal?.takeBack()
            signal(SIGTTOU, previousTTOU)
        }
        guard let pid = spawn(command, stdin: nil, terminal: terminal?.descriptor, arguments: arguments) else { return .notStarted }
        setpgid(pid, pid)
        terminal?.give(to: pid)
        while true {
            var status: Int32 = 0
            if waitpid(pid, &status, WUNTRACED) < 0 {
                if errno == EINTR { continue }
                return .notStarted
            }
            if status & 0xff == 0x7f {
                terminal?.give(to: pid)
                kill(-pid, SIGCONT)
                continue
            }
            return PagerEnd(waitStatus: status)
        }
    }

    /// Starts `/bin/sh -c COMMAND` (with `arguments` as `$0`, `$1`...) in a process group of
    /// its own with `stdin` as its standard input (the shell's when `nil`) and the signals the
    /// shell changes back to their defaults; its pid, or `nil`.
    private static func spawn(_ command: String, stdin: Int32?, terminal: Int32?, arguments extra: [String] = []) -> pid_t? {
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        if let stdin { posix_spawn_file_actions_adddup2(&actions, stdin, STDIN_FILENO) }
        if let terminal, let setForeground = addTerminalForeground {
            _ = setForeground(&actions, terminal)
        }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU, SIGCHLD, SIGXFSZ, SIGWINCH, SIGTERM, SIGHUP] {
            sigaddset(&defaults, signal)
        }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let copy: (String) -> UnsafeMutablePointer<CChar>? = { strdup($0) }
        let arguments = (["/bin/sh", "-c", command] + extra).map(copy) + [nil]
        let environment = ProcessInfo.processInfo.environment.map { copy("\($0.key)=\($0.value)") } + [nil]
        defer { (arguments + environment).forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments, environment)
        return status == 0 ? pid : nil
    }

    #if canImport(Glibc)
    private typealias AddTerminalForeground = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    #else
    private typealias AddTerminalForeground = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t?>, Int32) -> Int32
    #endif

    /// glibc's `posix_spawn_file_actions_addtcsetpgrp_np` (2.35 and later), where it exists.
    private static let addTerminalForeground: AddTerminalForeground? = {
        #if os(Linux)
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addtcsetpgrp_np") else { return nil }
        return unsafeBitCast(symbol, to: AddTerminalForeground.self)
        #else
        return nil
        #endif
    }()

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
