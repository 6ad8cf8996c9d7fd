/// What reading a session file gave: its header, the events up to any damage, and the damage.
@_spi(Shell)
public struct SessionLoad: Sendable, Equatable {
    /// The file's first line.
    public var header: SessionHeader
    /// The events in file order, each with its line.
    public var events: [RecordedEvent]
    /// How many lines had a kind this reader does not know (written by a newer patchbay); they
    /// were skipped.
    public var unknownKindCount: Int
    /// The first damaged line, if any: reading stopped there, and `events` holds everything
    /// before it.
    public var damage: SessionError?

    /// A load of `events` under `header`.
    public init(header: SessionHeader, events: [RecordedEvent], unknownKindCount: Int = 0, damage: SessionError? = nil) {
        self.header = header
        self.events = events
        self.unknownKindCount = unknownKindCount
        self.damage = damage
    }
}

/// An event as it stands in a file: its line and sequence number.
@_spi(Shell)
public struct RecordedEvent: Sendable, Equatable {
    /// The line in the file: 2 for the first event after the header.
    public var line: Int
    /// The `seq` the writer gave it.
    public var seq: Int
    /// What happened.
    public var event: SessionEvent

    /// `event` read from `line` with sequence number `seq`.
    public init(line: Int, seq: Int, event: SessionEvent) {
        self.line = line
        self.seq = seq
        self.event = event
    }
}
