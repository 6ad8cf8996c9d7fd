/// The steps of one timeline as `StepRecord` bytes, in chunks of a fixed number of steps.
///
/// A chunk is two arrays (the bytes and where each step starts), so copying a log shares every
/// chunk: a branch keeps its parent's steps before the fork without copying them, and changing a
/// step copies only its chunk.
struct StepLog {
    static let stepsPerChunk = 4096

    private struct Chunk {
        var bytes = ByteWriter()
        var starts: [UInt32] = []
    }

    private var chunks: [Chunk] = []
    /// How many steps the log holds; step `index` (1-based) is its `index - 1`th record.
    private(set) var count = 0

    /// Appends the next step, whose record `write` writes (as `StepRecord.write` does); returns
    /// what `write` returns: whether the step removes a key whose position is not known.
    /// Always inlined into `History.record` (see there).
    @inline(__always)
    mutating func append(_ write: (inout ByteWriter) -> Bool) -> Bool {
        if count % Self.stepsPerChunk == 0 {
            if !chunks.isEmpty { chunks[chunks.count - 1].bytes.shrinkToFit() }
            var chunk = Chunk()
            chunk.starts.reserveCapacity(Self.stepsPerChunk)
            chunks.append(chunk)
        }
        let last = chunks.count - 1
        chunks[last].starts.append(UInt32(chunks[last].bytes.count))
        count += 1
        return write(&chunks[last].bytes)
    }

    /// A reader at the start of step `index` (1...count).
    func reader(at index: Int) -> ByteReader {
        let (chunk, slot) = Self.location(of: index)
        return ByteReader(bytes: chunks[chunk].bytes.bytes, offset: Int(chunks[chunk].starts[slot]))
    }

    func record(at index: Int) -> StepRecord {
        var reader = reader(at: index)
        return StepRecord.read(from: &reader, index: index)
    }

    func flags(at index: Int) -> StepRecord.Flags {
        var reader = reader(at: index)
        return StepRecord.Flags(rawValue: reader.readByte())
    }

    mutating func setFlags(_ flags: StepRecord.Flags, at index: Int) {
        let (chunk, slot) = Self.location(of: index)
        chunks[chunk].bytes.patch(flags.rawValue, at: Int(chunks[chunk].starts[slot]))
    }

    /// Fills in the position slot at byte `offset` of step `index`'s chunk.
    mutating func setPosition(_ position: Int, slot offset: Int, at index: Int) {
        let (chunk, _) = Self.location(of: index)
        chunks[chunk].bytes.patchFixed32(UInt32(truncatingIfNeeded: position), at: offset)
    }

    /// Keeps the first `count` steps.
    mutating func truncate(to count: Int) {
        guard count < self.count else { return }
        let keptChunks = (count + Self.stepsPerChunk - 1) / Self.stepsPerChunk
        chunks.removeSubrange(keptChunks...)
        let inLast = count - (keptChunks - 1) * Self.stepsPerChunk
        if keptChunks > 0, inLast < chunks[keptChunks - 1].starts.count {
            let end = Int(chunks[keptChunks - 1].starts[inLast])
            chunks[keptChunks - 1].starts.removeSubrange(inLast...)
            chunks[keptChunks - 1].bytes.truncate(to: end)
        }
        self.count = count
    }

    /// The bytes the records take, with their start offsets.
    var byteCount: Int {
        chunks.reduce(0) { $0 + $1.bytes.count + 4 * $1.starts.count }
    }

    private static func location(of index: Int) -> (chunk: Int, slot: Int) {
        ((index - 1) / stepsPerChunk, (index - 1) % stepsPerChunk)
    }
}
