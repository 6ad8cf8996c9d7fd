@_spi(Shell) import PatchbayCore

/// The definitions of a graph written as shell commands, in an order that rebuilds them when run
/// in a fresh shell (`save FILE`, then `load FILE`). What cannot be rebuilt exactly is said in
/// `#` comment lines rather than left out silently.
@_spi(Shell)
public struct DefinitionScript: Sendable, Equatable {
    /// The commands and comments, in order. A command may span several lines (a multi-line
    /// expression or statement block, as it was typed), each line of a comment starts with `#`.
    public var lines: [String]
    /// How many of `lines` are commands rather than comments.
    public var commandCount: Int

    /// A script of `lines`, of which `commandCount` are commands.
    public init(lines: [String], commandCount: Int) {
        self.lines = lines
        self.commandCount = commandCount
    }

    /// The script as the text of a file: every line ends with a newline.
    public var text: String {
        lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }
}
