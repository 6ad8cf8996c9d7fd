#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import PatchbayCore

/// Why a session file could not be written or read: where (the file and the line) and what
/// was wrong, enough for a one-line message.
public struct SessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong (an error in itself while the line is not yet known).
    public enum Reason: Error, Sendable, Equatable {
        /// The file could not be opened; `errno` says why.
        case cannotOpen(errno: Int32)
        /// A line could not be written; `errno` says why.
        case cannotWrite(errno: Int32)
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
        var text = ""
        if let path { text += path + ": " }
        if let line { text += "line \(line): " }
        return text + reasonText
    }

    private var reasonText: String {
        switch reason {
        case .cannotOpen(let code): "cannot open the file: \(Self.systemMessage(code))"
        case .cannotWrite(let code): "cannot write to the file: \(Self.systemMessage(code))"
        case .cannotRead(let code): "cannot read the file: \(Self.systemMessage(code))"
        case .closed: "the session file is already closed"
        case .empty: "the file is empty; a session file starts with {\"patchbay\":\"session\",\"version\":1,...}"
        case .notASession(let detail):
            "not a patchbay session: \(detail); a session file starts with {\"patchbay\":\"session\",\"version\":1,...}"
        case .newerVersion(let version):
            "this file is version \(version); this patchbay reads version \(SessionHeader.supportedVersion) — update patchbay"
        case .cutShort: "the line is cut short (the recording stopped while writing it)"
        case .notJSON(let error): "not JSON: \(error)"
        case .notAnObject: "expected a JSON object {...}"
        case .missingField(let field, let expected): "missing \"\(field)\" (\(expected))"
        case .wrongType(let field, let expected, let found): "\"\(field)\" must be \(expected), not \(found)"
        case .invalidField(let field, let detail): "\"\(field)\" \(detail)"
        }
    }

    /// The C library's text for `errno` `code`.
    static func systemMessage(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
