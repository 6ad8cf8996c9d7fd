@_spi(Shell) import PatchbayCore

/// Splits expression source (UTF-8 bytes) into tokens on demand.
///
/// The lexer is a value: copying it saves a position to come back to, which is how the parser
/// looks ahead for lambdas.
struct Lexer {
    static let maxInterpolationDepth = 32

    let source: [UInt8]
    private(set) var position: Int
    let end: Int
    /// Whether white space (or the start of the input) came right before the last token read.
    private(set) var spaceBefore = true
    private let interpolationDepth: Int

    init(source: [UInt8], range: Range<Int>, interpolationDepth: Int = 0) {
        self.source = source
        self.position = range.lowerBound
        self.end = range.upperBound
        self.interpolationDepth = interpolationDepth
    }

    mutating func next() throws(ExpressionError) -> Token {
        skipBlanks()
        guard position < end else { return Token(kind: .end, range: end..<end) }
        let start = position
        let byte = source[position]
        switch byte {
        case UInt8(ascii: "\n"):
            position += 1
            return Token(kind: .newline, range: start..<position)
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return try lexString(quote: byte)
        case UInt8(ascii: "$"):
            position += 1
            return Token(kind: .dollar, range: start..<position)
        case _ where byte.isDigit:
            return try lexNumber()
        case _ where byte.isNameStart:
            while position < end, source[position].isNameContinuation { position += 1 }
            return Token(kind: .name(text(start..<position)), range: start..<position)
        default:
            return try lexSymbol()
        }
    }

    /// Skips spaces, tabs, carriage returns and backslash-newline continuations.
    private mutating func skipBlanks() {
        let before = position
        while position < end {
            switch source[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                position += 1
            case UInt8(ascii: "\\") where position + 1 < end && source[position + 1] == UInt8(ascii: "\n"):
                position += 2
            default:
                spaceBefore = position > before || position == 0 || isAfterNewline(position)
                return
            }
        }
        spaceBefore = true
    }

    private func isAfterNewline(_ index: Int) -> Bool {
        index > 0 && source[index - 1] == UInt8(ascii: "\n")
    }

    private func text(_ range: Range<Int>) -> String {
        // Through a buffer pointer: an `ArraySlice` of `source` would retain and release it.
        source.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// The one-byte symbols that start no two-byte symbol: they need no look at the next byte.
    private static func punctuation(_ byte: UInt8) -> Symbol? {
        switch byte {
        case UInt8(ascii: "("): .leftParen
        case UInt8(ascii: ")"): .rightParen
        case UInt8(ascii: "["): .leftBracket
        case UInt8(ascii: "]"): .rightBracket
        case UInt8(ascii: "{"): .leftBrace
        case UInt8(ascii: "}"): .rightBrace
        case UInt8(ascii: ","): .comma
        case UInt8(ascii: ":"): .colon
        case UInt8(ascii: ";"): .semicolon
        case UInt8(ascii: "."): .dot
        case UInt8(ascii: "*"): .star
        case UInt8(ascii: "/"): .slash
        case UInt8(ascii: "%"): .percent
        default: nil
        }
    }

    private mutating func lexSymbol() throws(ExpressionError) -> Token {
        let start = position
        let byte = source[position]
        if let symbol = Self.punctuation(byte) {
            position += 1
            return Token(kind: .symbol(symbol), range: start..<position)
        }
        let following: UInt8 = position + 1 < end ? source[position + 1] : 0
        let symbol: Symbol
        var length = 2
        switch (byte, following) {
        case (UInt8(ascii: "?"), UInt8(ascii: ".")) where !spaceBefore: symbol = .optionalDot
        case (UInt8(ascii: "?"), UInt8(ascii: "[")) where !spaceBefore: symbol = .optionalBracket
        case (UInt8(ascii: "?"), UInt8(ascii: "?")): symbol = .coalesce
        case (UInt8(ascii: "|"), UInt8(ascii: "|")): symbol = .or
        case (UInt8(ascii: "&"), UInt8(ascii: "&")): symbol = .and
        case (UInt8(ascii: "="), UInt8(ascii: "=")): symbol = .equal
        case (UInt8(ascii: "!"), UInt8(ascii: "=")): symbol = .notEqual
        case (UInt8(ascii: "<"), UInt8(ascii: "=")): symbol = .lessEqual
        case (UInt8(ascii: ">"), UInt8(ascii: "=")): symbol = .greaterEqual
        case (UInt8(ascii: "+"), UInt8(ascii: "=")): symbol = .plusAssign
        case (UInt8(ascii: "-"), UInt8(ascii: "=")): symbol = .minusAssign
        case (UInt8(ascii: "="), UInt8(ascii: ">")): symbol = .arrow
        case (UInt8(ascii: "-"), UInt8(ascii: ">")): symbol = .wireArrow
        case (UInt8(ascii: "~"), UInt8(ascii: ">")): symbol = .delayArrow
        default:
            length = 1
            switch byte {
            case UInt8(ascii: "?"): symbol = .question
            case UInt8(ascii: "<"): symbol = .less
            case UInt8(ascii: ">"): symbol = .greater
            case UInt8(ascii: "+"): symbol = .plus
            case UInt8(ascii: "-"): symbol = .minus
            case UInt8(ascii: "!"): symbol = .bang
            case UInt8(ascii: "="): symbol = .assign
            default:
                throw unexpectedCharacter(at: start)
            }
        }
        position += length
        return Token(kind: .symbol(symbol), range: start..<position)
    }

    private func unexpectedCharacter(at start: Int) -> ExpressionError {
        var length = 1
        let lead = source[start]
        if lead >= 0xC0 {
            length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        }
        let stop = min(start + length, end)
        let description: String
        if let character = String(validating: source[start..<stop], as: UTF8.self), let scalar = character.unicodeScalars.first {
            description = Self.isVisible(scalar) ? "'\(character)'" : Self.codePoint(scalar)
        } else {
            description = "byte 0x" + String(lead, radix: 16, uppercase: true)
        }
        return ExpressionError(.unexpectedCharacter(description), at: start..<stop)
    }

    /// Whether a character can be shown as it is in a one-line message: not a control character,
    /// not a line or paragraph separator, not an invisible format character.
    private static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: false
        default: true
        }
    }

    /// `U+000D`: how a character that must not be printed as it is appears in a message.
    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    private mutating func lexNumber() throws(ExpressionError) -> Token {
        let start = position
        while position < end, source[position].isDigit { position += 1 }
        var isDecimal = false
        if position + 1 < end, source[position] == UInt8(ascii: "."), source[position + 1].isDigit {
            isDecimal = true
            position += 1
            while position < end, source[position].isDigit { position += 1 }
        }
        if position < end, source[position] == UInt8(ascii: "e") || source[position] == UInt8(ascii: "E") {
            var probe = position + 1
            if probe < end, source[probe] == UInt8(ascii: "+") || source[probe] == UInt8(ascii: "-") { probe += 1 }
            if probe < end, source[probe].isDigit {
                isDecimal = true
                position = probe
                while position < end, source[position].isDigit { position += 1 }
            }
        }
        if position < end, source[position].isNameStart {
            while position < end, source[position].isNameContinuation { position += 1 }
            throw ExpressionError(.invalidNumber(text(start..<position)), at: start..<position)
        }
        let range = start..<position
        if range.count > 1, source[start] == UInt8(ascii: "0"), source[start + 1].isDigit {
            throw ExpressionError(.invalidNumber(text(range)), at: range)
        }
        if isDecimal {
            let literal = text(range)
            guard let value = Double(literal), value.isFinite else {
                throw ExpressionError(.invalidNumber(literal), at: range)
            }
            return Token(kind: .decimal(value), range: range)
        }
        // Only digits: read them from the bytes, without making a string of them first.
        var value: UInt64 = 0
        for index in range {
            let (tens, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = tens.addingReportingOverflow(UInt64(source[index] &- UInt8(ascii: "0")))
            guard !overflow, !carry else { throw ExpressionError(.integerLiteralTooLarge(text(range)), at: range) }
            value = sum
        }
        guard value <= UInt64(Int.max) + 1 else {
            throw ExpressionError(.integerLiteralTooLarge(text(range)), at: range)
        }
        return Token(kind: .integer(value), range: range)
    }

    private mutating func lexString(quote: UInt8) throws(ExpressionError) -> Token {
        let start = position
        // Most strings have no escape: take their text straight from the source.
        var probe = start + 1
        while probe < end, source[probe] != quote, source[probe] != UInt8(ascii: "\\") { probe += 1 }
        if probe < end, source[probe] == quote {
            position = probe + 1
            return Token(kind: .string(text(start + 1..<probe)), range: start..<position)
        }
        position += 1
        // The text and interpolations read so far: empty until the first interpolation.
        var parts: [Token.StringPart] = []
        var buffer: [UInt8] = []
        func flush() {
            if !buffer.isEmpty { parts.append(.text(String(decoding: buffer, as: UTF8.self))) }
            buffer.removeAll(keepingCapacity: true)
        }
        while true {
            guard position < end else {
                throw ExpressionError(.unterminatedString, at: start..<end)
            }
            let byte = source[position]
            if byte == quote {
                position += 1
                break
            }
            guard byte == UInt8(ascii: "\\") else {
                // Copy a run of ordinary bytes in one step.
                let runStart = position
                while position < end, source[position] != quote, source[position] != UInt8(ascii: "\\") { position += 1 }
                buffer.append(contentsOf: source[runStart..<position])
                continue
            }
            let escapeStart = position
            position += 1
            guard position < end else { throw ExpressionError(.unterminatedString, at: start..<end) }
            let escaped = source[position]
            position += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escaped)
            case UInt8(ascii: "n"): buffer.append(UInt8(ascii: "\n"))
            case UInt8(ascii: "t"): buffer.append(UInt8(ascii: "\t"))
            case UInt8(ascii: "r"): buffer.append(UInt8(ascii: "\r"))
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "0"): buffer.append(0)
            case UInt8(ascii: "\n"): break
            case UInt8(ascii: "u"):
                let scalar = try lexUnicodeEscape(from: escapeStart)
                buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
            case UInt8(ascii: "("):
                flush()
                parts.append(.interpolation(try scanInterpolation()))
            default:
                // Take the whole character after the backslash; name an invisible one by its code.
                while position < end, source[position] & 0xC0 == 0x80 { position += 1 }
                var shown = text(escapeStart..<position)
                if let scalar = shown.unicodeScalars.dropFirst().first, !Self.isVisible(scalar) { shown = "\\" + Self.codePoint(scalar) }
                throw ExpressionError(.invalidEscape(shown), at: escapeStart..<position)
            }
        }
        if parts.isEmpty {
            return Token(kind: .string(String(decoding: buffer, as: UTF8.self)), range: start..<position)
        }
        flush()
        return Token(kind: .interpolatedString(parts), range: start..<position)
    }

    /// Reads `XXXX` (with a following `\uXXXX` for a surrogate pair) or `{X...}` after `\u`.
    private mutating func lexUnicodeEscape(from escapeStart: Int) throws(ExpressionError) -> Unicode.Scalar {
        func invalid(_ stop: Int) -> ExpressionError {
            // Quote the escape up to the first character that cannot belong to it (a quote, a newline...).
            var shownEnd = escapeStart + 2
            while shownEnd < min(stop, end), source[shownEnd].isHexDigitOrBrace { shownEnd += 1 }
            return ExpressionError(.invalidEscape(text(escapeStart..<shownEnd)), at: escapeStart..<shownEnd)
        }
        if position < end, source[position] == UInt8(ascii: "{") {
            let digitsStart = position + 1
            var stop = digitsStart
            while stop < end, stop - digitsStart <= 8, source[stop] != UInt8(ascii: "}") { stop += 1 }
            guard stop < end, source[stop] == UInt8(ascii: "}"), let code = UInt32(text(digitsStart..<stop), radix: 16),
                let scalar = Unicode.Scalar(code)
            else { throw invalid(stop + 1) }
            position = stop + 1
            return scalar
        }
        func hex4(at index: Int) -> UInt32? {
            guard index + 4 <= end else { return nil }
            return UInt32(text(index..<index + 4), radix: 16)
        }
        guard let high = hex4(at: position) else { throw invalid(position + 4) }
        position += 4
        if (0xD800..<0xDC00).contains(high) {
            guard position + 6 <= end, source[position] == UInt8(ascii: "\\"), source[position + 1] == UInt8(ascii: "u"),
                let low = hex4(at: position + 2), (0xDC00..<0xE000).contains(low)
            else { throw invalid(position) }
            position += 6
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(high) else { throw invalid(position) }
        return scalar
    }

    /// Finds the `)` closing an interpolation that starts at `position`; returns the inner range.
    private mutating func scanInterpolation() throws(ExpressionError) -> Range<Int> {
        let open = position - 2
        guard interpolationDepth < Self.maxInterpolationDepth else {
            throw ExpressionError(.nestingTooDeep(limit: Self.maxInterpolationDepth), at: open..<position)
        }
        var inner = Lexer(source: source, range: position..<end, interpolationDepth: interpolationDepth + 1)
        var depth = 0
        while true {
            let token = try inner.next()
            switch token.kind {
            case .symbol(.leftParen): depth += 1
            case .symbol(.rightParen):
                if depth == 0 {
                    let range = position..<token.range.lowerBound
                    position = token.range.upperBound
                    return range
                }
                depth -= 1
            case .end:
                throw ExpressionError(.unexpectedEnd(expected: "')' to close the interpolation \\("), at: open..<end)
            default: break
            }
        }
    }
}

extension UInt8 {
    /// `[0-9A-Fa-f{}]`: what a `\u` escape is made of.
    fileprivate var isHexDigitOrBrace: Bool {
        isDigit || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
            || self == UInt8(ascii: "{") || self == UInt8(ascii: "}")
    }
}

extension Lexer {
    /// The number `text` spells in the syntax of number literals, with a minus sign in front or
    /// not: `12`, `-3`, `1.5`, `2e-3` (digits without a leading zero, then a fraction and an
    /// exponent, each optional). `nil` for anything else (`0x10`, `.5`, `5.`, `+1`, `inf`, `1_000`)
    /// and for an integer too large for 64 bits, which as a literal is an error too: what `num`
    /// and `int` read of a string, so that a string and a literal never disagree.
    static func numberLiteral(_ text: String) -> Value? {
        var bytes = Array(text.utf8)[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        let start = bytes.startIndex, end = bytes.endIndex
        var position = start
        while position < end, bytes[position].isDigit { position += 1 }
        guard position > start, position - start == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        var isDecimal = false
        if position + 1 < end, bytes[position] == UInt8(ascii: "."), bytes[position + 1].isDigit {
            isDecimal = true
            position += 1
            while position < end, bytes[position].isDigit { position += 1 }
        }
        if position < end, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            var probe = position + 1
            if probe < end, bytes[probe] == UInt8(ascii: "+") || bytes[probe] == UInt8(ascii: "-") { probe += 1 }
            guard probe < end, bytes[probe].isDigit else { return nil }
            isDecimal = true
            position = probe
            while position < end, bytes[position].isDigit { position += 1 }
        }
        guard position == end else { return nil }
        let literal = String(decoding: bytes, as: UTF8.self)
        if isDecimal {
            guard let magnitude = Double(literal), magnitude.isFinite else { return nil }
            return .decimal(negative ? -magnitude : magnitude)
        }
        guard let magnitude = UInt64(literal) else { return nil }
        if negative {
            guard magnitude <= UInt64(Int.max) + 1 else { return nil }
            return .int(magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude))
        }
        guard magnitude <= UInt64(Int.max) else { return nil }
        return .int(Int(magnitude))
    }
}
