#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@_spi(Shell) public import PatchbayCore

/// Why a session file could not be written or read: where (the file and the line) and what
/// was wrong, enough for a one-line message.
public struct SessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong (an error in itself while the line is not yet known).
    public enum Reason: Error, Sendable, Equatable {
        /// The file could not be opened; `errno` says why.
        case cannotOpen(errno: Int32)
        /// The path names something other than a regular file (a pipe, a device, a socket) and
        /// the reader was asked for a regular file only; `mode` is its `st_mode`.
        case notRegularFile(mode: UInt32)
        /// A command's lines could not be written; `errno` says why. The file holds its first
        /// `validLines` lines (the header included), `validBytes` bytes, whole; the writer
        /// refuses further events.
        case writeFailed(errno: Int32, validLines: Int, validBytes: Int)
        /// The file exists and the writer was not asked to replace it.
        case exists
        /// The path names a symbolic link, which a writer does not follow.
        case symbolicLink
        /// Another writer (in this process or another) holds the file's lock.
        case beingRecorded
        /// The path names a pipe (FIFO) that no process reads.
        case noReader
        /// A line is longer than `SessionFileReader.maximumLineBytes`.
        case lineTooLong(limit: Int)
        /// The file could not be read; `errno` says why.
        case cannotRead(errno: Int32)
        /// The writer was closed before the write.
        case closed
        /// The file holds nothing, not even a header.
        case empty
        /// The first line is not a session header; the text says what is wrong with it.
        case notASession(String)
        /// The header's version is newer than this reader knows.
        case newerVersion(Int)
        /// The last line stops in the middle: the recording ended while writing it.
        case cutShort
        /// The line is not JSON.
        case notJSON(JSONError)
        /// The line is JSON but not an object.
        case notAnObject
        /// A field that the line's kind needs is not there.
        case missingField(String, expected: String)
        /// A field holds the wrong type of value.
        case wrongType(String, expected: String, found: String)
        /// A field holds a value of the right type that is still wrong; the text says why.
        case invalidField(String, String)
        /// An event that cannot stand where it does (a checkpoint of another step than the one
        /// its store reached); the text says why.
        case outOfPlace(String)
        /// A followed file is now `size` bytes long, shorter than the `read` bytes read from
        /// it: it was truncated or written again.
        case truncated(size: Int, read: Int)
        /// A followed file's path names another file now, or none: it was replaced or removed.
        case replaced
        /// A recorder could not connect to a listening shell; the text says why.
        case cannotConnect(String)
        /// The shell could not listen on the address it was given; the text says why.
        case cannotListen(String)
        /// A recorder's connection failed while writing (the shell stopped listening, the
        /// network dropped); `errno` says why. The shell received at most the first
        /// `validLines` lines (the header included); the writer refuses further events.
        case connectionLost(errno: Int32, validLines: Int)
        /// A connection to a listening shell that needs a token did not send one first.
        case missingToken
        /// A connection to a listening shell sent a token other than the shell's.
        case wrongToken
    }

    /// The file, when there is one.
    public var path: String?
    /// The line (1 for the header), when the error is about one.
    public var line: Int?
    /// What was wrong.
    public var reason: Reason

    /// An error about `path` (or about bytes without a file) at `line`.
    public init(path: String? = nil, line: Int? = nil, _ reason: Reason) {
        self.path = path
        self.line = line
        self.reason = reason
    }

    /// One line: `session.pb: line 4: missing "store" (a string)`.
    public var description: String {
        switch reason {
        case .exists: return "\(path ?? "the file") exists; use --force to replace it or choose another name"
        case .beingRecorded: return "\(path ?? "the file") is being recorded by another process"
        default: break
        }
        var text = ""
        if let path { text += path + ": " }
        if let line { text += "line \(line): " }
        return text + reasonText
    }

    /// What went wrong, with the line, for a message that names the file already:
    /// `line 4: missing "store" (a string)`.
    public var detail: String {
        switch reason {
        case .exists: return "the file exists; add --force to replace it, or choose another name"
        default: return (line.map { "line \($0): " } ?? "") + reasonText
        }
    }

    private var reasonText: String {
        switch reason {
        case .cannotOpen(let code): "cannot open the file: \(Self.systemMessage(code))"
        case .notRegularFile(let mode): "it is \(Self.fileKind(mode) ?? "not a file"), not a regular file"
        case .cannotRead(let code): "cannot read the file: \(Self.systemMessage(code))"
        case .writeFailed(let code, let lines, let bytes):
            "cannot write to the file: \(Self.systemMessage(code)); the recording stopped, and the file holds its first "
                + "\(lines) whole lines (\(bytes) bytes)"
        case .exists: "the file exists"
        case .symbolicLink: "the path is a symbolic link; a session file is written only to the file itself (name the link's target)"
        case .beingRecorded: "the file is being recorded by another process"
        case .noReader: "the path is a pipe that no process reads; start the reader first"
        case .lineTooLong(let limit):
            "the line is longer than \(limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit >> 10) KiB"), the longest a session line may be: "
                + "this is not a session file, or it is damaged"
        case .closed: "the session file is already closed"
        case .empty: "the file is empty; a session file starts with {\"patchbay\":\"session\",\"version\":1,...}"
        case .notASession(let detail):
            "not a patchbay session: \(detail); a session file starts with {\"patchbay\":\"session\",\"version\":1,...}"
        case .newerVersion(let version):
            "this file is version \(version); this patchbay reads versions up to \(SessionHeader.supportedVersion) — update patchbay"
        case .cutShort: "the line is cut short (the recording stopped while writing it)"
        case .notJSON(let error): "not JSON: \(error)"
        case .notAnObject: "expected a JSON object {...}"
        case .missingField(let field, let expected): "missing \"\(field)\" (\(expected))"
        case .wrongType(let field, let expected, let found): "\"\(field)\" must be \(expected), not \(found)"
        case .invalidField(let field, let detail): "\"\(field)\" \(detail)"
        case .outOfPlace(let detail): detail
        case .truncated(let size, let read):
            "the file shrank to \(size) bytes after \(read) were read (it was truncated or written again)"
        case .replaced: "the path names another file now (the file was replaced or removed)"
        case .cannotConnect(let detail): "cannot connect: \(detail); is 'inspect --listen' running there?"
        case .cannotListen(let detail): "cannot listen: \(detail)"
        case .connectionLost(let code, let lines):
            "the connection was lost: \(Self.systemMessage(code)); the recording stopped after its first \(lines) whole lines"
        case .missingToken:
            "the app sent no token first; this listener is not on loopback, so the app must pass the token the shell printed "
                + "(Recorder(store:connectingTo:port:token:))"
        case .wrongToken: "the app sent a wrong token; it must pass the one the shell printed (Recorder(store:connectingTo:port:token:))"
        }
    }

    /// The C library's text for `errno` `code`.
    static func systemMessage(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// What a file that is not a regular one is (`a device`), from its `st_mode`, for an error
    /// that says so; `nil` for a regular file.
    package static func fileKind(_ mode: UInt32) -> String? {
        switch mode_t(mode) & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFIFO: "a pipe (FIFO)"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "not a file"
        }
    }
}
