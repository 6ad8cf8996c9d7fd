@_spi(Shell) import PatchbayCore

extension Expression {
    /// The exact text the expression was parsed from, line breaks included (`description`
    /// joins lines), so that parsing it again gives the same expression.
    var sourceText: String { Self.slice(range, of: source) }

    /// The text at the UTF-8 offsets `range` of `source`.
    static func slice(_ range: Range<Int>, of source: String) -> String {
        let utf8 = source.utf8
        guard range.lowerBound >= 0, range.upperBound <= utf8.count else { return "" }
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        let end = utf8.index(start, offsetBy: range.count)
        return String(decoding: utf8[start..<end], as: UTF8.self)
    }
}

extension StatementBlock {
    /// The exact text the statements were parsed from, line breaks included (`description`
    /// joins lines), so that parsing it again gives the same statements.
    var sourceText: String { Expression.slice(range, of: source) }
}
