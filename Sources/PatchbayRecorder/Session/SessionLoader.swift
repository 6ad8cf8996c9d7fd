/// Builds a `SessionLoad` from a session's lines, given one at a time in file order.
struct SessionLoader {
    private let path: String?
    private var header: SessionHeader?
    private var events: [RecordedEvent] = []
    private var unknownKindCount = 0
    private var damage: SessionError?
    private var lineNumber = 0
    private var parser = SessionLineParser()

    /// A loader for the file at `path` (if any) of `size` bytes, about.
    init(path: String?, size: Int) {
        self.path = path
        // Action lines take about 150 bytes: room for all the events at once, where most are
        // actions, saves growing (and copying) the list as it fills.
        events.reserveCapacity(size / 160)
    }

    /// Whether more lines are wanted: not after damage.
    var wantsMore: Bool { damage == nil }

    /// Reads the next line (without its `\n`; `isTerminated` says whether it had one).
    /// Throws for a bad header; damage later is kept for the load.
    mutating func take(_ line: UnsafeBufferPointer<UInt8>, isTerminated: Bool) throws(SessionError) {
        lineNumber += 1
        guard header != nil else {
            do {
                header = try SessionHeader.decode(line)
            } catch {
                throw SessionError(path: path, line: lineNumber, error)
            }
            return
        }
        guard damage == nil, !Self.isBlank(line) else { return }
        do {
            try parser.parse(line)
            let (seq, event) = try SessionEvent.decode(parser.fields)
            if let event {
                events.append(RecordedEvent(line: lineNumber, seq: seq, event: event))
            } else {
                unknownKindCount += 1
            }
        } catch {
            var reason = error
            if case .notJSON(let jsonError) = error, !isTerminated, jsonError.offset >= line.count {
                reason = .cutShort
            }
            damage = SessionError(path: path, line: lineNumber, reason)
        }
    }

    /// The load of the lines taken; throws when there was not even a header.
    func finish() throws(SessionError) -> SessionLoad {
        guard let header else { throw SessionError(path: path, line: 1, .empty) }
        return SessionLoad(header: header, events: events, unknownKindCount: unknownKindCount, damage: damage)
    }

    /// Whether `line` holds nothing but white space.
    private static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }
}
