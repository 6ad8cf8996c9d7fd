import PatchbayCore

/// One step of a timeline as the history stores it: a `HistoryEntry` without its index (the
/// position in the log gives it), plus where each removed object key stood, which undoing the
/// removal needs to put the key back in its place.
///
/// In bytes: a flags byte, the changes (so that replaying a step stops before the action), then
/// the action and the optional fields that the flags announce, the failure last. Each change is
/// an operation byte, the path, a four-byte position slot for the removal of a key, the old value
/// (not for an add) and the new one (not for a remove).
struct StepRecord {
    struct Flags: OptionSet {
        let rawValue: UInt8
        static let skipped = Flags(rawValue: 1 << 0)
        static let failed = Flags(rawValue: 1 << 1)
        static let caused = Flags(rawValue: 1 << 2)
        static let delayed = Flags(rawValue: 1 << 3)
        static let unrecorded = Flags(rawValue: 1 << 4)
    }

    var changes: [ValueChange]
    /// For each change: the position of the key it removes in its object, when it removes a key
    /// and the position is known; `nil` otherwise.
    var positions: [Int?]
    var action: Value
    var skipped: Bool
    var failure: String?
    var cause: Int?
    var delayedReducer: String?
    var unrecorded: Bool

    /// The slot of a position not known yet.
    static let unknownPosition = UInt32.max

    /// The record of `entry`, with the positions of its removed keys not known yet.
    init(_ entry: HistoryEntry) {
        changes = entry.changes
        positions = Array(repeating: nil, count: entry.changes.count)
        action = entry.action
        skipped = entry.skipped
        failure = entry.failure
        cause = entry.cause
        delayedReducer = entry.delayedReducer
        unrecorded = entry.unrecorded
    }

    func entry(index: Int) -> HistoryEntry {
        HistoryEntry(index: index, action: action, changes: changes, failure: failure, skipped: skipped, cause: cause,
                     delayedReducer: delayedReducer, unrecorded: unrecorded)
    }

    /// Writes the record; returns whether it removes a key whose position is not known.
    func write(to writer: inout ByteWriter) -> Bool {
        Self.write(changes: changes, positions: positions, action: action, skipped: skipped, failure: failure,
                   cause: cause, delayedReducer: delayedReducer, unrecorded: unrecorded, to: &writer)
    }

    /// Writes a record from its parts, which are borrowed where a `StepRecord` would copy them:
    /// the way a new step is recorded, on every dispatch. `positions` is `nil` when no position
    /// is known, as for a new step. Returns whether the record removes a key whose position is
    /// not known.
    static func write(changes: [ValueChange], positions: [Int?]?, action: Value, skipped: Bool, failure: String?,
                      cause: Int?, delayedReducer: String?, unrecorded: Bool = false, to writer: inout ByteWriter) -> Bool {
        var flags: Flags = []
        if skipped { flags.insert(.skipped) }
        if failure != nil { flags.insert(.failed) }
        if cause != nil { flags.insert(.caused) }
        if delayedReducer != nil { flags.insert(.delayed) }
        if unrecorded { flags.insert(.unrecorded) }
        var hasUnknownPosition = false
        writer.writeByte(flags.rawValue)
        writer.writeVarint(UInt64(changes.count))
        for offset in changes.indices {
            let change = changes[offset]
            writer.writeByte(operationCode(change.operation))
            writer.writeVarint(UInt64(change.path.count))
            for component in change.path {
                switch component {
                case .key(let key):
                    writer.writeByte(0)
                    writer.writeString(key)
                case .index(let index):
                    writer.writeByte(1)
                    writer.writeSigned(index)
                }
            }
            if removesKey(change) {
                let position = positions?[offset]
                hasUnknownPosition = hasUnknownPosition || position == nil
                writer.writeFixed32(position.map { UInt32(truncatingIfNeeded: $0) } ?? unknownPosition)
            }
            if change.operation != .add { writer.writeValue(change.old ?? .null) }
            if change.operation != .remove { writer.writeValue(change.new ?? .null) }
        }
        writer.writeValue(action)
        if let cause { writer.writeSigned(cause) }
        if let delayedReducer { writer.writeString(delayedReducer) }
        // Last, so that clearing the flag is enough to forget it.
        if let failure { writer.writeString(failure) }
        return hasUnknownPosition
    }

    /// Reads a whole record.
    static func read(from reader: inout ByteReader) -> StepRecord {
        let flags = Flags(rawValue: reader.bytes[reader.offset])
        var changes: [ValueChange] = []
        var positions: [Int?] = []
        var changeReader = ChangeReader(step: reader, values: .both)
        while changeReader.next() {
            changes.append(changeReader.change)
            positions.append(changeReader.position)
        }
        reader = changeReader.end
        let action = reader.readValue()
        let cause = flags.contains(.caused) ? reader.readSigned() : nil
        let delayedReducer = flags.contains(.delayed) ? reader.readString() : nil
        let failure = flags.contains(.failed) ? reader.readString() : nil
        var record = StepRecord(HistoryEntry(index: 0, action: action, changes: changes, failure: failure,
                                             skipped: flags.contains(.skipped), cause: cause, delayedReducer: delayedReducer,
                                             unrecorded: flags.contains(.unrecorded)))
        record.positions = positions
        return record
    }

    /// Which of a change's values to decode: a replay forward needs only the new ones, a replay
    /// backward only the old ones.
    enum Values {
        /// `neither`: the paths alone.
        case old, new, both, neither
    }

    /// Whether undoing the change needs the position of a key.
    static func removesKey(_ change: ValueChange) -> Bool {
        guard change.operation == .remove, case .key? = change.path.last else { return false }
        return true
    }

    private static func operationCode(_ operation: ValueChange.Operation) -> UInt8 {
        switch operation {
        case .add: 0
        case .remove: 1
        case .replace: 2
        }
    }

    static func operation(_ code: UInt8) -> ValueChange.Operation {
        switch code {
        case 0: .add
        case 1: .remove
        default: .replace
        }
    }
}
