/// Suggestions for misspelled names ("did you mean ...?").
package enum Spelling {
    /// The candidate closest to `word` by edit distance, when it is close enough to be a likely
    /// typo: at most a third of the word's length, and at least one edit allowed. Of candidates
    /// equally close, the first in code-point order, so that the answer does not depend on the
    /// order of `candidates` (often the keys of a dictionary, which differs from run to run).
    package static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let target = Array(word.lowercased().unicodeScalars)
        guard !target.isEmpty else { return nil }
        let limit = Swift.max(1, target.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != word {
            let distance = editDistance(target, Array(candidate.lowercased().unicodeScalars))
            guard distance <= limit else { continue }
            if let best, distance > best.distance || (distance == best.distance && best.name.unicodeScalars.lexicographicallyPrecedes(candidate.unicodeScalars)) {
                continue
            }
            best = (candidate, distance)
        }
        return best?.name
    }

    /// `names` as a message lists them, separated by commas: the first `limit`, then `...` when
    /// there are more (`nodes: a, b, c`).
    package static func list(_ names: [String], limit: Int = 12) -> String {
        names.count > limit ? names.prefix(limit).joined(separator: ", ") + ", ..." : names.joined(separator: ", ")
    }

    /// The words one edit away from `word` (an insertion, a deletion, a replacement or a
    /// transposition of neighbours) made of letters, digits and `_`, as names are: the candidates
    /// to try when the names a word may misspell cannot be listed, only tested one by one.
    /// None for a word longer than `maxLength`, which no name would be.
    static func oneEditAway(from word: String, maxLength: Int = 64) -> [String] {
        let letters = Array(word.unicodeScalars)
        guard letters.count <= maxLength else { return [] }
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_".unicodeScalars)
        var words: [[Unicode.Scalar]] = []
        for position in 0...letters.count {
            for letter in alphabet { words.append(letters[..<position] + [letter] + letters[position...]) }
            guard position < letters.count else { continue }
            words.append(Array(letters[..<position] + letters[(position + 1)...]))
            for letter in alphabet where letter != letters[position] {
                var replaced = letters
                replaced[position] = letter
                words.append(replaced)
            }
            if position + 1 < letters.count {
                var swapped = letters
                swapped.swapAt(position, position + 1)
                words.append(swapped)
            }
        }
        return words.map { String(String.UnicodeScalarView($0)) }
    }

    /// Levenshtein distance, with a transposition of neighbours counting as one edit.
    package static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = Swift.min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
