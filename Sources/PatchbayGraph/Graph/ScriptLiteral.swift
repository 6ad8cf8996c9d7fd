@_spi(Shell) package import PatchbayCore

/// A value written as a literal for a script: on one line when it fits the line limit, otherwise
/// spread over lines (one element or member per line inside open brackets, a long string as
/// pieces joined with `+` inside parentheses), so that every line stays under the limit.
package struct ScriptLiteral {
    /// The literal's text.
    let text: String

    /// - Parameter width: how many bytes the literal may take on a line.
    init(_ value: Value, width: Int) {
        let line = value.description
        text = line.utf8.count <= width ? line : Self.spread(value, line: line, width: Swift.max(width / 2, 64))
    }

    /// Why the literal would not read back as the value, if it would not: a literal nests
    /// deeper than the parser allows (values built by evaluation may nest deeper).
    package static func unreadableReason(_ value: Value) -> String? {
        // Brackets count one parser level each, and a negative number one more.
        guard value.nestingDepth(upTo: Parser.maxDepth - 2) > Parser.maxDepth - 2 else { return nil }
        do {
            _ = try Expression(value.description)
            return nil
        } catch {
            return "it nests deeper than a literal may (\(Parser.maxDepth) levels)"
        }
    }

    /// `value` on one line when it fits in `width` bytes, otherwise spread.
    private static func fitted(_ value: Value, width: Int) -> String {
        let line = value.description
        return line.utf8.count <= width ? line : spread(value, line: line, width: width)
    }

    /// `value`, whose one-line literal `line` is too long, spread over lines.
    private static func spread(_ value: Value, line: String, width: Int) -> String {
        switch value {
        case .array(let elements):
            return "[\n" + elements.map { fitted($0, width: width) }.joined(separator: ",\n") + "\n]"
        case .object(let members):
            let lines = members.map { key, member in
                var text = ""
                if Value.isBareKey(key.string) { text = key.string } else { Value.writeQuoted(key.string, to: &text) }
                return text + ": " + fitted(member, width: width)
            }
            return "{\n" + lines.joined(separator: ",\n") + "\n}"
        case .string(let string):
            return "(" + pieces(of: string, width: width).joined(separator: " +\n") + ")"
        default:
            return line
        }
    }

    /// `string` as quoted pieces of at most about `width` bytes each, never splitting an escape.
    private static func pieces(of string: String, width: Int) -> [String] {
        var pieces: [String] = []
        var scalars = String.UnicodeScalarView()
        func close() {
            guard !scalars.isEmpty else { return }
            var piece = ""
            Value.writeQuoted(String(scalars), to: &piece)
            pieces.append(piece)
            scalars.removeAll()
        }
        var length = 0
        for scalar in string.unicodeScalars {
            scalars.append(scalar)
            // An escape takes at most 6 bytes (`\u001f`), a scalar at most 4.
            length += 6
            if length >= width {
                close()
                length = 0
            }
        }
        close()
        return pieces
    }
}
