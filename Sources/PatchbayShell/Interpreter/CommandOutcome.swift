/// The outcome of one command: whether it ran, and what to print.
public struct CommandOutcome: Sendable, Equatable {
    public enum Status: Sendable, Equatable {
        case success
        case failure
        /// The text held no command (blank, or a comment).
        case empty
    }

    public var status: Status
    public var lines: [OutputLine]
    /// Whether the output is taller than the terminal (`ShellOptions.height`, less a row for
    /// the prompt): the terminal side pages it. Never for JSON or where there is no terminal.
    public var isLong = false

    /// An outcome with `status` that prints `lines`.
    public init(status: Status, lines: [OutputLine], isLong: Bool = false) {
        self.status = status
        self.lines = lines
        self.isLong = isLong
    }
}
