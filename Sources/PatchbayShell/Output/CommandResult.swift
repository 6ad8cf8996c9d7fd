import PatchbayCore

/// What a successful command produced: lines for people and a value for `--json`.
///
/// The value is built only when it is read: most commands run with human output, where building
/// it (a dispatch's changes as objects, say) would be wasted work on every command.
struct CommandResult {
    var lines: [String]
    private let makeJSON: () -> Value

    /// `json` is evaluated when `json` is read, not here.
    init(lines: [String] = [], json: @autoclosure @escaping () -> Value = .null) {
        self.lines = lines
        makeJSON = json
    }

    /// The result as a value, for `--json`.
    var json: Value { makeJSON() }

    /// A result that prints a value (literal form for people, JSON for machines).
    static func value(_ value: Value) -> CommandResult {
        CommandResult(lines: [value.description], json: value)
    }
}
