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
/// After a write fails, the file may end in a partial line, so the writer closes and refuses
/// further events: the file stays readable up to the failure.
public final class SessionWriter {
    /// The file written.
    public let path: String
    /// The `seq` of the last event written: 0 before the first.
    public private(set) var lastSeq = 0
    private var descriptor: Int32
    private var line: [UInt8] = []

    /// Creates (or empties) the file at `path` and writes the header with `created`, the
    /// ISO 8601 time the recording started (`2026-11-21T10:00:00Z`).
    public init(path: String, created: String) throws(SessionError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw SessionError(path: path, .cannotOpen(errno: errno)) }
        line.reserveCapacity(256)
        SessionHeader(created: created).encode(into: &line)
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
        event.encode(seq: lastSeq, into: &line)
        try flushLine()
        return lastSeq
    }

    /// Closes the file. Calling it again does nothing.
    public func close() {
        guard descriptor >= 0 else { return }
        _ = closeDescriptor(descriptor)
        descriptor = -1
    }

    deinit { close() }

    /// Writes the line in `line` with its line break, and empties `line`.
    private func flushLine() throws(SessionError) {
        line.append(0x0A)
        defer { line.removeAll(keepingCapacity: true) }
        let failure: Int32? = line.withUnsafeBytes { bytes in
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
            close()
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
