import Foundation
@_spi(Shell) import PatchbayShell

/// The rc file of the interactive shell: `$XDG_CONFIG_HOME/patchbay/config`, by default
/// `~/.config/patchbay/config`. Each line is a setting as `set` takes it (`width 100`,
/// `pager off`, `color off`, `truncate 500`; a leading `set` is allowed), `#` starts a comment.
/// Scripts and pipes do not read it, so that their output is the same on every machine.
enum ConfigFile {
    static func defaultPath(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let configHome: String
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            configHome = xdg
        } else if let home = environment["HOME"], !home.isEmpty {
            configHome = home + "/.config"
        } else {
            return nil
        }
        return configHome + "/patchbay/config"
    }

    /// Applies the rc file's settings to `shell`, if there is one; each bad line is a warning
    /// on standard error, and the lines around it still apply.
    static func apply(to shell: Shell, output: OutputWriter) {
        guard let path = defaultPath(), let bytes = ScriptFile.bytes(atPath: path) else { return }
        let (settings, problems) = shell.options.settings.applying(configuration: String(decoding: bytes, as: UTF8.self))
        shell.options.settings = settings
        for problem in problems {
            output.write(OutputLine("\(ExecutableName.current): warning: \(path):\(problem)", to: .error))
        }
    }
}
