@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

extension Shell {
    /// The first line of a file `save` writes.
    static let savedScriptHeader = "# patchbay definitions saved with 'save'; load this file in a fresh shell to rebuild them"

    /// `save FILE [--force]`: writes the graph's definitions as a script that `load` runs.
    func save(to file: String, force: Bool, range: Range<Int>) throws(ShellError) -> CommandResult {
        let path = try writablePath(file, at: range)
        let script = graph.definitionScript(lineLimit: InputLimits.maxLineBytes)
        try writeWhole(Self.savedScriptHeader + "\n" + script.text, to: path, replacing: force, at: range)
        return CommandResult(DefinitionsSaved(path: path, definitions: script.commandCount))
    }
}
