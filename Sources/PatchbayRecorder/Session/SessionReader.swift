#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads session files (JSON Lines; see `SessionEvent`).
///
/// - The first line must be the header; a file of a newer version than
///   `SessionHeader.supportedVersion` is refused, with nothing read.
/// - Lines that hold only white space are skipped, so a file edited by hand or joined from
///   pieces still reads. A line may end in `\r\n`.
/// - Fields a reader does not know are ignored, and lines of a kind it does not know are
///   skipped and counted.
/// - The first damaged line (not JSON, cut short, or missing a field its kind needs) stops
///   reading: what came before it is returned, and `SessionLoad.damage` says what is wrong
///   with which line.
public enum SessionReader {
    /// Reads the session file at `path`, a piece at a time. Throws when the file cannot be read
    /// or does not start with a header this reader accepts; damage after the header is
    /// reported in the load.
    public static func read(contentsOf path: String) throws(SessionError) -> SessionLoad {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SessionError(path: path, .cannotOpen(errno: errno)) }
        defer { close(descriptor) }
        var status = stat()
        var loader = SessionLoader(path: path, size: fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var filled = 0
        while loader.wantsMore {
            if filled == buffer.count {
                buffer += [UInt8](repeating: 0, count: buffer.count)  // a line longer than the buffer
            }
            let count = buffer.withUnsafeMutableBytes { readBytes(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SessionError(path: path, .cannotRead(errno: errno))
            }
            let atEnd = count == 0
            filled += count
            let used = try buffer.withUnsafeBufferPointer { bytes throws(SessionError) in
                try take(lines: UnsafeBufferPointer(rebasing: bytes[..<filled]), into: &loader, atEnd: atEnd)
            }
            buffer.withUnsafeMutableBytes { bytes in
                _ = memmove(bytes.baseAddress!, bytes.baseAddress! + used, filled - used)
            }
            filled -= used
            if atEnd { break }
        }
        return try loader.finish()
    }

    /// Reads a session from `bytes`; `path`, when given, names the file in errors.
    public static func read(_ bytes: [UInt8], path: String? = nil) throws(SessionError) -> SessionLoad {
        var loader = SessionLoader(path: path, size: bytes.count)
        _ = try bytes.withUnsafeBufferPointer { bytes throws(SessionError) in try take(lines: bytes, into: &loader, atEnd: true) }
        return try loader.finish()
    }

    /// Gives `loader` the complete lines of `bytes` (and, `atEnd`, the unterminated last one);
    /// returns how many bytes that used.
    private static func take(lines bytes: UnsafeBufferPointer<UInt8>, into loader: inout SessionLoader, atEnd: Bool) throws(SessionError) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var start = 0
        while start < bytes.count, loader.wantsMore {
            guard let newline = memchr(base + start, 0x0A, bytes.count - start) else {
                guard atEnd else { return start }
                try loader.take(UnsafeBufferPointer(rebasing: bytes[start...]), isTerminated: false)
                return bytes.count
            }
            let end = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
            try loader.take(UnsafeBufferPointer(rebasing: bytes[start..<end]), isTerminated: true)
            start = end + 1
        }
        return start
    }
}

/// `read(2)`, under a name that the reader's own `read` methods do not hide.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
