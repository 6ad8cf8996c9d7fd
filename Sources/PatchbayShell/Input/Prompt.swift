/// The shell's prompts.
public enum Prompt {
    /// Shown when a new command can start.
    public static let primary = "patchbay> "
    /// Shown while a command continues (an open bracket or string, or a trailing `\`).
    public static let continuation = "...> "
}
