#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PatchbayCore

/// Reads the lines of a session file into `LineFields`, straight from the file's bytes.
///
/// The line's own object is walked member by member, so no object is built for it; the
/// values of known fields are read with `JSONReader`, others are read and dropped. The patch
/// and the hash of an action line, which make up most of a file, are read straight into
/// operations and a digest; anything unusual in them (escapes, other operations, a bad pointer)
/// falls back to reading them as JSON, so that their errors are reported as for any field.
struct SessionLineParser {
    private var reader = JSONReader()
    private var line = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private var position = 0
    /// The fields of the line read last, for `SessionEvent.decode(_:)` to take.
    var fields = LineFields()

    /// Reads `line`, which must be one JSON object, into `fields`.
    mutating func parse(_ line: UnsafeBufferPointer<UInt8>) throws(SessionError.Reason) {
        self.line = line
        position = 0
        fields.reset()
        skipSpace()
        guard current == UInt8(ascii: "{") else {
            do {
                _ = try JSONReader.parse(line)
            } catch {
                throw .notJSON(error)
            }
            throw .notAnObject
        }
        position += 1
        skipSpace()
        if current == UInt8(ascii: "}") {
            position += 1
            return try finish()
        }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw jsonError("expected a key") }
            let name = try readKey()
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw jsonError("expected ':'") }
            position += 1
            skipSpace()
            try readField(name)
            skipSpace()
            guard position < line.count else { throw jsonError("unexpected end of the text") }
            if line[position] == UInt8(ascii: ",") {
                position += 1
            } else if line[position] == UInt8(ascii: "}") {
                position += 1
                return try finish()
            } else {
                throw jsonError("expected ',' or '}'")
            }
        }
    }

    private mutating func finish() throws(SessionError.Reason) {
        skipSpace()
        guard position == line.count else { throw jsonError("unexpected text after the value") }
    }

    private mutating func readField(_ name: LineFields.Name?) throws(SessionError.Reason) {
        switch name {
        case .patch?:
            if let operations = try readOperations() {
                fields.patch = operations
                fields[.patch] = nil
            } else {
                fields[.patch] = try readValue()
                fields.patch = nil
            }
        case .hash?:
            let start = position
            if let text = plainString(), let digest = StateDigest(hexDigits: text) {
                fields.hash = digest
                fields[.hash] = nil
            } else {
                position = start
                fields[.hash] = try readValue()
                fields.hash = nil
            }
        case let name?:
            fields[name] = try readValue()
        case nil:
            _ = try readValue()
        }
    }

    /// Reads a member's key; `nil` for a key this reader does not know.
    private mutating func readKey() throws(SessionError.Reason) -> LineFields.Name? {
        if let text = plainString() { return Self.name(text) }
        guard case .string(var key) = try readValue() else { return nil }
        return key.withUTF8 { Self.name($0) }
    }

    /// The known field `text` names: picked by first letter and length, then compared.
    private static func name(_ text: UnsafeBufferPointer<UInt8>) -> LineFields.Name? {
        guard text.count >= 3 else { return nil }
        let candidate: LineFields.Name? = switch (text[0], text.count) {
        case (UInt8(ascii: "a"), 6): .action
        case (UInt8(ascii: "b"), 6): .branch
        case (UInt8(ascii: "c"), 5): .cause
        case (UInt8(ascii: "f"), 6): .failed
        case (UInt8(ascii: "h"), 4): .hash
        case (UInt8(ascii: "i"), 5): .index
        case (UInt8(ascii: "k"), 4): .kind
        case (UInt8(ascii: "m"), 7): .message
        case (UInt8(ascii: "o"), 6): .option
        case (UInt8(ascii: "p"), 4): .port
        case (UInt8(ascii: "p"), 5): .patch
        case (UInt8(ascii: "p"), 6): .params
        case (UInt8(ascii: "p"), 7): .pattern
        case (UInt8(ascii: "r"), 7): .reducer
        case (UInt8(ascii: "s"), 3): .seq
        case (UInt8(ascii: "s"), 5): text[2] == UInt8(ascii: "o") ? .store : .state
        case (UInt8(ascii: "s"), 7): .skipped
        case (UInt8(ascii: "t"), 4): .text
        case (UInt8(ascii: "u"), 3): .url
        case (UInt8(ascii: "v"), 4): .view
        case (UInt8(ascii: "v"), 5): .value
        default: nil
        }
        guard let candidate, text.matches(candidate.text) else { return nil }
        return candidate
    }

    /// The patch as operations, when it is an array of plain operations; `nil` (with nothing
    /// read) when it is anything else.
    private mutating func readOperations() throws(SessionError.Reason) -> [JSONPatch.Operation]? {
        let start = position
        guard current == UInt8(ascii: "[") else { return nil }
        position += 1
        var operations: [JSONPatch.Operation] = []
        skipSpace()
        if current == UInt8(ascii: "]") {
            position += 1
            return operations
        }
        while true {
            skipSpace()
            guard let operation = try readOperation() else {
                position = start
                return nil
            }
            operations.append(operation)
            skipSpace()
            if current == UInt8(ascii: ",") {
                position += 1
            } else if current == UInt8(ascii: "]") {
                position += 1
                return operations
            } else {
                position = start
                return nil
            }
        }
    }

    /// One operation `{"op":...,"path":...,"value":...}` with plain strings, or `nil`.
    private mutating func readOperation() throws(SessionError.Reason) -> JSONPatch.Operation? {
        guard current == UInt8(ascii: "{") else { return nil }
        position += 1
        var op: ValueChange.Operation?
        var path: JSONPointer?
        var value: Value?
        members: while true {
            skipSpace()
            guard let key = plainString() else { return nil }
            skipSpace()
            guard current == UInt8(ascii: ":") else { return nil }
            position += 1
            skipSpace()
            if key.matches("op") {
                guard let text = plainString(), let name = Self.operation(text) else { return nil }
                op = name
            } else if key.matches("path") {
                guard let text = plainString(), let pointer = JSONPointer(plainText: text) else { return nil }
                path = pointer
            } else if key.matches("value") {
                value = try readValue()
            } else {
                _ = try readValue()
            }
            skipSpace()
            if current == UInt8(ascii: ",") {
                position += 1
            } else if current == UInt8(ascii: "}") {
                position += 1
                break members
            } else {
                return nil
            }
        }
        guard let op, let path, op == .remove || value != nil else { return nil }
        return JSONPatch.Operation(op, path: path, value: value)
    }

    private static func operation(_ text: UnsafeBufferPointer<UInt8>) -> ValueChange.Operation? {
        if text.matches("replace") { return .replace }
        if text.matches("add") { return .add }
        if text.matches("remove") { return .remove }
        return nil
    }

    /// The content of the string at the position when it is plain ASCII without escapes,
    /// moving past it; otherwise `nil`, with nothing read.
    private mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        guard current == UInt8(ascii: "\"") else { return nil }
        var end = position + 1
        while end < line.count {
            let byte = line[end]
            if byte == UInt8(ascii: "\"") {
                let text = UnsafeBufferPointer(rebasing: line[(position + 1)..<end])
                position = end + 1
                return text
            }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
            end += 1
        }
        return nil
    }

    private mutating func readValue() throws(SessionError.Reason) -> Value {
        do {
            return try reader.readValue(in: line, at: &position)
        } catch {
            throw .notJSON(error)
        }
    }

    private var current: UInt8 {
        position < line.count ? line[position] : 0
    }

    private mutating func skipSpace() {
        while position < line.count {
            switch line[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private func jsonError(_ message: String) -> SessionError.Reason {
        .notJSON(JSONError(message: message, offset: position))
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether the bytes are those of `word`.
    func matches(_ word: StaticString) -> Bool {
        count == word.utf8CodeUnitCount && (count == 0 || memcmp(baseAddress!, word.utf8Start, count) == 0)
    }
}

extension JSONPointer {
    /// Reads pointer text given as plain ASCII bytes; `nil` when it is not a pointer.
    init?(plainText text: UnsafeBufferPointer<UInt8>) {
        guard !text.isEmpty else {
            self.init([])
            return
        }
        guard text[0] == UInt8(ascii: "/") else { return nil }
        var components: [ValueChange.PathComponent] = []
        var start = 1
        for end in 1...text.count where end == text.count || text[end] == UInt8(ascii: "/") {
            let token = UnsafeBufferPointer(rebasing: text[start..<end])
            guard let key = Self.unescape(token) else { return nil }
            components.append(.key(key))
            start = end + 1
        }
        self.init(components)
    }
}
