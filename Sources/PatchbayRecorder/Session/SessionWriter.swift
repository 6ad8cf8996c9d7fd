#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import Foundation
import CSessionKeeper
import PatchbayCore

/// Writes a session file: the header, then one line per event, numbered 1, 2, ...
///
/// A writer keeps the lines in memory shared with a *keeper*, a small process it forks, which
/// writes them to the file while the writer goes on (on another core), and which, when the
/// writer's process ends in any way (a crash, even `kill -9`), writes the lines still in
/// memory and exits. So recording costs a line no system call, and yet a process that dies
/// loses none of the lines it wrote; only the lines of an open batch (the command being run)
/// are lost. The lines reach the file when `flush()` is called (the shell calls it whenever it
/// waits for input), every 256 KB, when lines keep coming for longer than `keptDelay`, and at
/// `close()`. Whoever reads the process's output to
/// its end also waits for the keeper, which holds standard output and error until it has
/// written. Lines are not forced to disk (`fsync`).
///
/// When the keeper cannot start, or with `Delivery.direct`, each line goes to the file with
/// `write(2)` as soon as it is written, and the file can be followed (`tail -f`) line by line.
///
/// Between `beginBatch()` and `endBatch()` the lines wait in the writer and are committed
/// together when the outermost batch ends (or every `batchLimit` bytes): the shell batches the
/// lines of each command (its text and its effects), so a file never holds a command without
/// its effects.
///
/// After a write fails, the file may end in a partial line, so the writer closes and refuses
/// further events: the file stays readable up to the failure.
public final class SessionWriter {
    /// How lines reach the file.
    public enum Delivery: Sendable, Equatable {
        /// In memory shared with a keeper process, which writes them (the default).
        case kept
        /// Each line (each batch) with its own `write(2)`, as it is written.
        case direct
    }

    /// The file written.
    public let path: String
    /// How lines reach the file: `.direct` when asked, or when the keeper could not start.
    public private(set) var delivery: Delivery
    /// The `seq` of the last event written: 0 before the first.
    public private(set) var lastSeq = 0
    private var descriptor: Int32
    /// The keeper and its shared memory, when lines are kept.
    private var keeper: OpaquePointer?
    /// When the kept lines were last written out (monotonic nanoseconds).
    private var lastWriteOut: UInt64
    /// The lines not yet committed: the last one only, unless a batch is open.
    private var pending = SessionLineBuffer(capacity: 1 << 12)
    /// Open batches: `beginBatch()` calls not yet ended.
    private var batchDepth = 0
    /// The bytes a batch holds before it commits them without waiting for its end.
    public static let batchLimit = 1 << 16
    /// The bytes of memory a kept writer shares with its keeper. The keeper is asked to write
    /// every 256 KB; the rest lets the writer go on while the file system makes the keeper wait.
    public static let keptCapacity = 1 << 23
    /// The longest time lines that keep coming are held in memory, in nanoseconds.
    public static let keptDelay: UInt64 = 50_000_000

    /// Creates (or empties) the file at `path` and writes the header with `created`, the
    /// ISO 8601 time the recording started (`2026-11-21T10:00:00Z`).
    public convenience init(path: String, created: String, delivery: Delivery = .kept) throws(SessionError) {
        try self.init(path: path, created: created, delivery: delivery, keptCapacity: Self.keptCapacity)
    }

    /// `init(path:created:delivery:)` with the memory shared with the keeper of the given size.
    init(path: String, created: String, delivery: Delivery, keptCapacity: Int) throws(SessionError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw SessionError(path: path, .cannotOpen(errno: errno)) }
        SessionHeader(created: created).encode(into: &pending)
        pending.append(0x0A)
        let headerSize = UInt64(pending.count)
        keeper = nil
        lastWriteOut = Self.monotonicNow()
        self.delivery = .direct
        try commit()
        if delivery == .kept, let keeper = pb_keeper_start(descriptor, headerSize, keptCapacity) {
            self.keeper = keeper
            self.delivery = .kept
        }
    }

    /// Creates (or empties) the file at `path` and writes the header with `created` (by
    /// default now) as UTC ISO 8601 text.
    public convenience init(path: String, created: Date = Date(), delivery: Delivery = .kept) throws(SessionError) {
        try self.init(path: path, created: Self.timestamp(created), delivery: delivery)
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
        return try endLine()
    }

    /// Writes out what is held and forces the file to the disk (`fsync`).
    public func sync() throws(SessionError) {
        try flush()
        guard descriptor >= 0 else { return }
        if fsync(descriptor) != 0 { throw SessionError(path: path, .cannotWrite(errno: errno)) }
    }

    /// Writes the lines of `events` (a command's) together, numbered from `lastSeq + 1`.
    public func write(_ events: [SessionEvent]) throws(SessionError) {
        beginBatch()
        for event in events {
            do { try write(event) } catch {
                batchDepth = 0
                throw error
            }
        }
        try endBatch()
    }

    /// Ends the line just encoded, commits it unless a batch holds it, and returns its `seq`.
    private func endLine() throws(SessionError) -> Int {
        pending.append(0x0A)
        if batchDepth == 0 || pending.count >= Self.batchLimit { try commit() }
        return lastSeq
    }

    /// Holds the lines written from now on until the matching `endBatch()`.
    /// Batches nest: the lines are committed when the outermost one ends.
    public func beginBatch() {
        batchDepth += 1
    }

    /// Ends a batch: when it is the outermost one, commits the lines it held.
    public func endBatch() throws(SessionError) {
        guard batchDepth > 0 else { return }
        batchDepth -= 1
        if batchDepth == 0, descriptor >= 0, !pending.isEmpty { try commit() }
    }

    /// Writes to the file the lines kept in memory (not those of an open batch).
    public func flush() throws(SessionError) {
        guard let keeper else { return }
        try check(pb_keeper_write_out(keeper))
        lastWriteOut = Self.monotonicNow()
    }

    /// Closes the file, after writing the lines an open batch holds and those kept in memory.
    /// Calling it again does nothing.
    public func close() {
        guard descriptor >= 0 else { return }
        if !pending.isEmpty { try? commit() }
        try? flush()
        closeFile()
    }

    deinit { close() }

    /// The keeper's process id, while it is kept.
    var keeperProcess: Int32? { keeper.map { pb_keeper_process($0) } }

    /// Ends the writer as the end of its process would: the keeper writes what was committed;
    /// an open batch is lost.
    func abandon() {
        pending.removeAll()
        closeFile()
    }

    /// Stops the keeper (which writes out what it still holds) and closes the file.
    private func closeFile() {
        if let keeper { pb_keeper_stop(keeper) }
        keeper = nil
        guard descriptor >= 0 else { return }
        _ = closeDescriptor(descriptor)
        descriptor = -1
    }

    /// Commits what `pending` holds, and empties it: hands it to the keeper (writing out what
    /// it kept, when full or held too long), or writes it.
    private func commit() throws(SessionError) {
        defer { pending.removeAll() }
        guard let keeper else { return try check(writeAll(pending.bytes)) }
        try check(pb_keeper_append(keeper, pending.bytes.baseAddress, pending.count))
        let now = Self.monotonicNow()
        if now &- lastWriteOut >= Self.keptDelay {
            try check(pb_keeper_request(keeper))
            lastWriteOut = now
        }
    }

    /// `write(2)` of all of `bytes`: 0, or the `errno` of the failure.
    private func writeAll(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let written = writeBytes(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }

    /// Throws for a failed write (`failure` is not 0), after closing the writer.
    private func check(_ failure: Int32) throws(SessionError) {
        guard failure != 0 else { return }
        closeFile()
        throw SessionError(path: path, .cannotWrite(errno: failure))
    }

    private static func monotonicNow() -> UInt64 {
        var now = timespec()
        #if os(Linux)
        clock_gettime(CLOCK_MONOTONIC_COARSE, &now)
        #else
        clock_gettime(CLOCK_MONOTONIC, &now)
        #endif
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }
}

/// `write(2)` and `close(2)`, under names the writer's own methods do not hide.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

private func closeDescriptor(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
