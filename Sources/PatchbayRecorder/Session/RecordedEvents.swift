/// The events of a session file, each decoded with its line: what `SessionReader` builds for a
/// `SessionLoad`.
struct RecordedEvents: SessionContent {
    /// The events read: in file order, except in a piece other than the first, which keeps
    /// them in reverse order (the last first) once it is done, so that
    /// `moveContent(of:lineOffset:)` can take them from the end.
    var events: [RecordedEvent] = []

    init() {}

    mutating func prepare(forBytes byteCount: Int) {
        events.removeAll(keepingCapacity: true)
        // Action lines take about 150 bytes: room for all the events at once, where most are
        // actions, saves growing (and copying) the list as it fills.
        events.reserveCapacity(byteCount / 160)
    }

    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, offset: Int, parser: inout SessionLineParser)
        throws(SessionError.Reason) -> Bool
    {
        try parser.parse(bytes)
        let seq = try parser.fields.int(.seq)
        guard let event = try SessionEvent.decode(&parser.fields) else { return false }
        events.append(RecordedEvent(line: line, seq: seq, event: event))
        return true
    }

    mutating func finishPiece() {
        // Swapping in the buffer moves the events; swapping in the array might copy them.
        events.withUnsafeMutableBufferPointer { $0.reverse() }
    }

    /// Moves the events one by one from the end of the piece's list, which leaves their values
    /// where they are: copying them (as `append(contentsOf:)` does) would count a reference to
    /// every string, array and object in them, and letting the piece go would count them down
    /// again, which costs about as much as the rest of joining large files.
    mutating func moveContent(of piece: inout RecordedEvents, lineOffset: Int) {
        while !piece.events.isEmpty {
            var event = piece.events.removeLast()
            event.line += lineOffset
            events.append(consume event)
        }
    }
}
