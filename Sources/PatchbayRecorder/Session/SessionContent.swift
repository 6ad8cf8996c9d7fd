/// What a session reader builds from the lines after the header: the events of a `SessionLoad`
/// (`RecordedEvents`), or the commands of a replay with their effect lines (`SessionScript`).
///
/// The lines are read in pieces at once (see `SessionPiece`): the first piece of a run reads
/// straight into the content being built, each other piece into a content of its own, which
/// `moveContent(of:lineOffset:)` then moves to the end of the first, in order.
protocol SessionContent: Sendable {
    /// Nothing read yet.
    init()

    /// Forgets what was read (keeping the storage), to read a piece of about `byteCount` bytes
    /// alone.
    mutating func prepare(forBytes byteCount: Int)

    /// Reads one line that is not blank, without its line break: line `line` of what was read,
    /// starting at byte `offset` of the session's bytes. Returns `false` for a line of a kind
    /// this reader does not know, which is skipped; throws for a damaged line.
    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, offset: Int, parser: inout SessionLineParser)
        throws(SessionError.Reason) -> Bool

    /// Called, on the piece's own thread, when a piece other than the first has read its lines.
    mutating func finishPiece()

    /// Moves what `piece` read (a piece other than the first) to the end of this content, with
    /// `lineOffset` added to its lines.
    mutating func moveContent(of piece: inout Self, lineOffset: Int)
}
