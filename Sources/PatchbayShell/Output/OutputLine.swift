/// One line the shell wants printed, and where.
public struct OutputLine: Sendable, Equatable {
    public enum Stream: Sendable, Equatable {
        case output
        case error
    }

    public var stream: Stream
    /// The text, without a trailing newline (it may contain newlines).
    public var text: String

    public init(_ text: String, to stream: Stream = .output) {
        self.stream = stream
        self.text = text
    }
}

extension OutputLine {
    /// Whether the standard-output `lines` take more than `limit` rows of a terminal `width`
    /// columns wide (a line longer than the width wraps; colour escapes take no room).
    static func rows(of lines: [OutputLine], width: Int, moreThan limit: Int) -> Bool {
        var rows = 0
        for line in lines where line.stream == .output {
            for row in line.text.split(separator: "\n", omittingEmptySubsequences: false) {
                rows += Swift.max(1, (visibleWidth(row) + width - 1) / Swift.max(1, width))
                if rows > limit { return true }
            }
        }
        return false
    }

    /// The columns `text` takes: its characters, without ANSI escape sequences.
    private static func visibleWidth(_ text: Substring) -> Int {
        guard text.contains("\u{1B}") else { return text.count }
        var count = 0
        var inEscape = false
        for character in text {
            if inEscape {
                if character.isLetter { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                count += 1
            }
        }
        return count
    }
}
