#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a session file read for a replay, in memory of their own that never moves: the
/// part the replay starts on is read first, and the rest may be read later, by another thread,
/// into the memory after it (see `SessionScriptRest`).
///
/// It is `@unchecked Sendable` because it hands out its memory by pointer, yet no byte is read
/// while it is written: each is written once, by one thread, and read only after that thread
/// is done with it (the thread that reads the rest signals when it is).
final class SessionBytes: @unchecked Sendable {
    private let base: UnsafeMutablePointer<UInt8>
    /// How many bytes it has room for.
    let capacity: Int
    /// How many bytes were put in, from the start.
    private(set) var count = 0

    /// Room for `capacity` bytes.
    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    /// A copy of `bytes`.
    convenience init(_ bytes: [UInt8]) {
        self.init(capacity: bytes.count)
        bytes.withUnsafeBufferPointer { bytes in
            if let source = bytes.baseAddress { base.update(from: source, count: bytes.count) }
        }
        count = bytes.count
    }

    deinit {
        base.deallocate()
    }

    /// The bytes in `range`, which were put in.
    subscript(range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    /// Reads `file` into the memory after the bytes there are, until there are `end` or the
    /// file ends; returns whether it ended.
    func read(_ file: SessionFile, upTo end: Int) throws(SessionError) -> Bool {
        let end = min(end, capacity)
        while count < end {
            let read = file.read(into: base + count, count: end - count)
            if read < 0 {
                if errno == EINTR { continue }
                throw SessionError(path: file.path, .cannotRead(errno: errno))
            }
            if read == 0 { return true }
            count += read
        }
        return false
    }

    /// A copy with twice the room, for a file longer than it said.
    func grown() -> SessionBytes {
        let grown = SessionBytes(capacity: capacity * 2)
        grown.base.update(from: base, count: count)
        grown.count = count
        return grown
    }
}

/// A session file open for reading, closed when it is no longer used.
final class SessionFile: Sendable {
    let path: String
    private let descriptor: Int32
    /// The size the file had when it was opened (0 when it is not known).
    let size: Int

    /// Opens the file at `path`.
    init(opening path: String) throws(SessionError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SessionError(path: path, .cannotOpen(errno: errno)) }
        var status = stat()
        self.path = path
        self.descriptor = descriptor
        size = fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
    }

    deinit {
        close(descriptor)
    }

    /// `read(2)` of at most `count` bytes into `buffer`.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        readBytes(descriptor, buffer, count)
    }

    /// Reads the rest of the file into `bytes` (which grows when the file is longer than it
    /// said).
    func readAll(into bytes: inout SessionBytes) throws(SessionError) {
        while try !bytes.read(self, upTo: bytes.capacity) {
            bytes = bytes.grown()
        }
    }
}

/// `read(2)`, under a name that the callers' own `read` methods do not hide.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
