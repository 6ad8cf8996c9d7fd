@_spi(Shell) import PatchbayCore

/// A lexical token of the expression language, with its UTF-8 byte range in the source.
struct Token: Sendable {
    enum Kind: Sendable, Equatable {
        case integer(UInt64)
        case decimal(Double)
        /// A string literal without interpolation, its escapes resolved.
        case string(String)
        /// A string literal with at least one interpolation `\( ... )`.
        case interpolatedString([StringPart])
        case name(String)
        case dollar
        case symbol(Symbol)
        case newline
        case end
    }

    /// One piece of a string literal: text, or an interpolated expression `\( ... )` given by its
    /// byte range in the source.
    enum StringPart: Sendable, Equatable {
        case text(String)
        case interpolation(Range<Int>)
    }

    var kind: Kind
    var range: Range<Int>

    /// How the token reads in an error message.
    var display: String {
        switch kind {
        case .integer(let n): "'\(n)'"
        case .decimal(let d): "'\(d)'"
        case .string, .interpolatedString: "a string"
        case .name(let n): "'\(n)'"
        case .dollar: "'$'"
        case .symbol(let s): "'\(s.rawValue)'"
        case .newline: "the end of the line"
        case .end: "the end of the input"
        }
    }
}

/// Punctuation and operators, longest spelling first where they share a prefix.
enum Symbol: String, Sendable, CaseIterable {
    case leftParen = "(", rightParen = ")", leftBracket = "[", rightBracket = "]"
    case leftBrace = "{", rightBrace = "}", comma = ",", colon = ":", semicolon = ";"
    case dot = ".", optionalDot = "?.", optionalBracket = "?[", question = "?", coalesce = "??"
    case or = "||", and = "&&", equal = "==", notEqual = "!=", less = "<", lessEqual = "<="
    case greater = ">", greaterEqual = ">=", plus = "+", minus = "-", star = "*", slash = "/"
    case percent = "%", bang = "!", assign = "=", plusAssign = "+=", minusAssign = "-="
    case arrow = "=>", wireArrow = "->", delayArrow = "~>"
}
