@_spi(Shell) import PatchbayGraph

/// The outcome of one command: whether it ran, and what to print.
@_spi(Shell)
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

/// What one command did, as values (`Shell.reply(to:at:)`): what the renderer turns into lines.
struct CommandReply {
    /// The command's report, or the error it failed with.
    var result: Result<any CommandReport, ShellError>
    /// What the command set off, in order: probe and log output, node failures, the actions
    /// and URLs its wires sent.
    var events: [GraphEvent]
}
