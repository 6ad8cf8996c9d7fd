import Foundation

/// The one place that knows which files are in use, which every command that writes a file
/// (`record`, `save`, `graph --dot FILE`, `export devtools`) asks before it opens one: the file
/// this session records into, the files it reads (scripts, loads, replays, a followed
/// `inspect`), and a file another process records into (it holds an advisory lock). A file in
/// use is never written, `--force` notwithstanding: `--force` replaces a file nobody uses.
extension Shell {
    /// Throws when the file at `path` is in use (see above); a path that names no file is free.
    func checkNotInUse(_ path: String, at range: Range<Int>) throws(ShellError) {
        guard let identity = FileIdentity(path: path) else { return }
        func refusal(_ detail: String) -> ShellError { ShellError(.cannotWrite(path: path, detail: detail), at: range) }
        if let recording, recording.identity == identity {
            throw refusal("this session is recording into it; 'record stop' first, or choose another file")
        }
        if filesBeingRead.contains(identity) || filesHeldOpen.contains(identity) {
            throw refusal("this session is reading it (a script, load, replay or inspect); choose another file")
        }
        if FileLock.isHeld(path) { throw refusal(FileLock.heldDetail) }
    }

    /// The files a paused replay and a followed `inspect` go on reading between commands.
    private var filesHeldOpen: [FileIdentity] {
        [replayRun?.file, following?.listening == nil ? following?.path : nil].compactMap { $0.flatMap(FileIdentity.init(path:)) }
    }
}

/// The advisory lock (`flock`) that a recording holds on its file, as other processes see it.
enum FileLock {
    /// What a write refused because of the lock says.
    static let heldDetail = "another process is recording into it; choose another file"

    /// Whether an open file (of this process or another) holds a lock on the regular file at
    /// `path`. Anything else (no file, a pipe, a device, a file that cannot be opened) is not.
    static func isHeld(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 { return false }
        return errno == EWOULDBLOCK
    }
}
