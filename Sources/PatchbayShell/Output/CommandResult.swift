import PatchbayCore

/// What a successful command produced: lines for people and a value for `--json`.
struct CommandResult {
    var lines: [String]
    var json: Value

    init(lines: [String] = [], json: Value = .null) {
        self.lines = lines
        self.json = json
    }

    /// A result that prints a value (literal form for people, JSON for machines).
    static func value(_ value: Value) -> CommandResult {
        CommandResult(lines: [value.description], json: value)
    }
}
