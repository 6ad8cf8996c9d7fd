import PatchbayCore
import PatchbayGraph

/// What a successful command produced: lines for people and a value for `--json`.
///
/// Both are built only when read: the shell renders one of them, and a verifying replay
/// neither, so building them up front (a dispatch's changes as text and as objects, say)
/// would be wasted work on every command.
struct CommandResult {
    private var makeLines: () -> [String]
    private let makeJSON: () -> Value

    /// `lines` and `json` are evaluated when read, not here.
    init(lines: @autoclosure @escaping () -> [String] = [], json: @autoclosure @escaping () -> Value = .null) {
        makeLines = lines
        makeJSON = json
    }

    /// The result for people, a line each.
    var lines: [String] {
        get { makeLines() }
        set { makeLines = { newValue } }
    }

    /// The result as a value, for `--json`.
    var json: Value { makeJSON() }

    /// A result that prints a value (literal form for people, elided as `style` says; JSON
    /// for machines).
    static func value(_ value: Value, style: OutputStyle) -> CommandResult {
        CommandResult(lines: [style.value(value)], json: value)
    }
}
