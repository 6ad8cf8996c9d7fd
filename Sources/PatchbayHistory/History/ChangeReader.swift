@_spi(Shell) import PatchbayCore

/// Reads the changes of one step record one at a time, into fields reused from change to change:
/// a replay applies them without building a `ValueChange` and its path for each.
struct ChangeReader {
    private var reader: ByteReader
    private var remaining: Int
    private let values: StepRecord.Values
    private(set) var operation = ValueChange.Operation.replace
    private(set) var path: [ValueChange.PathComponent] = []
    /// Where the key that a removal removes stood, when known.
    private(set) var position: Int?
    /// The offset of a removal's position slot in the record's bytes.
    private(set) var slot: Int?
    /// The old value, unless `values` is `.new` or the change is an add.
    private(set) var old: Value?
    /// The new value, unless `values` is `.old` or the change is a remove.
    private(set) var new: Value?

    /// A reader of the changes of the step whose record starts at `step`.
    init(step: ByteReader, values: StepRecord.Values) {
        reader = step
        _ = reader.readByte()
        remaining = reader.readCount()
        self.values = values
    }

    /// Whether the change read last is the step's last.
    var isLast: Bool { remaining == 0 }

    /// The change read last.
    var change: ValueChange {
        ValueChange(path: path, operation: operation, old: old, new: new)
    }

    /// A reader where the changes end, once `next()` has returned `false`.
    var end: ByteReader { reader }

    /// Reads the next change; `false` when there is none.
    mutating func next() -> Bool {
        guard remaining > 0 else { return false }
        remaining -= 1
        operation = StepRecord.operation(reader.readByte())
        path.removeAll(keepingCapacity: true)
        for _ in 0..<reader.readCount() {
            path.append(reader.readByte() == 0 ? .key(reader.readString()) : .index(reader.readSigned()))
        }
        position = nil
        slot = nil
        if operation == .remove, case .key? = path.last {
            slot = reader.offset
            let stored = reader.readFixed32()
            position = stored == StepRecord.unknownPosition ? nil : Int(stored)
        }
        old = nil
        new = nil
        if operation != .add {
            if values == .old || values == .both { old = reader.readValue() } else { reader.skipValue() }
        }
        if operation != .remove {
            if values == .new || values == .both { new = reader.readValue() } else { reader.skipValue() }
        }
        return true
    }
}
