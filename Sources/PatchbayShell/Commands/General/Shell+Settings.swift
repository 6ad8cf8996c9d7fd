@_spi(Shell) import PatchbayCore

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
        let colorStaysPlain = value != nil && shown == ["color"] && options.settings.color && !options.usesColor
        return CommandResult(SettingsShown(settings: options.settings, shown: shown, columns: options.width, canPage: options.height != nil,
                                           colorStaysPlain: colorStaysPlain))
    }

    private static let settingSynopsis = "set [width N|auto] [pager on|off] [color on|off] [truncate N|off] [identity KEY|none]"
}
