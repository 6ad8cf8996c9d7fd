#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a reader splits the lines it has read into pieces that threads read at once: one piece
/// per core, as long as each piece holds enough bytes to be worth a thread.
struct SessionSplitting: Sendable {
    /// The most pieces a run of lines is split into.
    var maximumPieces: Int
    /// The fewest bytes a piece holds; a run of fewer than twice as many is read whole.
    var minimumPieceBytes: Int
    /// How many bytes a file reader reads at a time, to split (more when a line is longer).
    var chunkBytes: Int

    /// One piece per online core, of 512 KiB at least, read 8 MiB per core (64 MiB at most)
    /// at a time.
    static let automatic = SessionSplitting(cores: activeProcessorCount())

    /// Pieces for `cores` threads, of 512 KiB at least, read 8 MiB per core (64 MiB at most)
    /// at a time.
    init(cores: Int) {
        self.init(maximumPieces: max(1, cores), minimumPieceBytes: 512 << 10, chunkBytes: min(max(1, cores) * 8 << 20, 64 << 20))
    }

    /// Splitting with the given limits (all at least 1).
    init(maximumPieces: Int, minimumPieceBytes: Int, chunkBytes: Int) {
        self.maximumPieces = max(1, maximumPieces)
        self.minimumPieceBytes = max(1, minimumPieceBytes)
        self.chunkBytes = max(1, chunkBytes)
    }

    /// The pieces of `range` in `bytes`, in order, together all of it: each ends just after a
    /// `\n` (the last one where `range` does), so that every piece holds whole lines.
    func pieces(of range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        let count = min(maximumPieces, range.count / minimumPieceBytes)
        guard count > 1, let base = bytes.baseAddress else { return range.isEmpty ? [] : [range] }
        var pieces: [Range<Int>] = []
        var start = range.lowerBound
        for piece in 1..<count {
            let target = range.lowerBound + range.count / count * piece
            guard target > start, target < range.upperBound else { continue }
            // The piece ends after the first line break at or after its share of the bytes.
            guard let newline = memchr(base + target, 0x0A, range.upperBound - target) else { break }
            let end = base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
            guard end < range.upperBound else { break }
            pieces.append(start..<end)
            start = end
        }
        pieces.append(start..<range.upperBound)
        return pieces
    }
}

/// How many cores are online; at least 1.
private func activeProcessorCount() -> Int {
    max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
}
