/// Turns UTF-8 offsets in a (possibly multi-line) command into lines and columns.
struct TextPosition: Equatable {
    /// 0-based line within the command.
    var lineIndex: Int
    /// 1-based column, counted in characters.
    var column: Int
    /// The text of that line.
    var lineText: Substring

    init(offset: Int, in text: String) {
        let utf8 = text.utf8
        let clamped = Swift.max(0, Swift.min(offset, utf8.count))
        let target = utf8.index(utf8.startIndex, offsetBy: clamped)
        var lineStart = text.startIndex
        var lineIndex = 0
        var index = text.startIndex
        while index < target {
            if text[index] == "\n" {
                lineIndex += 1
                lineStart = text.index(after: index)
            }
            index = text.index(after: index)
        }
        let lineEnd = text[lineStart...].firstIndex(of: "\n") ?? text.endIndex
        self.lineIndex = lineIndex
        self.lineText = text[lineStart..<lineEnd]
        let prefixEnd = Swift.min(target, lineEnd)
        self.column = text[lineStart..<(prefixEnd < lineStart ? lineStart : prefixEnd)].count + 1
    }
}
