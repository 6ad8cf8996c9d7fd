import Foundation

/// Writes the files `save` makes: first to `FILE.tmp`, then renamed over FILE, so that FILE is
/// replaced whole or not at all.
enum ScriptFileWriter {
    /// Writes `text` to `path`; an error points at `range`, where the command names the file.
    static func write(_ text: String, to path: String, at range: Range<Int>) throws(ShellError) {
        func failure(_ detail: String) -> ShellError {
            ShellError(.cannotWrite(path: path, detail: detail), at: range)
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw failure("it is a directory")
        }
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw failure(detail(errno)) }
        // A file replaced keeps its permissions.
        var existing = stat()
        if stat(path, &existing) == 0 { _ = fchmod(descriptor, existing.st_mode & 0o7777) }
        let bytes = Array(text.utf8)
        var written = 0
        var error: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    error = errno
                    return
                }
                written += count
            }
        }
        if error == 0, fsync(descriptor) != 0 { error = errno }
        if close(descriptor) != 0, error == 0 { error = errno }
        if error == 0, rename(temporary, path) != 0 { error = errno }
        guard error == 0 else {
            unlink(temporary)
            throw failure(detail(error))
        }
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
