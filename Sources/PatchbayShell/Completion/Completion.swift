/// What Tab can insert: candidates for the word that ends at the cursor.
public struct Completion: Sendable, Equatable {
    /// The UTF-8 range of the line that a candidate replaces (the word before the cursor).
    public var range: Range<Int>
    /// Every candidate, sorted, without duplicates.
    public var candidates: [String]

    public init(range: Range<Int>, candidates: [String]) {
        self.range = range
        self.candidates = candidates
    }

    /// The longest prefix all candidates share.
    public var commonPrefix: String {
        guard var prefix = candidates.first else { return "" }
        for candidate in candidates.dropFirst() {
            prefix = String(zip(prefix, candidate).prefix { $0 == $1 }.map(\.0))
        }
        return prefix
    }
}
