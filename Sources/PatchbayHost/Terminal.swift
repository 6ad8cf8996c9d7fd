import Foundation

/// Process-wide set-up and facts about the terminal.
enum Terminal {
    /// Resets what the parent process may have left behind: a blocked SIGINT (Foundation's
    /// `Process` can start children with signals masked) and a non-UTF-8 locale, in which
    /// libedit drops non-ASCII input. SIGXFSZ is ignored: a write past the file-size limit
    /// (`ulimit -f`) then fails with `EFBIG`, which the command reports (a recording says how
    /// much of its file is whole, `save` removes its temporary file), instead of killing the
    /// process in the middle of a line.
    static func prepareProcess() {
        var none = sigset_t()
        sigemptyset(&none)
        sigprocmask(SIG_SETMASK, &none, nil)
        signal(SIGXFSZ, SIG_IGN)
        setlocale(LC_ALL, "")
        if String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8" {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
    }

    /// Whether line editing can work: a terminal that is not `dumb`.
    static var supportsEditing: Bool {
        ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    /// The width in columns that `help` and long lines wrap to: the terminal's (standard
    /// output's), else `COLUMNS`, else 80.
    static var width: Int {
        var size = winsize()
        if isatty(STDOUT_FILENO) != 0, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        return 80
    }

    /// The height in rows of the terminal on standard output (else `LINES`); `nil` when
    /// standard output is not a terminal.
    static var height: Int? {
        guard isatty(STDOUT_FILENO) != 0 else { return nil }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 { return Int(size.ws_row) }
        if let lines = ProcessInfo.processInfo.environment["LINES"].flatMap({ Int($0) }), lines > 0 { return lines }
        return 24
    }
}

/// The controlling terminal while the shell's process group is its foreground group: what is
/// needed to lend it to a job and take it back. `nil` when there is no controlling terminal or
/// the shell is not in the foreground (then the terminal is not the shell's to lend).
final class ForegroundTerminal {
    let descriptor: Int32
    private let group: pid_t
    private var modes = termios()

    init?() {
        let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        guard tcgetpgrp(descriptor) == getpgrp(), tcgetattr(descriptor, &modes) == 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        group = getpgrp()
    }

    deinit { close(descriptor) }

    /// Makes `job`'s group the foreground group.
    func give(to job: pid_t) {
        tcsetpgrp(descriptor, job)
    }

    /// Makes the shell's group the foreground group again, if it is not (a job may have taken
    /// the terminal itself), and restores the terminal's modes as they were when this was made
    /// (SIGTTOU must be ignored: the shell is in the background until this).
    func takeBack() {
        if tcgetpgrp(descriptor) != group { tcsetpgrp(descriptor, group) }
        tcsetattr(descriptor, TCSADRAIN, &modes)
    }
}
