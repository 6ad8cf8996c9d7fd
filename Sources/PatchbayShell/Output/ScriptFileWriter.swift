import Foundation

/// Writes the files the shell makes whole (`save`, `export devtools`, `graph --dot FILE`): first
/// to a new temporary file beside FILE, then renamed over it, so that FILE is replaced whole or
/// not at all. An existing FILE is replaced only when the user said so (`--force`), and never
/// while a recording holds its advisory lock (see `FileLock`): the writer holds that lock itself
/// while it writes, so that no recording starts in the file it replaces.
enum ScriptFileWriter {
    /// Writes `text` to `path`; an error points at `range`, where the command names the file.
    /// `beforeReplacing` runs while the new file is written (between megabytes) and when it is
    /// written, just before it takes FILE's place: when it throws (Ctrl-C), the new file goes
    /// and FILE stays as it was.
    static func write(_ text: String, to path: String, replacing: Bool, at range: Range<Int>,
                      beforeReplacing: () throws(ShellError) -> Void) throws(ShellError) {
        func failure(_ detail: String) -> ShellError {
            ShellError(.cannotWrite(path: path, detail: detail), at: range)
        }
        var existing = stat()
        let exists = lstat(path, &existing) == 0
        if exists, existing.st_mode & S_IFMT == S_IFDIR { throw failure("it is a directory") }
        // A device or a pipe would be replaced by a file, not written: refused as what it is.
        if exists, existing.st_mode & S_IFMT != S_IFLNK, let kind = FileIdentity.kind(existing.st_mode) {
            throw failure("it is \(kind), not a regular file")
        }
        if exists, !replacing { throw failure("the file exists; add --force to replace it, or choose another name") }
        var locked: Int32 = -1
        defer { if locked >= 0 { close(locked) } }
        if exists, existing.st_mode & S_IFMT == S_IFREG {
            locked = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW)
            if locked >= 0, flock(locked, LOCK_EX | LOCK_NB) != 0, errno == EWOULDBLOCK { throw failure(FileLock.heldDetail) }
        }
        // A name of our own beside the file: a rename within one directory is atomic.
        var template = Array((path + ".XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            let code = errno
            // The directory is there, but no file can be made in it (`/proc`): FILE is replaced
            // through a new file beside it.
            if code == ENOENT, directoryExists(of: path) {
                throw failure("its directory takes no new file (FILE is written beside itself, then renamed over); choose another place")
            }
            throw failure(detail(code))
        }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // A file replaced keeps its permissions; a new one gets the usual ones.
        _ = fchmod(descriptor, exists ? existing.st_mode & 0o7777 : 0o644 & ~currentUmask())
        var text = text
        text.makeContiguousUTF8()
        var error: Int32 = 0
        var stopped: ShellError?
        text.utf8.withContiguousStorageIfAvailable { buffer in
            var written = 0
            while written < buffer.count {
                // A megabyte at a time, asking between them whether to stop.
                if written > 0, written % (1 << 20) == 0 {
                    do throws(ShellError) { try beforeReplacing() } catch {
                        stopped = error
                        return
                    }
                }
                let count = Foundation.write(descriptor, buffer.baseAddress! + written, Swift.min(buffer.count - written, 1 << 20))
                if count < 0 {
                    if errno == EINTR { continue }
                    error = errno
                    return
                }
                written += count
            }
        }
        if error == 0, stopped == nil, fsync(descriptor) != 0 { error = errno }
        if close(descriptor) != 0, error == 0 { error = errno }
        if error == 0, stopped == nil {
            do throws(ShellError) { try beforeReplacing() } catch { stopped = error }
        }
        if let stopped {
            unlink(temporary)
            throw stopped
        }
        if error == 0, rename(temporary, path) != 0 { error = errno }
        guard error == 0 else {
            unlink(temporary)
            throw failure(detail(error))
        }
    }

    /// Whether the directory `path` is in exists.
    private static func directoryExists(of path: String) -> Bool {
        let directory = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        var status = stat()
        return stat(directory, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// The process's file mode mask (read by setting it and setting it back).
    private static func currentUmask() -> mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }

    /// What an `errno` from writing a file means, for people.
    private static func detail(_ code: Int32) -> String {
        switch code {
        case ENOENT: "the directory does not exist"
        case ENOTDIR: "a part of the path is not a directory"
        case EACCES, EPERM: "permission denied"
        case EISDIR: "it is a directory"
        case EROFS: "the file system is read-only"
        case ENOSPC: "no space left on the device"
        default: String(cString: strerror(code))
        }
    }
}
