import PatchbayCore

extension Shell {
    /// `set` lists the settings, `set NAME` shows one, `set NAME VALUE` changes one.
    func setting(_ name: Name?, _ value: Name?) throws(ShellError) -> CommandResult {
        if let name, let value {
            do throws(SettingError) { try options.settings.set(name.text, to: value.text) } catch {
                throw ShellError(.usage(command: "set", detail: error.message, synopsis: Self.settingSynopsis),
                                 at: error.value == nil ? name.range : value.range)
            }
        } else if let name, ShellSettings.setting(named: name.text) == nil {
            throw ShellError(.usage(command: "set", detail: SettingError(name: name.text, value: nil).message, synopsis: Self.settingSynopsis),
                             at: name.range)
        }
        let shown = name.map { [ShellSettings.setting(named: $0.text) ?? $0.text] } ?? ShellSettings.names
        let values = options.settings.values.filter { shown.contains($0.name) }
        var lines = values.map { "\($0.name.padding(to: 9))\($0.value)\(settingNote($0.name))" }
        if value != nil, shown == ["color"], options.settings.color, !options.usesColor, !options.json {
            lines.append("note: the output is not a terminal that takes colour (or NO_COLOR is set): it stays plain")
        }
        return CommandResult(lines: lines, json: .object(Value.Members(uniqueKeysWithValues: values.map { name, _ in
            (name, settingJSON(name))
        })))
    }

    private static let settingSynopsis = "set [width N|auto] [pager on|off] [color on|off] [truncate N|off]"

    /// What a setting comes to here, when that is not what it says (`auto` is how many columns).
    private func settingNote(_ name: String) -> String {
        switch name {
        case "width" where options.settings.width == nil: "  (\(options.width) columns)"
        case "pager" where options.height == nil: "  (no pager here: only an interactive terminal pages, without --no-pager)"
        default: ""
        }
    }

    private func settingJSON(_ name: String) -> Value {
        switch name {
        case "width": options.settings.width.map(Value.int) ?? .string("auto")
        case "pager": .bool(options.settings.pager)
        case "color": .bool(options.settings.color)
        default: options.settings.truncate.map(Value.int) ?? .string("off")
        }
    }
}
