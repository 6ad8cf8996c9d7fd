/// The name the running executable goes by in its usage, help and messages: `patchbay` for
/// Patchbay's own, the app's for an app that hosts its stores (`todo-inspector`), so that what
/// a user reads names the program they ran.
enum ExecutableName {
    /// The name of the executable being run (`Patchbay.main` sets it for the run).
    @TaskLocal static var current = "patchbay"

    /// The name of the program at `path` (a process's `argv[0]`): its last component, or
    /// `patchbay` when there is none.
    static func of(path: String?) -> String {
        guard let last = path?.split(separator: "/").last, !last.isEmpty else { return "patchbay" }
        return String(last)
    }
}
