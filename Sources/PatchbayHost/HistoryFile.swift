import Foundation

/// Where the interactive history lives: `$XDG_STATE_HOME/patchbay/history`, by default
/// `~/.local/state/patchbay/history`.
enum HistoryFile {
    static func defaultPath() -> String? {
        let environment = ProcessInfo.processInfo.environment
        let stateHome: String
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            stateHome = xdg
        } else if let home = environment["HOME"], !home.isEmpty {
            stateHome = home + "/.local/state"
        } else {
            return nil
        }
        return stateHome + "/patchbay/history"
    }
}
