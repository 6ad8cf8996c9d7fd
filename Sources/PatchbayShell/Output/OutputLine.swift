/// One line the shell wants printed, and where.
public struct OutputLine: Sendable, Equatable {
    public enum Stream: Sendable, Equatable {
        case output
        case error
    }

    public var stream: Stream
    /// The text, without a trailing newline (it may contain newlines).
    public var text: String

    public init(_ text: String, to stream: Stream = .output) {
        self.stream = stream
        self.text = text
    }
}
