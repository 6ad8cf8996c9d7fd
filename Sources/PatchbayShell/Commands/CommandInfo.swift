/// The documentation of one command: what `help` and completion know about it.
struct CommandInfo: Sendable {
    /// The command word (`load`), or `=` for expressions.
    var name: String
    /// The one-line form shown by `help`.
    var synopsis: String
    /// What the command does.
    var summary: String
    /// The full syntax and details, for `help NAME`.
    var details: [String]
    /// Example lines.
    var examples: [String]
    /// Other words that run the same command.
    var aliases: [String] = []
}
