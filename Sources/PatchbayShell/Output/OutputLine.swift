/// One line the shell wants printed, and where.
@_spi(Shell)
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
    /// columns wide, wrapped as `wrapped(toWidth:)` wraps them (colour escapes take no room).
    static func rows(of lines: [OutputLine], width: Int, moreThan limit: Int) -> Bool {
        var rows = 0
        for line in lines where line.stream == .output {
            for row in line.text.split(separator: "\n", omittingEmptySubsequences: false) {
                rows += LineWrapping.rows(of: String(row), width: width).count
                if rows > limit { return true }
            }
        }
        return false
    }

    /// The line as rows of at most `width` columns, broken at blanks (see `LineWrapping`), for
    /// a terminal that would otherwise cut its words where the window ends. A line that fits is
    /// returned as it is.
    public func wrapped(toWidth width: Int) -> [OutputLine] {
        let rows = text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { LineWrapping.rows(of: String($0), width: width) }
        return rows.count == 1 && rows[0] == text ? [self] : rows.map { OutputLine($0, to: stream) }
    }
}

/// Breaks a line of output into rows that fit a terminal, at blanks: a row ends before the
/// word that would cross the width, and the next row starts with the line's own indentation
/// plus two blanks (at most half the width), so that it reads as the same line going on. Only
/// a word longer than a row is cut, where the row ends. Runs of blanks inside a row (aligned
/// columns) are kept; the blanks where a row breaks are dropped. Colour escapes (`ESC [ ... m`)
/// take no room, and wide characters (CJK, emoji) take two columns.
@_spi(Shell)
public enum LineWrapping {
    /// `text` (one line, no newline) as rows of at most `width` columns; `[text]` when it fits.
    public static func rows(of text: String, width: Int) -> [String] {
        let width = Swift.max(1, width)
        let units = Self.units(of: text)
        guard units.reduce(0, { $0 + $1.width }) > width else { return [text] }

        let leading = units.prefix { $0.isBlank }.count
        let indentWidth = Swift.min(leading + 2, width / 2)
        let indent = String(repeating: " ", count: indentWidth)

        var rows: [String] = []
        var row = ""
        var rowWidth = 0
        /// Whether the row holds a word (not only its indentation).
        var rowHasWord = false
        var blanks = ""
        var index = 0
        func endRow() {
            rows.append(row)
            row = indent
            rowWidth = indentWidth
            rowHasWord = false
            blanks = ""
        }
        while index < units.count {
            if units[index].isBlank {
                blanks += units[index].text
                index += 1
                continue
            }
            var end = index
            while end < units.count, !units[end].isBlank { end += 1 }
            let word = units[index..<end]
            let wordWidth = word.reduce(0) { $0 + $1.width }
            if rowHasWord && rowWidth + blanks.count + wordWidth > width {
                endRow()
            }
            if rowWidth + blanks.count + wordWidth <= width {
                row += blanks + word.map(\.text).joined()
                rowWidth += blanks.count + wordWidth
            } else {
                // A word longer than a row: cut where each row ends.
                row += blanks
                rowWidth += blanks.count
                for unit in word {
                    if rowHasWord && rowWidth + unit.width > width { endRow() }
                    row += unit.text
                    rowWidth += unit.width
                    if unit.width > 0 { rowHasWord = true }
                }
            }
            rowHasWord = true
            blanks = ""
            index = end
        }
        if rowHasWord || rows.isEmpty { rows.append(row) }
        return rows
    }

    /// A character, or a whole escape sequence, with the columns it takes.
    private struct Unit {
        var text: String
        var width: Int
        var isBlank: Bool { text == " " }
    }

    private static func units(of text: String) -> [Unit] {
        var units: [Unit] = []
        var escape: String?
        for character in text {
            if var sequence = escape {
                sequence.append(character)
                if character.isLetter {
                    units.append(Unit(text: sequence, width: 0))
                    escape = nil
                } else {
                    escape = sequence
                }
            } else if character == "\u{1B}" {
                escape = String(character)
            } else {
                units.append(Unit(text: String(character), width: columns(of: character)))
            }
        }
        if let escape { units.append(Unit(text: escape, width: 0)) }
        return units
    }

    /// The columns a character takes: two for East Asian wide characters and emoji.
    static func columns(of character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}
