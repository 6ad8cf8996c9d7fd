/// Where a command came from, for error messages: a file (or `<stdin>`) and the line it starts on,
/// or the interactive prompt.
@_spi(Shell)
public struct SourceOrigin: Sendable, Equatable {
    /// The script's name; `nil` at the interactive prompt.
    public var name: String?
    /// The 1-based line of the script on which the command starts.
    public var line: Int

    public init(name: String?, line: Int) {
        self.name = name
        self.line = line
    }

    /// The interactive prompt.
    public static let interactive = SourceOrigin(name: nil, line: 1)
}
