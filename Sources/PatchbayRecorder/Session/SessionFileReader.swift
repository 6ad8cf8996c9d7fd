@_spi(Shell) import PatchbayCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a session file (JSON Lines; see `SessionEvent`) one event at a time, streaming: it
/// holds one buffer of lines, never the whole file.
///
/// - The first line must be the header; a file of a newer version than
///   `SessionHeader.supportedVersion` is refused, with nothing read (the initializer throws).
/// - Lines that hold only white space are skipped, so a file edited by hand or joined from
///   pieces still reads. A line may end in `\r\n`.
/// - Fields a reader does not know are ignored, and lines of a kind it does not know are
///   skipped and counted in `unknownKindCount`.
/// - A damaged line (not JSON, cut short at the end of the file, missing a field its kind
///   needs, longer than `maximumLineBytes`) is thrown by `next()` as a `SessionError` naming
///   its line; reading stops there (`next()` returns `nil` after it).
///
/// A reader that follows its file (`init(path:following:)`, for `inspect --follow`) reads a
/// file that a writer is still appending to: at the end, `next()` returns `nil` and the reader
/// stays where it is, and a later call reads what was appended since. A last line without its
/// line break is not read until the break comes (a writer writes a line with one `write(2)`,
/// but a reader may catch it halfway). A file that shrinks below what was read (truncated,
/// rewritten) or whose path names another file (replaced, removed) ends the reading with
/// `SessionError.Reason.truncated` or `.replaced`, thrown like damage.
@_spi(Shell)
public final class SessionFileReader {
    /// The longest line read, in bytes: 64 MiB, room for a state of tens of megabytes of JSON.
    /// A longer line is damage, so that reading a file that is not a session (`/dev/zero`)
    /// ends at once instead of filling memory.
    public static let maximumLineBytes = 64 << 20

    /// The file read, when there is one (it names the file in errors).
    public let path: String?
    /// The file's first line.
    public let header: SessionHeader
    /// How many lines had a kind this reader does not know (written by a newer patchbay);
    /// they were skipped.
    public private(set) var unknownKindCount = 0
    /// The damage that stopped reading, once `next()` has thrown it.
    public private(set) var damage: SessionError?
    /// The stores' places in their histories, against which checkpoints are checked.
    private var places = StorePlaces()

    private var lines: LineSource
    private var decoder = SessionLineDecoder()

    /// Opens the session file at `path` and reads its header. Throws when the file cannot be
    /// read or does not start with a header this reader accepts.
    /// - Parameters:
    ///   - path: the session file to read.
    ///   - following: whether to keep reading what is appended after the end (see the type's
    ///     description).
    ///   - regularOnly: whether to refuse what is not a regular file (a pipe, a device) with
    ///     `SessionError.Reason.notRegularFile`, before reading anything: opening a pipe that no
    ///     process writes would wait for a writer for ever.
    public convenience init(path: String, following: Bool = false, regularOnly: Bool = false) throws(SessionError) {
        // Followed, a pipe is read without waiting: at its end for now, a read finds nothing.
        // Asked for a regular file, the open does not wait for a pipe's writer either.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | (following || regularOnly ? O_NONBLOCK : 0))
        guard descriptor >= 0 else { throw SessionError(path: path, .cannotOpen(errno: errno)) }
        if regularOnly {
            // What was opened is what is checked (the name may have changed in between).
            var status = stat()
            guard fstat(descriptor, &status) == 0 else {
                let code = errno
                close(descriptor)
                throw SessionError(path: path, .cannotOpen(errno: code))
            }
            guard status.st_mode & S_IFMT == S_IFREG else {
                close(descriptor)
                throw SessionError(path: path, .notRegularFile(mode: UInt32(status.st_mode)))
            }
            // A regular file never blocks; without `following`, it is read as any file is.
            if !following { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK) }
        }
        try self.init(LineSource(descriptor: descriptor, limit: Self.maximumLineBytes, following: following), path: path)
    }

    /// Whether the reader follows its file: `nil` from `next()` means "nothing more yet".
    public var isFollowing: Bool { lines.isFollowing }

    /// How many bytes of the file were read so far (for a followed file, how far it reached).
    public var bytesRead: Int { lines.bytesRead }

    /// Whether a reader of a connection (see `IncomingSession`) has read everything: the app
    /// closed it, and every line it sent was read. Always `false` for a file.
    public var hasEnded: Bool { lines.hasEnded }

    /// Reads a session from `bytes`; `path`, when given, names the file in errors.
    public convenience init(bytes: [UInt8], path: String? = nil) throws(SessionError) {
        try self.init(LineSource(bytes: bytes, limit: Self.maximumLineBytes), path: path)
    }

    init(_ lines: LineSource, path: String?) throws(SessionError) {
        self.path = path
        self.lines = lines
        do throws(SessionError.Reason) {
            guard let (range, _) = try self.lines.next() else { throw SessionError.Reason.empty }
            header = try self.lines.withBytes(range) { bytes throws(SessionError.Reason) in try SessionHeader.decode(bytes) }
        } catch {
            throw SessionError(path: path, line: 1, error)
        }
    }

    /// The next event with its line, or `nil` at the end of the file (or after damage).
    /// Throws the first damaged line.
    public func next() throws(SessionError) -> RecordedEvent? {
        guard damage == nil else { return nil }
        do throws(SessionError.Reason) {
            while let (range, isTerminated) = try lines.next() {
                guard !lines.isBlank(range) else { continue }
                do throws(SessionError.Reason) {
                    let (seq, event) = try lines.withBytes(range) { bytes throws(SessionError.Reason) in try decoder.decode(bytes) }
                    guard let event else {
                        unknownKindCount += 1
                        continue
                    }
                    // Version 1 files hold every action's change: one without is damage there.
                    if header.version < SessionHeader.checkpointsOnlyVersion, case .action(let action, _) = event, action.unrecorded {
                        throw .missingField("patch", expected: SessionField.ValueType.patch.phrase)
                    }
                    try places.follow(event)
                    return RecordedEvent(line: lines.lineNumber, seq: seq, event: event)
                } catch {
                    // A last line that ends before its JSON does: the writer stopped midway.
                    if case .notJSON(let jsonError) = error, !isTerminated, jsonError.offset >= range.count { throw .cutShort }
                    throw error
                }
            }
            if lines.isFollowing { try checkStillTheSameFile() }
            return nil
        } catch {
            // A followed file that shrank or was replaced is not about a line.
            let line: Int? = switch error {
            case .truncated, .replaced: nil
            default: lines.lineNumber
            }
            let damage = SessionError(path: path, line: line, error)
            self.damage = damage
            throw damage
        }
    }
}

extension SessionFileReader {
    /// For a followed file at its end: throws when the file shrank below what was read or its
    /// path names another file now.
    private func checkStillTheSameFile() throws(SessionError.Reason) {
        guard let descriptor = lines.descriptor else { return }
        var opened = stat()
        guard fstat(descriptor, &opened) == 0 else { throw .cannotRead(errno: errno) }
        // (A pipe has no size to shrink.)
        if opened.st_mode & S_IFMT == S_IFREG, Int(opened.st_size) < lines.bytesRead {
            throw .truncated(size: Int(opened.st_size), read: lines.bytesRead)
        }
        // (A connection's path names where it came from, not a file.)
        guard let path, !lines.isStream else { return }
        var named = stat()
        guard stat(path, &named) == 0, named.st_dev == opened.st_dev, named.st_ino == opened.st_ino else { throw .replaced }
    }
}

/// The lines of a session's bytes, read from a file a buffer at a time (or from bytes in
/// memory), each at most `limit` bytes long. A followed file is read again at its end on each
/// call, and its last line is returned only once its line break came. A connection (a stream)
/// is followed as a file is, until the writer closes it: then its last line is returned
/// without its break (and so read as cut short) and the source ends.
struct LineSource {
    /// The bytes read and not yet taken: `buffer[start..<end]`.
    private var buffer: [UInt8]
    private var start = 0
    private var end: Int
    /// Where to look for the next line break: bytes before it, from `start`, have none.
    private var searched = 0
    /// The file, or -1 for bytes in memory (or once the file is read to its end).
    private var file: FileDescriptor?
    private let limit: Int
    /// The number of the line returned last: 1 for the first.
    private(set) var lineNumber = 0
    /// Whether the file is followed: its end is only where the writer is now.
    let isFollowing: Bool
    /// Whether the file is a connection, which ends when its writer closes it.
    let isStream: Bool
    /// The bytes read from the file so far.
    private(set) var bytesRead = 0

    /// The bytes read at once from a file.
    private static let chunkBytes = 1 << 20

    init(descriptor: Int32, limit: Int, following: Bool = false, stream: Bool = false) {
        buffer = [UInt8](repeating: 0, count: Self.chunkBytes)
        end = 0
        file = FileDescriptor(descriptor)
        self.limit = limit
        isFollowing = following || stream
        isStream = stream
    }

    init(bytes: [UInt8], limit: Int) {
        buffer = bytes
        end = bytes.count
        file = nil
        self.limit = limit
        isFollowing = false
        isStream = false
    }

    /// The file's descriptor, while it is open.
    var descriptor: Int32? { file?.descriptor }

    /// The next line's place in the buffer (without its line break, valid until the next call)
    /// and whether a line break ended it; `nil` at the end (for a followed file, at its end
    /// for now, a line without its break kept for the next call).
    mutating func next() throws(SessionError.Reason) -> (range: Range<Int>, isTerminated: Bool)? {
        while true {
            if let newline = findNewline() {
                let range = start..<newline
                start = newline + 1
                searched = start
                lineNumber += 1
                guard range.count <= limit else { throw .lineTooLong(limit: limit) }
                return (range, true)
            }
            guard end - start <= limit else {
                lineNumber += 1
                throw .lineTooLong(limit: limit)
            }
            guard let file else {
                guard start < end else { return nil }
                let range = start..<end
                start = end
                lineNumber += 1
                return (range, false)
            }
            guard try fill(from: file) else { return nil }
        }
    }

    /// Whether a stream was closed by its writer and every byte of it was taken.
    var hasEnded: Bool { isStream && file == nil && start >= end }

    /// The bytes read and not yet taken as lines.
    var pendingBytes: Int { end - start }

    /// The next whole line's place in the buffer, without taking it (see `skipLine(_:)`);
    /// `nil` until its line break came.
    mutating func peekLine() throws(SessionError.Reason) -> Range<Int>? {
        while true {
            if let newline = findNewline() { return start..<newline }
            guard end - start <= limit, let file, try fill(from: file) else { return nil }
        }
    }

    /// Takes the line `peekLine()` returned, which then counts as no line: the next is line 1
    /// again (a token line before a session's header).
    mutating func skipLine(_ range: Range<Int>) {
        start = range.upperBound + 1
        searched = start
    }

    /// Calls `body` with the bytes of `range`, a line `next()` returned.
    func withBytes<Result>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) throws(SessionError.Reason) -> Result)
        throws(SessionError.Reason) -> Result
    {
        try buffer.withUnsafeBufferPointer { bytes throws(SessionError.Reason) in try body(UnsafeBufferPointer(rebasing: bytes[range])) }
    }

    /// Whether the line at `range` holds nothing but white space.
    func isBlank(_ range: Range<Int>) -> Bool {
        buffer[range].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// The position of the next line break in `buffer[searched..<end]`, if there is one.
    private mutating func findNewline() -> Int? {
        guard searched < end else { return nil }
        let found: Int? = buffer.withUnsafeBufferPointer { bytes in
            guard let pointer = memchr(bytes.baseAddress! + searched, 0x0A, end - searched) else { return nil }
            return bytes.baseAddress!.distance(to: pointer.assumingMemoryBound(to: UInt8.self))
        }
        searched = found ?? end
        return found
    }

    /// Reads more of the file after what the buffer holds, moving the unread bytes to its
    /// start and growing it when a line fills it. Returns `false` at the end of a followed
    /// file, which stays open; the end of another file closes it.
    private mutating func fill(from file: FileDescriptor) throws(SessionError.Reason) -> Bool {
        if start > 0 {
            let count = end - start
            buffer.withUnsafeMutableBytes { bytes in _ = memmove(bytes.baseAddress!, bytes.baseAddress! + start, count) }
            searched -= start
            end = count
            start = 0
        }
        if end == buffer.count {
            buffer += [UInt8](repeating: 0, count: min(buffer.count, limit + 1))
        }
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in systemRead(file.descriptor, bytes.baseAddress! + end, bytes.count - end) }
            if count < 0 {
                if errno == EINTR { continue }
                if isFollowing && (errno == EAGAIN || errno == EWOULDBLOCK) { return false }
                throw .cannotRead(errno: errno)
            }
            if count == 0 {
                if isFollowing && !isStream { return false }
                self.file = nil
            }
            end += count
            bytesRead += count
            return true
        }
    }
}

/// An open file, closed when the last reader holding it goes.
final class FileDescriptor {
    let descriptor: Int32

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { _ = close(descriptor) }
}

/// `read(2)`, under a name that the readers' own methods do not hide.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// Where each store's history stands as a recording's lines tell it (a store line starts it at
/// #0, an action line or a jump moves it), so that an action that does not follow its store's
/// step, or a checkpoint of another step than the one its store reached, is damage at its line
/// for every reader alike: `inspect`, `replay` and `RecordedSession`. (After a checkout or a
/// sweep the lines no longer tell it: the next action or checkpoint says where the store is.)
struct StorePlaces {
    private var reached: [String: Int] = [:]

    /// Follows `event`.
    /// - Throws: `outOfPlace` for an action or a checkpoint that does not stand where its store is.
    mutating func follow(_ event: SessionEvent) throws(SessionError.Reason) {
        switch event {
        case .store(let name, _, _), .reset(let name, _): reached[name] = 0
        case .action(let action, _):
            if let at = reached[action.store], action.index != at + 1 {
                throw .outOfPlace(SessionEvent.actionOutOfPlace(action.index, of: action.store, reached: at))
            }
            reached[action.store] = action.index
        case .jump(let name, let index): reached[name] = index
        case .checkout(let name, _), .sweep(let name): reached[name] = nil
        case .checkpoint(let name, let index, _):
            if let at = reached[name], at != index {
                throw .outOfPlace(SessionEvent.checkpointOutOfPlace(index, of: name, reached: at))
            }
            reached[name] = index
        case .command, .setup, .publish, .route, .error, .timer, .skip, .recompute: break
        }
    }
}
