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
