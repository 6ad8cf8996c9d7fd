#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import Foundation
import PatchbayCore

/// Writes a session file: the header, then one line per event, numbered 1, 2, ...
///
/// `write(_:)` takes the events of one command, encodes their lines into a buffer the writer
/// owns and hands them to the file with one `write(2)` (repeated only for a partial write), so
/// the file holds whole commands: a process killed in any way (even `kill -9`) loses at most
/// the command that was running. Lines are not forced to disk unless `syncEveryCommand` is on
/// (`record FILE --sync`); `close()` forces them.
///
/// Opening is careful: the writer does not follow a symbolic link to a regular file (nor one
/// that leads nowhere), does not replace an existing file unless asked (`replacing: true`), and
/// takes an advisory lock (`flock`) so that a second writer of the same file is refused. A pipe
/// (FIFO) or a device, also through a link such as `/dev/stdout`, is written append-only: it is
/// neither locked nor truncated. A pipe that no process reads is refused at once rather than
/// waited on.
///
/// When a write fails, the writer cuts a regular file back to its last whole line, throws an
/// error that says how many lines and bytes the file holds, and refuses further events.
///
/// A writer can also write to a shell listening with `inspect --listen`
/// (`init(connectingTo:port:token:created:recordedThroughReflection:version:)`): the same lines,
/// byte for byte, after a token line when the shell asks for one. A write to a connection
/// that dropped fails like a write to a full disk.
@_spi(Shell)
public final class SessionWriter {
    /// The file written.
    public let path: String
    /// Whether every `write` is forced to disk (`fsync`) before it returns.
    public let syncEveryCommand: Bool
    /// The `seq` of the last event written: 0 before the first.
    public private(set) var lastSeq = 0
    private var descriptor: Int32
    /// Whether the file is a regular file (locked, and cut back after a failed write); a pipe
    /// or a device is written append-only.
    private let isRegularFile: Bool
    /// Whether the lines go to a shell over a connection (see `SessionSocket`).
    private let isConnection: Bool
    /// The bytes and lines (the header included) written whole so far.
    private var writtenBytes = 0
    private var writtenLines = 0
    /// The lines of the events being written, reused from one write to the next.
    private var buffer: [UInt8] = []
    /// Why the writer stopped, after a failed write.
    private var failure: SessionError?

    /// Creates the file at `path` and writes the header with `created`, the ISO 8601 time the
    /// recording started (`2026-11-21T10:00:00Z`).
    /// - Parameters:
    ///   - path: the file to create.
    ///   - created: the ISO 8601 time the recording started, written in the header.
    ///   - replacing: whether an existing file is emptied and written over; when `false` (the
    ///     default) an existing file is an error (`.exists`).
    ///   - syncEveryCommand: whether each `write` is forced to disk before it returns.
    ///   - recordedThroughReflection: whether the header says the states were recorded
    ///     through reflection (see `SessionHeader`).
    ///   - version: the format version in the header: 1, or `SessionHeader.checkpointsOnlyVersion`
    ///     for a file whose action lines may leave out their patch.
    public init(path: String, created: String, replacing: Bool = false, syncEveryCommand: Bool = false,
                recordedThroughReflection: Bool = false, version: Int = 1) throws(SessionError) {
        self.path = path
        self.syncEveryCommand = syncEveryCommand
        (descriptor, isRegularFile) = try Self.open(path, replacing: replacing)
        isConnection = false
        try start(created: created, recordedThroughReflection: recordedThroughReflection, version: version)
    }

    /// Connects to a shell that runs `inspect --listen` on `host` at `port` and writes the
    /// header there, after the line that carries `token` when one is given. `path` is then
    /// `host:port`.
    /// - Throws: `SessionError.Reason.cannotConnect` when no connection is made within
    ///   `timeout`; `.connectionLost` when the header cannot be sent.
    public init(connectingTo host: String, port: Int, token: String?, timeout: Duration = .seconds(10), created: Date = Date(),
                recordedThroughReflection: Bool = false, version: Int = 1) throws(SessionError) {
        path = SessionSocket.endpointName(host: host, port: port)
        syncEveryCommand = false
        if let token, !SessionSocket.isValidToken(token) {
            throw SessionError(path: path, .cannotConnect("a token is 1 to \(SessionSocket.maximumTokenLength) of A-Z a-z 0-9 . _ ~ -"))
        }
        descriptor = try SessionSocket.connect(host: host, port: port, timeout: timeout)
        isRegularFile = false
        isConnection = true
        if let token, let failed = SessionSocket.sendAll(descriptor, SessionSocket.tokenLine(token)) {
            closeFile()
            throw SessionError(path: path, .connectionLost(errno: failed, validLines: 0))
        }
        try start(created: Self.timestamp(created), recordedThroughReflection: recordedThroughReflection, version: version)
    }

    /// Writes the header, the first line.
    private func start(created: String, recordedThroughReflection: Bool, version: Int) throws(SessionError) {
        SessionHeader(version: version, created: created, recordedThroughReflection: recordedThroughReflection).encode(into: &buffer)
        buffer.append(0x0A)
        do {
            try send(lines: 1)
        } catch {
            closeFile()
            throw error
        }
    }

    /// Creates the file at `path` and writes the header with `created` (by default now) as
    /// UTC ISO 8601 text; see `init(path:created:replacing:syncEveryCommand:)`.
    public convenience init(path: String, created: Date = Date(), replacing: Bool = false, syncEveryCommand: Bool = false,
                            recordedThroughReflection: Bool = false, version: Int = 1) throws(SessionError)
    {
        try self.init(path: path, created: Self.timestamp(created), replacing: replacing, syncEveryCommand: syncEveryCommand,
                      recordedThroughReflection: recordedThroughReflection, version: version)
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

    /// Writes `events`, the lines of one command, as the next lines, with one `write(2)`.
    /// Returns the `seq` of the last (`lastSeq`).
    @discardableResult
    public func write(_ events: [SessionEvent]) throws(SessionError) -> Int {
        guard descriptor >= 0 else { throw failure ?? SessionError(path: path, .closed) }
        guard !events.isEmpty else { return lastSeq }
        buffer.removeAll(keepingCapacity: true)
        var seq = lastSeq
        for event in events {
            seq += 1
            event.encode(seq: seq, into: &buffer)
            buffer.append(0x0A)
        }
        try send(lines: events.count)
        lastSeq = seq
        if syncEveryCommand { try sync() }
        // A command that wrote a very large state should not keep its memory for the next.
        if buffer.capacity > 1 << 22 { buffer = [] }
        return lastSeq
    }

    /// Writes one event as the next line and returns the `seq` it was given.
    @discardableResult
    public func write(_ event: SessionEvent) throws(SessionError) -> Int {
        try write([event])
    }

    /// Forces what was written to disk (`fsync`). A pipe or a device, which cannot be
    /// synced, needs nothing.
    public func sync() throws(SessionError) {
        guard descriptor >= 0 else { throw failure ?? SessionError(path: path, .closed) }
        guard isRegularFile else { return }
        while fsync(descriptor) != 0 {
            guard errno == EINTR else { throw stop(errno: errno) }
        }
    }

    /// Forces the file to disk and closes it. Calling it again does nothing.
    public func close() {
        guard descriptor >= 0 else { return }
        try? sync()
        closeFile()
    }

    deinit { close() }

    /// Sends `buffer`, which holds `lines` whole lines, to the file.
    private func send(lines: Int) throws(SessionError) {
        var offset = 0
        let failed: Int32? = buffer.withUnsafeBytes { bytes in
            while offset < bytes.count {
                let count = isConnection
                    ? SessionSocket.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    : systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += count
            }
            return nil
        }
        guard let failed else {
            writtenBytes += buffer.count
            writtenLines += lines
            return
        }
        // Cut a partial line off: the file ends with the last command written whole.
        if offset > 0, isRegularFile, ftruncate(descriptor, off_t(writtenBytes)) != 0 { writtenBytes += offset }
        throw stop(errno: failed)
    }

    /// Closes the writer after a failure, which it keeps and returns.
    private func stop(errno code: Int32) -> SessionError {
        let error = isConnection
            ? SessionError(path: path, .connectionLost(errno: code, validLines: writtenLines))
            : SessionError(path: path, .writeFailed(errno: code, validLines: writtenLines, validBytes: writtenBytes))
        failure = error
        closeFile()
        return error
    }

    private func closeFile() {
        guard descriptor >= 0 else { return }
        _ = systemClose(descriptor)  // also releases the lock
        descriptor = -1
    }

    /// Opens (or creates) the file for writing, locked when it is a regular file; see the
    /// type's description.
    private static func open(_ path: String, replacing: Bool) throws(SessionError) -> (descriptor: Int32, isRegularFile: Bool) {
        // Not blocking: opening a pipe that no process reads fails at once (ENXIO).
        let flags = O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK
        var descriptor = systemOpen(path, flags | O_CREAT | O_EXCL, 0o644)
        let created = descriptor >= 0
        var followedLink = false
        if !created {
            guard errno == EEXIST else { throw SessionError(path: path, .cannotOpen(errno: errno)) }
            descriptor = systemOpen(path, flags, 0)
            if descriptor < 0, errno == ELOOP {
                if linksToAPipeOrADevice(path) {
                    // `/dev/stdout`: a link to what is written append-only (checked again once open).
                    descriptor = systemOpen(path, flags & ~O_NOFOLLOW, 0)
                    followedLink = descriptor >= 0
                } else {
                    errno = ELOOP
                }
            }
            guard descriptor >= 0 else {
                switch errno {
                case ELOOP: throw SessionError(path: path, .symbolicLink)
                case ENXIO: throw SessionError(path: path, .noReader)
                default: throw SessionError(path: path, .cannotOpen(errno: errno))
                }
            }
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            _ = systemClose(descriptor)
            throw SessionError(path: path, .cannotOpen(errno: code))
        }
        let isRegularFile = (status.st_mode & S_IFMT) == S_IFREG
        do throws(SessionError) {
            // The link was changed to lead to a regular file after it was looked at.
            if followedLink, isRegularFile { throw SessionError(path: path, .symbolicLink) }
            if isRegularFile {
                if !created, !replacing { throw SessionError(path: path, .exists) }
                guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                    throw SessionError(path: path, errno == EWOULDBLOCK ? .beingRecorded : .cannotOpen(errno: errno))
                }
                guard ftruncate(descriptor, 0) == 0 else { throw SessionError(path: path, .cannotOpen(errno: errno)) }
            }
            // Writes wait for a slow reader from now on.
            guard fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK) == 0 else {
                throw SessionError(path: path, .cannotOpen(errno: errno))
            }
        } catch {
            _ = systemClose(descriptor)
            throw error
        }
        return (descriptor, isRegularFile)
    }
}

/// Whether `path` is a symbolic link that leads (through any number of links) to a pipe, a
/// device or a socket.
private func linksToAPipeOrADevice(_ path: String) -> Bool {
    var status = stat()
    guard stat(path, &status) == 0 else { return false }
    return [S_IFIFO, S_IFCHR, S_IFSOCK].contains(status.st_mode & S_IFMT)
}

/// `open(2)`, `write(2)` and `close(2)`, under names the writer's own methods do not hide.
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

private func systemClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
