@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

extension Shell {
    /// `edit REDUCER` (psql's `\e`): opens the reducer's statements in the user's editor, in a
    /// file headed by what the reducer is (as `#` comments), and applies what the file holds when
    /// the editor exits, as `reducer ID : STATEMENTS` does (which is what a recording holds).
    /// Statements that do not parse open again, under a comment with the error and its line and
    /// column; the reducer changes only once they parse. A file left as it was, or with no
    /// statements, cancels.
    func edit(_ id: Name, origin: SourceOrigin, output: inout [OutputLine]) throws(ShellError) -> CommandResult {
        let summaries = try call([id], [], id.range) { () throws(GraphError) in try graph.reducerSummaries() }
        guard let summary = summaries.first(where: { $0.id == id.text }) else {
            throw ShellError(.graph(.unknownReducer(id.text, existing: summaries.map(\.id))), at: id.range)
        }
        guard let editor else {
            throw ShellError(.edit("no editor to open: edit runs $VISUAL or $EDITOR at an interactive terminal "
                                   + "(set one, or use 'reducer \(id.text) : STATEMENTS')"), at: id.range)
        }
        let header = EditedReducer.header(summary)
        var opened = (header + [summary.body]).joined(separator: "\n") + "\n"
        while true {
            let saved: String
            do throws(EditorFailure) { saved = try editor.edit(opened) } catch {
                throw ShellError(.edit("the editor '\(editor.name)' \(error.reason); \(id.text) is unchanged"), at: id.range)
            }
            try checkInterruption()
            if saved == opened { return CommandResult(EditCancelled(reducer: id.text, reason: "the file was left as it was")) }
            let file = EditedReducer(saved)
            guard let body = file.body else { return CommandResult(EditCancelled(reducer: id.text, reason: "the file was left empty")) }
            do throws(ExpressionError) {
                _ = try StatementBlock.parse(file.statements, from: 0, context: .reducer)
            } catch {
                opened = (header + [file.comment(for: error)] + [file.uncommented]).joined(separator: "\n") + "\n"
                continue
            }
            running.hasStartedInnerCommands = true
            let outcome = perform("reducer \(id.text) : \(body)", at: origin, rendered: true)
            output += outcome.lines
            guard outcome.status != .failure else {
                throw ShellError(.edit("\(id.text) is unchanged: the reducer command the file made failed (see above)"), at: id.range)
            }
            return .nothing
        }
    }
}

/// The file `edit REDUCER` opens, and what the user saved in it: `#` lines are comments, the
/// other lines the reducer's statements.
struct EditedReducer {
    /// The lines as saved, without a last empty line.
    let lines: [Substring]

    init(_ text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        self.lines = lines.map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
    }

    /// The comment lines that head the file: the reducer as `reducer` makes it, then what to do.
    static func header(_ summary: ReducerSummary) -> [String] {
        var made = "\(summary.store) on \(summary.type)"
        if let path = summary.path { made += " at \(path)" }
        if let condition = summary.condition { made += " when \(condition)" }
        if let delay = summary.delay { made += " after \(delay)" }
        return ["# reducer \(summary.id) = \(made)",
                "# Edit its statements below (lines that start with # are ignored), then save and quit to apply",
                "# them. Leave the file as it was, or without statements, to cancel."]
    }

    static func isComment(_ line: Substring) -> Bool { line.drop { $0 == " " || $0 == "\t" }.hasPrefix("#") }

    /// The statements with each comment line left empty, so that an error's line and column are
    /// those of the file.
    var statements: String {
        lines.map { Self.isComment($0) ? "" : String($0) }.joined(separator: "\n")
    }

    /// The lines that are not comments, as they were.
    var uncommented: String {
        lines.filter { !Self.isComment($0) }.joined(separator: "\n")
    }

    /// The statements as the body of `reducer ID : ...`, `nil` when there are none: one line as
    /// it is, several in braces (a block), so that the command reads back whole.
    var body: String? {
        let trimmed = statements.trimmingBlankLines
        guard !trimmed.isEmpty else { return nil }
        guard trimmed.contains("\n"), !trimmed.hasPrefix("{") else { return trimmed }
        return "{\n\(trimmed)\n}"
    }

    /// `# error: line 4, column 14: ...`, the line and column in the file as saved.
    func comment(for error: ExpressionError) -> String {
        let position = TextPosition(offset: error.range.lowerBound, in: statements)
        return "# error: line \(position.lineIndex + 1), column \(position.column): \(error.description)"
    }
}

extension String {
    /// The text without blank lines, spaces and tabs at its start and end.
    fileprivate var trimmingBlankLines: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        return String(drop(while: blank).reversed().drop(while: blank).reversed())
    }
}

/// `edit REDUCER` cancelled, as the user left the file: `edit r1: cancelled (REASON); r1 is
/// unchanged`; `{reducer, cancelled: REASON}` in JSON.
struct EditCancelled: CommandReport {
    var reducer: String
    var reason: String

    func lines(in style: OutputStyle) -> [String] { ["edit \(reducer): cancelled (\(reason)); \(reducer) is unchanged"] }
    var json: Value { ["reducer": .string(reducer), "cancelled": .string(reason)] }
}
