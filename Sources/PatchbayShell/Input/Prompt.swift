/// The shell's prompts.
@_spi(Shell)
public enum Prompt {
    /// Shown when a new command can start, with nothing to say about the session.
    public static let primary = "patchbay> "
    /// Shown while a command continues (an open bracket or string, or a trailing `\`).
    public static let continuation = "...> "

    /// The prompt shown when a new command can start: the program's name, what `context` says
    /// about the session (`Shell.promptContext`: ` app@b1 #12/40*`), and `> `.
    public static func primary(program: String, context: String) -> String {
        "\(program)\(context)> "
    }
}
