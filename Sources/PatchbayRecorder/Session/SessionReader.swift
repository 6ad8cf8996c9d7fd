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
///
/// A large file is read on all the cores at once, in pieces of whole lines; the load is the
/// same as a line-by-line read gives.
public enum SessionReader {
    /// Reads the session file at `path`, a piece at a time. Throws when the file cannot be read
    /// or does not start with a header this reader accepts; damage after the header is
    /// reported in the load.
    public static func read(contentsOf path: String) throws(SessionError) -> SessionLoad {
        try read(contentsOf: path, splitting: .automatic)
    }

    /// Reads a session from `bytes`; `path`, when given, names the file in errors.
    public static func read(_ bytes: [UInt8], path: String? = nil) throws(SessionError) -> SessionLoad {
        try read(bytes, path: path, splitting: .automatic)
    }

    /// `read(contentsOf:)`, splitting as `splitting` says.
    static func read(contentsOf path: String, splitting: SessionSplitting) throws(SessionError) -> SessionLoad {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SessionError(path: path, .cannotOpen(errno: errno)) }
        defer { close(descriptor) }
        var status = stat()
        let size = fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
        var loader = SessionLoader<RecordedEvents>(path: path, size: size, splitting: splitting)
        // Room for the whole file when it is small (and 64 KiB at least, for a file whose size
        // is not known); otherwise a chunk, to split.
        var buffer = [UInt8](repeating: 0, count: min(splitting.chunkBytes, max(size + 1, 1 << 16)))
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
            if !atEnd, filled < buffer.count { continue }
            let used = try buffer.withUnsafeBufferPointer { bytes throws(SessionError) in
                try loader.take(UnsafeBufferPointer(rebasing: bytes[..<filled]), atEnd: atEnd)
            }
            buffer.withUnsafeMutableBytes { bytes in
                _ = memmove(bytes.baseAddress!, bytes.baseAddress! + used, filled - used)
            }
            filled -= used
            if atEnd { break }
        }
        return load(try loader.finish())
    }

    /// `read(_:path:)`, splitting as `splitting` says.
    static func read(_ bytes: [UInt8], path: String? = nil, splitting: SessionSplitting) throws(SessionError) -> SessionLoad {
        var loader = SessionLoader<RecordedEvents>(path: path, size: bytes.count, splitting: splitting)
        _ = try bytes.withUnsafeBufferPointer { bytes throws(SessionError) in try loader.take(bytes, atEnd: true) }
        return load(try loader.finish())
    }

    private static func load(_ loaded: SessionLoader<RecordedEvents>.Loaded) -> SessionLoad {
        SessionLoad(header: loaded.header, events: loaded.content.events, unknownKindCount: loaded.unknownKindCount, damage: loaded.damage)
    }
}

/// `read(2)`, under a name that the reader's own `read` methods do not hide.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
