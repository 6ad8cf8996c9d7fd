@_spi(Shell) import PatchbayCore

/// Nothing to show: no line, `null` in JSON.
struct NoReport: CommandReport {
    func lines(in style: OutputStyle) -> [String] { [] }
    var json: Value { .null }
}

/// A value (`= EXPR`, `state`): its literal form, elided as the style says; the value in JSON.
/// With `tree`, an indented tree of it (`state --tree`).
struct ValueReport: CommandReport {
    var value: Value
    var tree = false

    func lines(in style: OutputStyle) -> [String] { tree ? style.tree(value) : [style.value(value)] }
    var json: Value { value }
}

/// A command that Ctrl-C reached after it had put files in place (`save`, `export`, `graph
/// --dot FILE`, `record`): what it did is reported, and the files stay, said so instead of
/// "nothing changed".
struct InterruptedAfterWriting: CommandReport {
    var result: any CommandReport
    var files: [String]

    func lines(in style: OutputStyle) -> [String] {
        result.lines(in: style) + ["interrupted after \(files.joined(separator: ", ")) \(files.count == 1 ? "was" : "were") written, which stays"]
    }

    var json: Value { ["result": result.json, "interrupted": true, "written": .array(files.map(Value.string))] }
}
