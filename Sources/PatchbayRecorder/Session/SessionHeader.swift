import PatchbayCore

/// The first line of a session file: `{"patchbay":"session","version":1,"created":"..."}`,
/// with `"reflection":true` after them for a file whose states were recorded through
/// reflection (`Recorder(path:reflecting:)`).
@_spi(Shell)
public struct SessionHeader: Sendable, Equatable {
    /// The newest version of the session format this package reads.
    public static let supportedVersion = 2
    /// The version of a file whose action lines may leave out their `patch` (an app's recording
    /// that keeps actions and checkpoints only); files without such lines are written as
    /// version 1, which every reader since the first reads.
    public static let checkpointsOnlyVersion = 2

    /// The format version the file was written in.
    public var version: Int
    /// When the recording started, as ISO 8601 text (`2026-11-21T10:00:00Z`); `nil` when a
    /// file does not say.
    public var created: String?
    /// Whether the states were recorded through reflection (`Value(reflecting:)`), so that
    /// they cannot be decoded back into the app's types: the file can be inspected but not
    /// replayed. `false` when a file does not say (all files written before the flag).
    public var recordedThroughReflection: Bool

    /// A header of `version` (1 by default: a file whose every action line holds its patch).
    public init(version: Int = 1, created: String?, recordedThroughReflection: Bool = false) {
        self.version = version
        self.created = created
        self.recordedThroughReflection = recordedThroughReflection
    }

    /// The header as its line of JSON, without the line break.
    public var line: String {
        var bytes: [UInt8] = []
        encode(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    func encode(into out: inout [UInt8]) {
        out.appendRaw(#"{"patchbay":"session","version":"#)
        Value.int(version).writeJSON(to: &out)
        if let created {
            out.appendRaw(#","created":"#)
            Value.string(created).writeJSON(to: &out)
        }
        if recordedThroughReflection { out.appendRaw(#","reflection":true"#) }
        out.appendRaw("}")
    }
}
