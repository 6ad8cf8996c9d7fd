/// Why a `Recorder` could not start or stopped writing.
public enum RecorderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A state or an action could not be encoded as JSON. `what` names it (`the initial
    /// state`, `action 3`, `the state after action 3`); `message` is the encoder's error.
    case encoding(what: String, message: String)
    /// The session file could not be created or written.
    case session(SessionError)

    /// One line: what could not be done and why.
    public var description: String {
        switch self {
        case .encoding(let what, let message): "cannot encode \(what) as JSON: \(message)"
        case .session(let error): error.description
        }
    }
}
