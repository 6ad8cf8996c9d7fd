import Foundation

/// Where a `Recorder` writes its lines: a new session file, or a shell listening with
/// `inspect --listen`. Both get the same lines from the same `SessionWriter`.
enum RecordingDestination {
    /// A new session file at `path`, which replaces an existing one only when `replacing`.
    case file(path: String, replacing: Bool)
    /// A shell listening on `host` at `port`, sent `token` first when given.
    case connection(host: String, port: Int, token: String?, timeout: Duration)

    /// The file's path, or `host:port`.
    var name: String {
        switch self {
        case .file(let path, _): path
        case .connection(let host, let port, _, _): SessionSocket.endpointName(host: host, port: port)
        }
    }

    /// Opens the destination and writes the header.
    func open(created: Date, recordedThroughReflection: Bool, version: Int) throws(SessionError) -> SessionWriter {
        switch self {
        case .file(let path, let replacing):
            try SessionWriter(path: path, created: created, replacing: replacing, recordedThroughReflection: recordedThroughReflection,
                              version: version)
        case .connection(let host, let port, let token, let timeout):
            try SessionWriter(connectingTo: host, port: port, token: token, timeout: timeout, created: created,
                              recordedThroughReflection: recordedThroughReflection, version: version)
        }
    }
}
