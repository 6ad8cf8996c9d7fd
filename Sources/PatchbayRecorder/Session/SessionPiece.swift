#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// The events of a run of whole lines of a session file after the header, read on their own
/// so that the runs of a large file can be read at once on several threads, then joined in
/// order by `SessionLoader`.
///
/// The first piece of a run reads straight into the load's list of events, after those already
/// there; each of the others reads into a list of its own, whose events the loader then moves
/// to the load's list. Reading stops at the first damaged line, as it does for the whole file.
struct SessionPiece: Sendable {
    /// The events read: the load's list, for the first piece; otherwise the piece's own, in
    /// reverse order (the last first), so that `moveEvents(to:lineOffset:)` can take them
    /// from the end, and kept to read the next piece into.
    private var events: [RecordedEvent] = []
    /// How many lines, before any damage, had a kind this reader does not know.
    private(set) var unknownKindCount = 0
    /// The first damaged line, counted from 1 at the piece's first line.
    private(set) var damage: (line: Int, reason: SessionError.Reason)?
    /// How many lines were read: all the piece's lines, or those up to the damaged one.
    private(set) var lineCount = 0

    /// Reads the pieces `ranges` of `bytes` (in order, each of whole lines as
    /// `read(_:lineOffset:isFirst:)` wants) at once, one thread each while there are cores
    /// for them: the first into `list`, whose events so far are those of the `lineOffset`
    /// lines before it, the others into `pieces`, for `moveEvents(to:lineOffset:)`. The
    /// pieces already there are read into again, so that their storage serves more than once.
    static func read(_ ranges: [Range<Int>], of bytes: UnsafeBufferPointer<UInt8>, into list: inout [RecordedEvent],
                     lineOffset: Int, pieces: inout [SessionPiece]) {
        guard !ranges.isEmpty else { return }
        if pieces.count > ranges.count { pieces.removeLast(pieces.count - ranges.count) }
        while pieces.count < ranges.count { pieces.append(SessionPiece()) }
        swap(&list, &pieces[0].events)
        defer { swap(&list, &pieces[0].events) }
        guard ranges.count > 1 else {
            pieces[0].read(UnsafeBufferPointer(rebasing: bytes[ranges[0]]), lineOffset: lineOffset, isFirst: true)
            return
        }
        pieces.withUnsafeMutableBufferPointer { slots in
            let work = PieceWork(bytes: bytes, ranges: ranges, lineOffset: lineOffset, slots: slots)
            DispatchQueue.concurrentPerform(iterations: ranges.count) { index in work.read(index) }
        }
    }

    /// Reads `lines` (whole lines each ended by `\n`, except perhaps the last one, which is
    /// then the last line of the file) into the piece, in place of what it read before. The
    /// events get the lines after `lineOffset`; the first piece adds them to the events there
    /// are, in order, the others keep them alone, in reverse order.
    private mutating func read(_ lines: UnsafeBufferPointer<UInt8>, lineOffset: Int, isFirst: Bool) {
        unknownKindCount = 0
        damage = nil
        lineCount = 0
        if !isFirst {
            events.removeAll(keepingCapacity: true)
            // Action lines take about 150 bytes: room for all the events at once, where most
            // are actions, saves growing (and copying) the list as it fills.
            events.reserveCapacity(lines.count / 160)
        }
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
            take(UnsafeBufferPointer(rebasing: lines[start..<end]), isTerminated: end < lines.count, lineOffset: lineOffset, parser: &parser)
            start = end + 1
        }
        if !isFirst {
            // Swapping in the buffer moves the events; swapping in the array might copy them.
            events.withUnsafeMutableBufferPointer { $0.reverse() }
        }
    }

    /// Moves the events (of a piece other than the first), in order, to the end of `list`,
    /// with `lineOffset` added to their lines.
    ///
    /// The events are moved one by one from the end of the piece's list, which leaves their
    /// values where they are: copying them (as `append(contentsOf:)` does) would count a
    /// reference to every string, array and object in them, and letting the piece go would
    /// count them down again, which costs about as much as the rest of joining large files.
    mutating func moveEvents(to list: inout [RecordedEvent], lineOffset: Int) {
        while !events.isEmpty {
            var event = events.removeLast()
            event.line += lineOffset
            list.append(consume event)
        }
    }

    /// Reads one line: `line` is without its `\n`; `isTerminated` says whether it had one.
    private mutating func take(_ line: UnsafeBufferPointer<UInt8>, isTerminated: Bool, lineOffset: Int, parser: inout SessionLineParser) {
        lineCount += 1
        guard !Self.isBlank(line) else { return }
        do {
            try parser.parse(line)
            let seq = try parser.fields.int(.seq)
            switch try SessionEvent.decode(&parser.fields) {
            case let event?: events.append(RecordedEvent(line: lineOffset + lineCount, seq: seq, event: event))
            case nil: unknownKindCount += 1
            }
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

    /// The pieces that `read(_:of:into:lineOffset:pieces:)` hands to its threads.
    ///
    /// It is `@unchecked Sendable` because it holds pointers, which are not, yet sharing them
    /// is safe: the bytes are only read, and nothing writes them while the threads run; each
    /// thread writes only the piece of its own index (the first piece holding the load's list
    /// alone), and `concurrentPerform` returns only after every thread is done, so the pieces
    /// are read (by the loader) strictly after they are written. It lives no longer than the
    /// `concurrentPerform` call that uses it.
    private struct PieceWork: @unchecked Sendable {
        let bytes: UnsafeBufferPointer<UInt8>
        let ranges: [Range<Int>]
        let lineOffset: Int
        let slots: UnsafeMutableBufferPointer<SessionPiece>

        /// Reads piece `index` into its slot.
        func read(_ index: Int) {
            let lines = UnsafeBufferPointer(rebasing: bytes[ranges[index]])
            slots[index].read(lines, lineOffset: index == 0 ? lineOffset : 0, isFirst: index == 0)
        }
    }
}
