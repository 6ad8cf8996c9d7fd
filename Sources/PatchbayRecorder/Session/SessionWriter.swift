#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import Foundation

/// Writes a session file: the header, then one line per event, numbered 1, 2, ...
///
/// Each line goes to the file with `write(2)` as soon as it is written, with no buffering in
/// the process, so a process that is killed loses at most the line it was writing, and the
/// file can be read (`tail -f`, `jq`) while it grows. Lines are not forced to disk (`fsync`).
///
/// Between `beginBatch()` and `endBatch()` the lines wait in memory and go to the file in one
/// `write(2)` (or one per `batchLimit` bytes): the shell batches the lines of each command (its
/// text and its effects), so a killed process loses at most the command it was running, and a
/// file never holds a command without its effects. One call instead of one per line is most of
/// what recording costs a command.
///
/// After a write fails, the file may end in a partial line, so the writer closes and refuses
/// further events: the file stays readable up to the failure.
public final class SessionWriter {
    /// The file written.
    public let path: String
    /// The `seq` of the last event written: 0 before the first.
    public private(set) var lastSeq = 0
    private var descriptor: Int32
    /// The lines not yet written: the last one only, unless a batch is open.
    private var pending: [UInt8] = []
    /// Open batches: `beginBatch()` calls not yet ended.
    private var batchDepth = 0
    /// The bytes a batch holds before it writes them without waiting for its end.
    public static let batchLimit = 1 << 16

    /// Creates (or empties) the file at `path` and writes the header with `created`, the
    /// ISO 8601 time the recording started (`2026-11-21T10:00:00Z`).
    public init(path: String, created: String) throws(SessionError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw SessionError(path: path, .cannotOpen(errno: errno)) }
        pending.reserveCapacity(256)
        SessionHeader(created: created).encode(into: &pending)
        try flushLine()
    }

    /// Creates (or empties) the file at `path` and writes the header with `created` (by
    /// default now) as UTC ISO 8601 text.
    public convenience init(path: String, created: Date = Date()) throws(SessionError) {
        try self.init(path: path, created: Self.timestamp(created))
    }

    /// `date` as `2026-11-21T10:00:00Z`.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// Whether events can still be written (`close()` was not called and no write failed).
    public var isOpen: Bool { descriptor >= 0 }

    /// Writes `event` as the next line and returns the `seq` it was given.
    @discardableResult
    public func write(_ event: SessionEvent) throws(SessionError) -> Int {
        guard descriptor >= 0 else { throw SessionError(path: path, .closed) }
        lastSeq += 1
        event.encode(seq: lastSeq, into: &pending)
        try flushLine()
        return lastSeq
    }

    /// Holds the lines written from now on in memory until the matching `endBatch()`.
    /// Batches nest: the lines go out when the outermost one ends.
    public func beginBatch() {
        batchDepth += 1
    }

    /// Ends a batch: when it is the outermost one, writes the lines it held.
    public func endBatch() throws(SessionError) {
        guard batchDepth > 0 else { return }
        batchDepth -= 1
        if batchDepth == 0, descriptor >= 0, !pending.isEmpty { try flush() }
    }

    /// Closes the file, after writing the lines an open batch holds. Calling it again does
    /// nothing.
    public func close() {
        guard descriptor >= 0 else { return }
        if !pending.isEmpty { try? flush() }
        closeFile()
    }

    private func closeFile() {
        guard descriptor >= 0 else { return }
        _ = closeDescriptor(descriptor)
        descriptor = -1
    }

    deinit { close() }

    /// Ends the line in `pending` with its line break and writes what `pending` holds, unless a
    /// batch holds it (and is not over its limit).
    private func flushLine() throws(SessionError) {
        pending.append(0x0A)
        if batchDepth > 0, pending.count < Self.batchLimit { return }
        try flush()
    }

    /// Writes what `pending` holds, and empties it.
    private func flush() throws(SessionError) {
        defer { pending.removeAll(keepingCapacity: true) }
        let failure: Int32? = pending.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = writeBytes(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure {
            closeFile()
            throw SessionError(path: path, .cannotWrite(errno: failure))
        }
    }
}

/// `write(2)` and `close(2)`, under names the writer's own methods do not hide.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

private func closeDescriptor(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
