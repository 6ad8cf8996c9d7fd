@_spi(Shell) import PatchbayCore

/// Reads the lines of a session file: each is parsed as JSON with `JSONReader`, then checked
/// and decoded as its kind's description says (see `SessionEvent.Kind`). Keeps the JSON
/// reader's working space from one line to the next.
struct SessionLineDecoder {
    private var reader = JSONReader(maxDepth: SessionEvent.maxLineDepth)
    /// The kind of the last line, which the next line most often has too: it is found without
    /// a lookup by name.
    private var lastKind: SessionEvent.Kind?
    /// The fields every line has, before those of its kind.
    private static let commonFields: [SessionField] = [.integer("seq"), .string("kind")]

    /// The line's `seq` and event; the event is `nil` for a kind this reader does not know.
    /// Throws the line's damage.
    mutating func decode(_ line: UnsafeBufferPointer<UInt8>) throws(SessionError.Reason) -> (seq: Int, event: SessionEvent?) {
        guard case .object(let members) = try parse(line) else { throw .notAnObject }
        var common = SessionFieldValues(Self.commonFields, of: members)
        let seq = try common.integer()
        let name = try common.string()
        let kind: SessionEvent.Kind
        if let lastKind, lastKind.name == name {
            kind = lastKind
        } else {
            guard let named = SessionEvent.Kind.byName[name] else { return (seq, nil) }
            kind = named
            lastKind = named
        }
        return (seq, try kind.event(of: members, firstMember: common.nextMember))
    }

    /// The line as one JSON value, with nothing but white space after it.
    private mutating func parse(_ line: UnsafeBufferPointer<UInt8>) throws(SessionError.Reason) -> Value {
        var position = 0
        let value: Value
        do {
            value = try reader.readValue(in: line, at: &position)
        } catch {
            throw .notJSON(error)
        }
        while position < line.count {
            switch line[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: throw .notJSON(JSONError(message: "unexpected text after the value", offset: position))
            }
        }
        return value
    }
}

extension SessionHeader {
    /// Reads the header line.
    static func decode(_ line: UnsafeBufferPointer<UInt8>) throws(SessionError.Reason) -> SessionHeader {
        let value: Value
        do {
            value = try JSONReader.parse(line, maxDepth: SessionEvent.maxLineDepth)
        } catch {
            throw .notASession("the first line is not JSON (\(error))")
        }
        guard case .object(let members) = value, members["patchbay"] == .string("session") else {
            throw .notASession(#"the first line has no "patchbay":"session""#)
        }
        guard case .int(let version)? = members["version"] else { throw .notASession(#"the header has no integer "version""#) }
        guard version >= 1 else { throw .notASession("the header's version \(version) is not a session version") }
        guard version <= SessionHeader.supportedVersion else { throw .newerVersion(version) }
        var created: String?
        if case .string(let text)? = members["created"] { created = text }
        return SessionHeader(version: version, created: created, recordedThroughReflection: members["reflection"] == .bool(true))
    }
}
