@_spi(Shell) import PatchbayCore

/// One step of a timeline as the history stores it: the step (its store's name and its index
/// are the history's and the log's, so a record read back leaves the store empty until the
/// history names it) plus where each removed object key stood, which undoing the removal needs to
/// put the key back in its place.
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
        static let sited = Flags(rawValue: 1 << 5)
    }

    var step: StoreStep<ValueChange>
    /// For each change: the position of the key it removes in its object, when it removes a key
    /// and the position is known; `nil` otherwise.
    var positions: [Int?]

    /// The slot of a position not known yet.
    static let unknownPosition = UInt32.max

    /// The record of `step`, with the positions of its removed keys not known yet.
    init(_ step: StoreStep<ValueChange>) {
        self.step = step
        positions = Array(repeating: nil, count: step.changes.count)
    }

    /// The step, as the history of `store` shows it.
    func step(store: String) -> StoreStep<ValueChange> {
        var step = step
        step.store = store
        return step
    }

    /// Writes the record; returns whether it removes a key whose position is not known.
    func write(to writer: inout ByteWriter) -> Bool {
        Self.write(step, positions: positions, to: &writer)
    }

    /// Writes the record of `step` (borrowed, where a `StepRecord` would copy it: the way a new
    /// step is recorded, on every dispatch). `positions` is `nil` when no position is known, as
    /// for a new step. Returns whether the record removes a key whose position is not known.
    static func write(_ step: borrowing StoreStep<ValueChange>, positions: [Int?]?, to writer: inout ByteWriter) -> Bool {
        var flags: Flags = []
        if step.skipped { flags.insert(.skipped) }
        if step.failure != nil { flags.insert(.failed) }
        if step.cause != nil { flags.insert(.caused) }
        if step.delayedReducer != nil { flags.insert(.delayed) }
        if step.unrecorded { flags.insert(.unrecorded) }
        if step.site != nil { flags.insert(.sited) }
        var hasUnknownPosition = false
        writer.writeByte(flags.rawValue)
        writer.writeVarint(UInt64(step.changes.count))
        for offset in step.changes.indices {
            let change = step.changes[offset]
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
        writer.writeValue(step.action)
        if let cause = step.cause { writer.writeSigned(cause) }
        if let delayedReducer = step.delayedReducer { writer.writeString(delayedReducer) }
        if let site = step.site { writeSite(site, to: &writer) }
        // Last, so that clearing the flag is enough to forget it.
        if let failure = step.failure { writer.writeString(failure) }
        return hasUnknownPosition
    }

    /// Reads the whole record of step `index`.
    static func read(from reader: inout ByteReader, index: Int) -> StepRecord {
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
        let site = flags.contains(.sited) ? readSite(from: &reader) : nil
        let failure = flags.contains(.failed) ? reader.readString() : nil
        var record = StepRecord(StoreStep<ValueChange>(store: "", index: index, action: action, changes: changes, failure: failure, cause: cause,
                                          delayedReducer: delayedReducer, skipped: flags.contains(.skipped),
                                          unrecorded: flags.contains(.unrecorded), site: site))
        record.positions = positions
        return record
    }

    /// Writes a step's site: 0, the file and the line of a line of the app; or 1, the number of
    /// links and each link of the shell's chain.
    private static func writeSite(_ site: ActionSite, to writer: inout ByteWriter) {
        switch site {
        case .source(let site):
            writer.writeByte(0)
            writer.writeString(site.file)
            writer.writeSigned(site.line)
        case .shell(let chain):
            writer.writeByte(1)
            writer.writeVarint(UInt64(chain.count))
            for link in chain { writer.writeString(link) }
        }
    }

    /// Reads what `writeSite` wrote.
    private static func readSite(from reader: inout ByteReader) -> ActionSite {
        if reader.readByte() == 0 {
            let file = reader.readString()
            return .source(CallSite(file: file, line: reader.readSigned()))
        }
        return .shell((0..<reader.readCount()).map { _ in reader.readString() })
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
