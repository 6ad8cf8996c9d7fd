#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds the content of a session (its events, or what a replay wants of it) from its bytes,
/// given a run of lines at a time in file order.
///
/// The header is read first, alone; the lines after it are split into pieces (see
/// `SessionSplitting`) that are read at once, then joined in order: their line numbers moved
/// past the lines before them, and nothing kept after the first damaged line, even what a
/// later piece read.
struct SessionLoader<Content: SessionContent>: Sendable {
    private let path: String?
    /// How the lines taken next are split.
    var splitting: SessionSplitting
    private var header: SessionHeader?
    private var content = Content()
    private var unknownKindCount = 0
    private var damage: SessionError?
    /// How many lines were taken, the header included.
    private var lineCount = 0
    /// How many bytes were taken: where the next ones start in the session.
    private var byteCount = 0
    /// The pieces of the last lines taken, emptied by joining them; kept to read into again.
    private var pieces: [SessionPiece<Content>] = []

    /// A loader for the file at `path` (if any) of `size` bytes, about, that splits the lines it
    /// takes as `splitting` says.
    init(path: String?, size: Int, splitting: SessionSplitting) {
        self.path = path
        self.splitting = splitting
        content.prepare(forBytes: size)
    }

    /// Whether more lines are wanted: not after damage.
    var wantsMore: Bool { damage == nil }

    /// Reads the whole lines of `bytes` (and, `atEnd`, the unterminated last one); returns how
    /// many bytes that used. Throws for a bad header; damage later is kept for the load.
    mutating func take(_ bytes: UnsafeBufferPointer<UInt8>, atEnd: Bool) throws(SessionError) -> Int {
        guard let base = bytes.baseAddress, !bytes.isEmpty, wantsMore else { return 0 }
        var start = 0
        if header == nil {
            let newline = memchr(base, 0x0A, bytes.count)
            guard newline != nil || atEnd else { return 0 }
            let end = newline.map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? bytes.count
            lineCount = 1
            do {
                header = try SessionHeader.decode(UnsafeBufferPointer(rebasing: bytes[..<end]))
            } catch {
                throw SessionError(path: path, line: 1, error)
            }
            start = min(end + 1, bytes.count)
        }
        var end = bytes.count
        if !atEnd {
            while end > start, bytes[end - 1] != 0x0A { end -= 1 }
        }
        let ranges = splitting.pieces(of: start..<end, in: bytes)
        SessionPiece.read(ranges, of: bytes, byteOffset: byteCount, into: &content, lineOffset: lineCount, pieces: &pieces)
        byteCount += end
        for index in ranges.indices {
            join(index)
            guard wantsMore else { break }
        }
        return end
    }

    /// What a loader read.
    struct Loaded {
        var header: SessionHeader
        var content: Content
        /// How many lines had a kind the reader does not know.
        var unknownKindCount: Int
        /// The first damaged line, if any: nothing after it was kept.
        var damage: SessionError?
    }

    /// Whether the header was read.
    var hasHeader: Bool { header != nil }

    /// What the lines taken so far hold, moved out of the loader, which goes on with the lines
    /// after them (about `byteCount` bytes more) into a content of its own, numbering lines and
    /// bytes from where it is.
    mutating func takeContent(preparingFor byteCount: Int) -> Content {
        var content = Content()
        content.prepare(forBytes: byteCount)
        swap(&content, &self.content)
        return content
    }

    /// What the lines taken hold, moved out of the loader; throws when there was not even a
    /// header.
    mutating func finish() throws(SessionError) -> Loaded {
        guard let header else { throw SessionError(path: path, line: 1, .empty) }
        var content = Content()
        swap(&content, &self.content)
        return Loaded(header: header, content: content, unknownKindCount: unknownKindCount, damage: damage)
    }

    /// Adds the content (but that of the first piece, already there) and counts of piece
    /// `index`, the next one, with its lines moved past those before it.
    private mutating func join(_ index: Int) {
        let offset = lineCount
        if index > 0 {
            pieces[index].moveContent(to: &content, lineOffset: offset)
        }
        unknownKindCount += pieces[index].unknownKindCount
        lineCount += pieces[index].lineCount
        if let (line, reason) = pieces[index].damage {
            damage = SessionError(path: path, line: offset + line, reason)
        }
    }
}
