/// The user's text editor, as `edit REDUCER` opens it (psql's `\e`): given the text of a
/// temporary file, it lets the user change it and gives back what the file holds when the
/// editor exits. The shell has no terminal code: the executable makes one that runs `$VISUAL`
/// or `$EDITOR` at the terminal, and tests give one that edits the text themselves.
@_spi(Shell)
public struct ExternalEditor {
    /// How messages name the editor: its command (`vim`, `code --wait`).
    public var name: String
    /// Opens `text` and returns what the user left in the file.
    public var edit: (_ text: String) throws(EditorFailure) -> String

    /// An editor called `name` that `edit` runs.
    public init(name: String, edit: @escaping (_ text: String) throws(EditorFailure) -> String) {
        self.name = name
        self.edit = edit
    }
}

/// Why an editor gave nothing back: said after "the editor 'NAME'" (`exited with status 1`).
@_spi(Shell)
public struct EditorFailure: Error, Sendable, Equatable {
    /// What went wrong, such as `exited with status 1` or `could not start`.
    public var reason: String

    /// A failure that `reason` describes.
    public init(_ reason: String) {
        self.reason = reason
    }
}
