@_spi(Shell) import PatchbayCore

/// What a command found or did, as data. A command returns one, and the renderer
/// (`Renderer.success`) is the one place that turns it into what is shown: lines for people, laid
/// out with the session's `OutputStyle` (width, truncation of long values, colour; the pager
/// takes the lines after), or the `result` of the command's JSON line (PatchbayHost.docc/CommandLanguageTour.md).
///
/// Each kind of result is a type of its own (in its family's folder, `Commands/Stores/` say, or
/// `Output/Reports/` for the shared ones) that gives both forms from the same fields. Neither is made before it is rendered: the shell shows one of them, and a
/// verifying replay neither, so a command pays only for what is shown.
protocol CommandReport {
    /// The result for people, a line each, in `style`.
    func lines(in style: OutputStyle) -> [String]
    /// The result as a value, for `--json`.
    var json: Value { get }
}

/// A command's report (see `CommandReport`), as the interpreter passes it to the renderer.
struct CommandResult {
    let report: any CommandReport

    init(_ report: some CommandReport) {
        self.report = report
    }

    /// A result that prints nothing, and `null` in JSON (`set`, `send`, `quit`).
    static var nothing: CommandResult { CommandResult(NoReport()) }

    /// A result that prints a value: its literal form for people (elided as the style says),
    /// the value itself in JSON.
    static func value(_ value: Value) -> CommandResult { CommandResult(ValueReport(value: value)) }
}
