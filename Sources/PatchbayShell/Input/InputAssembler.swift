/// Joins physical lines into commands (PatchbayHost.docc/CommandLanguageTour.md).
///
/// A line that leaves a `(`, `[` or `{`, or a string, open continues on the next line, and so does
/// a line that ends in `\` (the backslash and newline then read as white space). A `#` at the start of a word, outside strings, starts a comment that
/// runs to the end of the line, except a `#` followed by a digit after the line's first word (a step
/// number, `history --from #3`); comments are removed from the command text, which keeps every
/// other character at its column.
@_spi(Shell)
public struct InputAssembler: Sendable {
    private var text = ""
    private var lineCount = 0
    private var scanner = Scanner()

    public init() {}

    /// Whether an earlier line left the command open.
    public var isPending: Bool { lineCount > 0 }

    /// What is still open, for the continuation prompt and for the error at the end of input.
    public var openConstruct: String? {
        guard isPending else { return nil }
        if let quote = scanner.openQuote { return "a string (\(Character(Unicode.Scalar(quote))) ... \(Character(Unicode.Scalar(quote))))" }
        if let bracket = scanner.brackets.last { return "'\(Character(Unicode.Scalar(bracket)))'" }
        return "a line continued with '\\'"
    }

    /// How many physical lines the pending command has taken so far.
    public var pendingLineCount: Int { lineCount }

    /// Adds one physical line (without its newline). Returns the complete command when the line
    /// closes it, or `nil` when more lines are needed.
    public mutating func add(_ line: String) -> String? {
        var bytes = Array(line.utf8)
        let (commentStart, continues) = scanner.scan(&bytes)
        if let commentStart { bytes.removeSubrange(commentStart...) }
        var trimmedEnd = bytes.count
        while trimmedEnd > 0, bytes[trimmedEnd - 1] == UInt8(ascii: " ") || bytes[trimmedEnd - 1] == UInt8(ascii: "\t") {
            trimmedEnd -= 1
        }
        // A trailing backslash stays: with the newline after it, it reads as white space.
        let backslash = !continues && trimmedEnd > 0 && bytes[trimmedEnd - 1] == UInt8(ascii: "\\")
        if backslash { bytes.removeSubrange(trimmedEnd...) }
        if lineCount > 0 { text += "\n" }
        text += String(decoding: bytes, as: UTF8.self)
        lineCount += 1
        guard !continues, !backslash else { return nil }
        let command = text
        reset()
        return command
    }

    /// Drops a pending command (Ctrl-C at a continuation prompt).
    public mutating func reset() {
        text = ""
        lineCount = 0
        scanner = Scanner()
    }

    /// Tracks brackets and strings across lines.
    struct Scanner: Sendable {
        /// Open brackets, innermost last; inside a string interpolation `\(`, the `(` is here too.
        var brackets: [UInt8] = []
        /// The quote of the open string, if any.
        var openQuote: UInt8?
        /// For each open interpolation, the quote of the string to return to and the bracket depth
        /// at which it was opened.
        var interpolations: [(quote: UInt8, depth: Int)] = []

        /// Scans one line; returns where a comment starts, and whether the command continues.
        mutating func scan(_ bytes: inout [UInt8]) -> (commentStart: Int?, continues: Bool) {
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if let quote = openQuote {
                    if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                        if bytes[index + 1] == UInt8(ascii: "(") {
                            interpolations.append((quote, brackets.count))
                            brackets.append(UInt8(ascii: "("))
                            openQuote = nil
                        }
                        index += 2
                        continue
                    }
                    if byte == quote { openQuote = nil }
                    index += 1
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    openQuote = byte
                case UInt8(ascii: "#") where index == 0 || bytes[index - 1] == UInt8(ascii: " ") || bytes[index - 1] == UInt8(ascii: "\t"):
                    // `#3` is a step (`history --from #3`), not a comment.
                    if index > 0, index + 1 < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index + 1]) { break }
                    return (index, !brackets.isEmpty)
                case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                    brackets.append(byte)
                case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                    if !brackets.isEmpty { brackets.removeLast() }
                    if let last = interpolations.last, byte == UInt8(ascii: ")"), brackets.count == last.depth {
                        interpolations.removeLast()
                        openQuote = last.quote
                    }
                default:
                    break
                }
                index += 1
            }
            return (nil, !brackets.isEmpty || openQuote != nil)
        }
    }
}
