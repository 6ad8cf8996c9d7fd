@_spi(Shell) import PatchbayGraph

/// What the commands a `load` ran did that Ctrl-C cannot take back with the `load`: Ctrl-C
/// takes back the values, wires, clock, navigation and histories a command changed
/// (`Graph.rollBack(to:)`, `StoreHistories.rollBack(to:)`), the nodes it made
/// (`Graph.removeNodes(madeSince:)`) and the settings and the selection, but not a node it
/// removed, a definition it added to what was there before (a reducer on an older store, a
/// route, a patch type), nor a history it rewrote more than once.
struct LastingChanges {
    /// The first command that ran and cannot be taken back, as its cause reads.
    private(set) var firstCommand: String?
    /// The stores the commands gave reducers or middleware: taken back with a store made since.
    private var extendedStores: [(store: String, command: String)] = []
    /// The files the commands put in place (`save`, `export devtools`, `graph --dot FILE`,
    /// `record`): a file replaced stays replaced, whatever happens to the command after.
    private(set) var writtenFiles: [String] = []

    /// Notes that a command put `path` in place.
    mutating func wrote(_ path: String) {
        writtenFiles.append(path)
    }

    /// Notes what `command` (which ran to its end) did.
    mutating func note(_ command: Command, text: String) {
        if case .store(let storeCommand) = command, let store = storeCommand.storeItExtends {
            extendedStores.append((store, Shell.causeText(text)))
        } else if firstCommand == nil, !command.isTakenBackWithItsNodes {
            firstCommand = Shell.causeText(text)
        }
    }

    /// These changes, then `later`'s.
    func merging(_ later: LastingChanges) -> LastingChanges {
        var merged = self
        merged.firstCommand = firstCommand ?? later.firstCommand
        merged.extendedStores += later.extendedStores
        merged.writtenFiles += later.writtenFiles
        return merged
    }

    /// Why these commands cannot be taken back by rolling `graph` back to `mark` (made before
    /// they ran), or `nil` when they can.
    func kept(in graph: Graph, since mark: Graph.Mark) -> String? {
        let extended = extendedStores.first { !graph.isNode($0.store, madeSince: mark) }
        if let command = firstCommand ?? extended?.command { return "'\(command)' cannot be taken back" }
        // Inside `begin` ... `commit` no node can be removed.
        if graph.engine.isInTransaction { return "a transaction ('begin') is open" }
        return nil
    }
}
