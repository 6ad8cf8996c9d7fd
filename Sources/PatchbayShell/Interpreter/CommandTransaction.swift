@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayHistory

/// What the shell knows of the command it is running (see `Shell.perform`), in one value: it is
/// saved when a command runs others (a `load`'s script, a replay) and put back after them.
struct CommandTransaction {
    /// The recorders that took the command (see `Shell.recorders(for:)`).
    var recordersInCharge: [SessionRecorder] = []
    /// The recorders that take the commands the command runs: those that took it, when it is
    /// recorded as the commands it runs (`load`, `replay`, `step`, `continue`).
    var inheritedRecorders: [SessionRecorder] = []
    /// Whether the command has started what it runs (a `load` its commands, a `replay` or
    /// `inspect` a fresh session): its own error is then not recorded.
    var hasStartedInnerCommands = false
    /// Where the histories, the graph and the recorders stood when the command started, to take
    /// back what it did if Ctrl-C stops it.
    var marks: (histories: StoreHistories.Marks, graph: Graph.Mark, events: [Int])?
    /// What the command and the commands it ran did that Ctrl-C cannot take back with it (a
    /// file written, a definition a `load` made).
    var lastingChanges = LastingChanges()
}
