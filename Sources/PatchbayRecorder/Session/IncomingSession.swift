/// A connection a listening shell accepted (`inspect --listen`), until its session starts: it
/// checks the token line the app sends first, when the shell asks for one, and waits for the
/// session header, without ever blocking (the connection is non-blocking; each `poll()` takes
/// what has arrived). Then it hands the connection to a `SessionFileReader` that follows it as
/// it follows a growing file, with the same lines: the token line does not count as one.
///
/// What comes before the header is bounded (`maximumPrefaceBytes`), so that a peer that sends
/// no line break cannot fill the shell's memory.
@_spi(Shell)
public struct IncomingSession {
    /// The most bytes the token line and the header may take together.
    public static let maximumPrefaceBytes = 64 << 10

    /// Where the connection came from (`127.0.0.1:53122`).
    public let peer: String
    /// The token the app must send first, when the shell asks for one.
    public let token: String?
    private var lines: LineSource
    private var tokenChecked = false

    /// Takes `descriptor`, an accepted non-blocking connection (it is closed with this, or
    /// with the reader it becomes).
    public init(descriptor: Int32, peer: String, token: String?) {
        self.peer = peer
        self.token = token
        lines = LineSource(descriptor: descriptor, limit: SessionFileReader.maximumLineBytes, stream: true)
    }

    /// The reader of the session, once its header came; `nil` while the token line or the
    /// header is still on its way.
    /// - Throws: `SessionError` (its path: `peer`) when the token is missing or wrong, the
    ///   header is not one this shell reads, the preface is too long, or the app closed the
    ///   connection before its header.
    public mutating func poll() throws(SessionError) -> SessionFileReader? {
        do throws(SessionError.Reason) {
            if !tokenChecked {
                guard let first = try wholeLine() else { return nil }
                let sent = try lines.withBytes(first) { Self.sentToken(in: $0) }
                if let token {
                    guard let sent else { throw .missingToken }
                    guard Self.same(sent, Array(token.utf8)) else { throw .wrongToken }
                }
                // A token sent to a shell that asks for none is passed over.
                if sent != nil { lines.skipLine(first) }
                tokenChecked = true
            }
            guard try wholeLine() != nil else { return nil }
        } catch {
            throw SessionError(path: peer, error)
        }
        return try SessionFileReader(lines, path: peer)
    }

    /// The next whole line, `nil` while it is on its way; throws when the preface is too long
    /// or the connection ended first.
    private mutating func wholeLine() throws(SessionError.Reason) -> Range<Int>? {
        if let line = try lines.peekLine() { return line }
        if lines.pendingBytes > Self.maximumPrefaceBytes { throw .lineTooLong(limit: Self.maximumPrefaceBytes) }
        if lines.descriptor == nil {
            throw lines.pendingBytes == 0 ? .empty : .cutShort
        }
        return nil
    }

    /// The token of a token line, `{"token":"..."}`, or `nil` when the line is not one.
    private static func sentToken(in line: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let prefix = Array(#"{"token":""#.utf8), suffix = Array(#""}"#.utf8)
        var bytes = Array(line)
        if bytes.last == 0x0D { bytes.removeLast() }
        guard bytes.count >= prefix.count + suffix.count, bytes.starts(with: prefix), bytes.suffix(suffix.count).elementsEqual(suffix) else {
            return nil
        }
        return Array(bytes[prefix.count..<bytes.count - suffix.count])
    }

    /// Whether `a` and `b` are the same bytes, in a time that does not depend on where they differ.
    private static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
