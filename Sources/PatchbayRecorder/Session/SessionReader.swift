/// Reads a whole session file into a `SessionLoad`: the events up to any damage, and the
/// damage. Built on `SessionFileReader` (see it for the rules), for small files and tests; a
/// large file is better read event by event with `SessionFileReader` itself.
@_spi(Shell)
public enum SessionReader {
    /// Reads the session file at `path`. Throws when the file cannot be read or does not start
    /// with a header this reader accepts; damage after the header is reported in the load.
    public static func read(contentsOf path: String) throws(SessionError) -> SessionLoad {
        load(try SessionFileReader(path: path))
    }

    /// Reads a session from `bytes`; `path`, when given, names the file in errors.
    public static func read(_ bytes: [UInt8], path: String? = nil) throws(SessionError) -> SessionLoad {
        load(try SessionFileReader(bytes: bytes, path: path))
    }

    private static func load(_ reader: SessionFileReader) -> SessionLoad {
        var events: [RecordedEvent] = []
        var damage: SessionError?
        do {
            while let event = try reader.next() { events.append(event) }
        } catch {
            damage = error
        }
        return SessionLoad(header: reader.header, events: events, unknownKindCount: reader.unknownKindCount, damage: damage)
    }
}
