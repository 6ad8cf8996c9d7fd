/// Reads the words of a command line: command words, names and paths. Expressions within the
/// line are handed to the expression parser from the scanner's offset.
struct CommandScanner {
    let text: String
    let bytes: [UInt8]
    /// The UTF-8 offset of the next unread byte.
    var offset = 0

    init(_ text: String) {
        self.text = text
        self.bytes = Array(text.utf8)
    }

    var isAtEnd: Bool { offsetAfterBlanks >= bytes.count }

    /// Whether the next word starts with `--`.
    var startsFlag: Bool {
        let index = offsetAfterBlanks
        return index + 1 < bytes.count && bytes[index] == UInt8(ascii: "-") && bytes[index + 1] == UInt8(ascii: "-")
    }

    /// The rest of the command as flags, each one of `allowed` (`--force`), in any order.
    mutating func flags(_ allowed: [String], command: String) throws(ShellError) -> Set<String> {
        var flags: Set<String> = []
        while let (flag, range) = word() {
            guard allowed.contains(flag) else {
                let options = allowed.joined(separator: ", ")
                throw CommandParser.usage(command, "unexpected '\(Printable.escaped(flag, limit: 30))' (options: \(options))", at: range)
            }
            flags.insert(flag)
        }
        return flags
    }

    /// Skips white space, including a backslash that continues the line.
    mutating func skipBlanks() {
        offset = offsetAfterBlanks
    }

    /// Where the next non-blank byte is. Checks read this rather than move a copy of the scanner,
    /// which would retain and release its text and bytes.
    private var offsetAfterBlanks: Int {
        var index = offset
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "\\") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n"):
                index += 2
            default:
                return index
            }
        }
        return index
    }

    /// A name `[A-Za-z_][A-Za-z0-9_]*`, if one starts here.
    mutating func name() -> (String, Range<Int>)? {
        skipBlanks()
        guard offset < bytes.count, bytes[offset].isNameStartByte else { return nil }
        let start = offset
        while offset < bytes.count, bytes[offset].isNameByte { offset += 1 }
        return (string(start..<offset), start..<offset)
    }

    /// The next word: a double- or single-quoted string, or a run of characters up to white space.
    mutating func word() -> (String, Range<Int>)? {
        skipBlanks()
        guard offset < bytes.count else { return nil }
        let start = offset
        let first = bytes[offset]
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            offset += 1
            var content: [UInt8] = []
            while offset < bytes.count, bytes[offset] != first {
                if bytes[offset] == UInt8(ascii: "\\"), offset + 1 < bytes.count { offset += 1 }
                content.append(bytes[offset])
                offset += 1
            }
            offset = Swift.min(offset + 1, bytes.count)
            return (String(decoding: content, as: UTF8.self), start..<offset)
        }
        while offset < bytes.count, ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n")].contains(bytes[offset]) {
            offset += 1
        }
        return (string(start..<offset), start..<offset)
    }

    /// The text of `range`.
    func string(_ range: Range<Int>) -> String {
        // Through a buffer pointer: an `ArraySlice` of `bytes` would retain and release them.
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// The range of what is left, trimmed, for error carets.
    var restRange: Range<Int> {
        let start = offsetAfterBlanks
        return start..<Swift.max(start, bytes.count)
    }
}

extension UInt8 {
    var isNameStartByte: Bool {
        (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z"))
            || self == UInt8(ascii: "_")
    }

    var isNameByte: Bool { isNameStartByte || (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9")) }
}
