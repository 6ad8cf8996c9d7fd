/// Why a `Recorder` could not start or stopped writing.
public enum RecorderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A state or an action could not be encoded. `what` names it (`the initial state`,
    /// `action 3`, `the state after action 3`); `message` is the encoder's error, with the
    /// path to the value (`setRatio._0: nan is not a finite number`).
    case encoding(what: String, message: String)
    /// The session file could not be created or written.
    case session(SessionError)

    /// One line: what could not be done and why.
    public var description: String {
        switch self {
        case .encoding(let what, let message): "cannot record \(what): \(message)"
        case .session(let error) where error.reason == .exists:
            "\(error.path ?? "the file") exists; pass replacing: true to replace it, or choose another path"
        case .session(let error): error.description
        }
    }
}
