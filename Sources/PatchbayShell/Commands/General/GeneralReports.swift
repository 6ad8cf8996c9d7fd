@_spi(Shell) import PatchbayCore

/// `reset`: everything defined is gone (an app's stores are back in their initial states).
struct SessionReset: CommandReport {
    /// Whether the shell hosts an app's stores, which come back rather than go.
    var hasHostedStores: Bool

    func lines(in style: OutputStyle) -> [String] {
        ["reset: everything defined in this session is gone" + (hasHostedStores ? "; the app's stores are back in their initial states" : "")]
    }

    var json: Value { .null }
}

/// `load FILE`: the file run, and how many commands it ran (it prints what they print, nothing
/// of its own).
struct ScriptLoaded: CommandReport {
    var path: String
    var commands: Int

    func lines(in style: OutputStyle) -> [String] { [] }
    var json: Value { ["file": .string(path), "commands": .int(commands)] }
}

/// `save FILE`: how many definitions went to the file.
struct DefinitionsSaved: CommandReport {
    var path: String
    var definitions: Int

    func lines(in style: OutputStyle) -> [String] {
        ["saved \(counted(definitions, "definition")) to \(path)"]
    }

    var json: Value { ["file": .string(path), "lines": .int(definitions)] }
}

/// `set`, `set NAME`, `set NAME VALUE`: the settings shown, with what one comes to here when
/// that is not what it says.
struct SettingsShown: CommandReport {
    var settings: ShellSettings
    /// The names of the settings shown, as `ShellSettings.names` orders them.
    var shown: [String]
    /// The output's width in columns, which `width auto` comes to.
    var columns: Int
    /// Whether the output pages here (an interactive terminal, without `--no-pager`).
    var canPage: Bool
    /// Whether `color` was just turned on for an output that stays plain.
    var colorStaysPlain: Bool

    func lines(in style: OutputStyle) -> [String] {
        var lines = settings.values.filter { shown.contains($0.name) }.map { "\($0.name.padding(to: 9))\($0.value)\(note($0.name))" }
        if colorStaysPlain {
            lines.append("note: the output is not a terminal that takes colour (or NO_COLOR is set): it stays plain")
        }
        return lines
    }

    var json: Value {
        .object(Value.Members(uniqueKeysWithValues: settings.values.filter { shown.contains($0.name) }.map { name, _ in
            (ObjectKey(name), value(of: name))
        }))
    }

    /// What a setting comes to here, when that is not what it says (`auto` is how many columns).
    private func note(_ name: String) -> String {
        switch name {
        case "width" where settings.width == nil: "  (\(columns) columns)"
        case "pager" where !canPage: "  (no pager here: only an interactive terminal pages, without --no-pager)"
        default: ""
        }
    }

    private func value(of name: String) -> Value {
        switch name {
        case "width": settings.width.map(Value.int) ?? .string("auto")
        case "pager": .bool(settings.pager)
        case "color": .bool(settings.color)
        case "identity": settings.identity.map(Value.string) ?? .null
        default: settings.truncate.map(Value.int) ?? .string("off")
        }
    }
}
