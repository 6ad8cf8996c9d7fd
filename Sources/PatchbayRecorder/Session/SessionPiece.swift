#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// What a run of whole lines of a session file after the header holds, read on its own so
/// that the runs of a large file can be read at once on several threads, then joined in order
/// by `SessionLoader`.
///
/// The first piece of a run reads straight into the load's content, after what is already
/// there; each of the others reads into a content of its own, which the loader then moves to
/// the load's. Reading stops at the first damaged line, as it does for the whole file.
struct SessionPiece<Content: SessionContent>: Sendable {
    /// What was read: the load's content, for the first piece; otherwise the piece's own, kept
    /// to read the next piece into.
    private var content = Content()
    /// How many lines, before any damage, had a kind this reader does not know.
    private(set) var unknownKindCount = 0
    /// The first damaged line, counted from 1 at the piece's first line.
    private(set) var damage: (line: Int, reason: SessionError.Reason)?
    /// How many lines were read: all the piece's lines, or those up to the damaged one.
    private(set) var lineCount = 0

    /// Reads the pieces `ranges` of `bytes` (in order, each of whole lines as
    /// `read(_:byteOffset:lineOffset:isFirst:)` wants) at once, one thread each while there are cores
    /// for them: the first into `content`, which holds the `lineOffset` lines before it, the
    /// others into `pieces`, for `moveContent(to:lineOffset:)`. The pieces already there are
    /// read into again, so that their storage serves more than once. `bytes` starts at byte
    /// `byteOffset` of the session.
    static func read(_ ranges: [Range<Int>], of bytes: UnsafeBufferPointer<UInt8>, byteOffset: Int, into content: inout Content,
                     lineOffset: Int, pieces: inout [SessionPiece]) {
        guard !ranges.isEmpty else { return }
        if pieces.count > ranges.count { pieces.removeLast(pieces.count - ranges.count) }
        while pieces.count < ranges.count { pieces.append(SessionPiece()) }
        swap(&content, &pieces[0].content)
        defer { swap(&content, &pieces[0].content) }
        guard ranges.count > 1 else {
            pieces[0].read(UnsafeBufferPointer(rebasing: bytes[ranges[0]]), byteOffset: byteOffset + ranges[0].lowerBound,
                           lineOffset: lineOffset, isFirst: true)
            return
        }
        pieces.withUnsafeMutableBufferPointer { slots in
            let work = PieceWork(bytes: bytes, byteOffset: byteOffset, ranges: ranges, lineOffset: lineOffset, slots: slots)
            DispatchQueue.concurrentPerform(iterations: ranges.count) { index in work.read(index) }
        }
    }

    /// Reads `lines` (whole lines each ended by `\n`, except perhaps the last one, which is
    /// then the last line of the file; they start at byte `byteOffset` of the session) into the
    /// piece, in place of what it read before. Its lines are numbered after `lineOffset`; the
    /// first piece adds to the content there is, the others read alone.
    private mutating func read(_ lines: UnsafeBufferPointer<UInt8>, byteOffset: Int, lineOffset: Int, isFirst: Bool) {
        unknownKindCount = 0
        damage = nil
        lineCount = 0
        if !isFirst { content.prepare(forBytes: lines.count) }
        guard let base = lines.baseAddress else { return }
        var parser = SessionLineParser()
        var start = 0
        while start < lines.count, damage == nil {
            let end: Int
            if let newline = memchr(base + start, 0x0A, lines.count - start) {
                end = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
            } else {
                end = lines.count
            }
            take(UnsafeBufferPointer(rebasing: lines[start..<end]), isTerminated: end < lines.count, offset: byteOffset + start,
                 lineOffset: lineOffset, parser: &parser)
            start = end + 1
        }
        if !isFirst { content.finishPiece() }
    }

    /// Moves what the piece (other than the first) read, in order, to the end of `content`,
    /// with `lineOffset` added to its lines.
    mutating func moveContent(to content: inout Content, lineOffset: Int) {
        content.moveContent(of: &self.content, lineOffset: lineOffset)
    }

    /// Reads one line, which starts at byte `offset` of the session: `line` is without its
    /// `\n`; `isTerminated` says whether it had one.
    private mutating func take(_ line: UnsafeBufferPointer<UInt8>, isTerminated: Bool, offset: Int, lineOffset: Int,
                               parser: inout SessionLineParser) {
        lineCount += 1
        guard !Self.isBlank(line) else { return }
        do {
            if try !content.read(line, line: lineOffset + lineCount, offset: offset, parser: &parser) { unknownKindCount += 1 }
        } catch {
            var reason = error
            if case .notJSON(let jsonError) = error, !isTerminated, jsonError.offset >= line.count {
                reason = .cutShort
            }
            damage = (lineCount, reason)
        }
    }

    /// Whether `line` holds nothing but white space.
    private static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// The pieces that `read(_:of:byteOffset:into:lineOffset:pieces:)` hands to its threads.
    ///
    /// It is `@unchecked Sendable` because it holds pointers, which are not, yet sharing them
    /// is safe: the bytes are only read, and nothing writes them while the threads run; each
    /// thread writes only the piece of its own index (the first piece holding the load's content
    /// alone), and `concurrentPerform` returns only after every thread is done, so the pieces
    /// are read (by the loader) strictly after they are written. It lives no longer than the
    /// `concurrentPerform` call that uses it.
    private struct PieceWork: @unchecked Sendable {
        let bytes: UnsafeBufferPointer<UInt8>
        let byteOffset: Int
        let ranges: [Range<Int>]
        let lineOffset: Int
        let slots: UnsafeMutableBufferPointer<SessionPiece>

        /// Reads piece `index` into its slot.
        func read(_ index: Int) {
            let lines = UnsafeBufferPointer(rebasing: bytes[ranges[index]])
            slots[index].read(lines, byteOffset: byteOffset + ranges[index].lowerBound, lineOffset: index == 0 ? lineOffset : 0,
                              isFirst: index == 0)
        }
    }
}
