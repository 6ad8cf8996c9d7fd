/// What Tab can insert: candidates for the word that ends at the cursor.
@_spi(Shell)
public struct Completion: Sendable, Equatable {
    /// The UTF-8 range of the line that a candidate replaces (the word before the cursor).
    public var range: Range<Int>
    /// Every candidate, sorted, without duplicates.
    public var candidates: [String]

    public init(range: Range<Int>, candidates: [String]) {
        self.range = range
        self.candidates = candidates
    }

    /// The longest prefix all candidates share, in Unicode scalars (candidates that differ only
    /// in normalisation share none of the part where they differ).
    public var commonPrefix: String {
        guard let first = candidates.first else { return "" }
        var prefix = Array(first.unicodeScalars)
        for candidate in candidates.dropFirst() {
            prefix = Array(zip(prefix, candidate.unicodeScalars).prefix { $0 == $1 }.map(\.0))
        }
        var text = ""
        text.unicodeScalars.append(contentsOf: prefix)
        return text
    }
}
