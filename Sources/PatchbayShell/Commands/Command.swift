@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

/// A parsed shell command: a command of one family, whose folder (`Commands/General/`,
/// `Commands/Dataflow/`, `Commands/Stores/`, `Commands/Routing/`, `Commands/TimeTravel/`,
/// `Commands/Sessions/`) holds how it is parsed, documented, run, reported, completed and recorded.
enum Command: Sendable {
    case general(GeneralCommand)
    case dataflow(DataflowCommand)
    case store(StoreCommand)
    case route(RouteCommand)
    case timeTravel(TimeTravelCommand)
    case session(SessionCommand)
}

extension Command {
    /// How a recording holds the command (see `RecordedForm`), as its family says.
    var recordedForm: RecordedForm {
        switch self {
        case .general(let command): command.recordedForm
        case .dataflow(let command): command.recordedForm
        case .store(let command): command.recordedForm
        case .route(let command): command.recordedForm
        case .timeTravel(let command): command.recordedForm
        case .session(let command): command.recordedForm
        }
    }

    /// Whether rolling the graph and the histories back, removing the nodes made since and
    /// putting back the settings and the selection takes back what the command did (see
    /// `LastingChanges`), as its family says.
    var isTakenBackWithItsNodes: Bool {
        switch self {
        case .general(let command): command.isTakenBackWithItsNodes
        case .dataflow(let command): command.isTakenBackWithItsNodes
        case .store(let command): command.isTakenBackWithItsNodes
        case .route(let command): command.isTakenBackWithItsNodes
        case .timeTravel(let command): command.isTakenBackWithItsNodes
        case .session(let command): command.isTakenBackWithItsNodes
        }
    }

    /// The command with `store` in place of a STORE that was left out, for the commands whose
    /// STORE is optional (the list `help use` gives), as their family says. A command that names
    /// its store keeps it. `range` is what errors about the store point at.
    func selecting(_ store: String, at range: Range<Int>) -> Command {
        let name = Name(text: store, range: range)
        switch self {
        case .store(let command): return .store(command.selecting(name))
        case .timeTravel(let command): return .timeTravel(command.selecting(name))
        case .session(let command): return .session(command.selecting(name))
        case .general, .dataflow, .route: return self
        }
    }

    /// Whether the command starts, stops or reports a recording: those are not recorded.
    var isRecordingControl: Bool {
        if case .session(let command) = self { command.isRecordingControl } else { false }
    }

    /// Whether people read the command's result before the events it set off (see
    /// `StoreCommand.printsBeforeItsEvents`).
    var printsBeforeItsEvents: Bool {
        if case .store(let command) = self { command.printsBeforeItsEvents } else { false }
    }
}

/// How a recording holds a command, so that a replay of it reads and writes no other file.
enum RecordedForm: Equatable {
    /// The command line, then its effects (and its error).
    case itself
    /// What the command ran: the commands a `load`, `step` or `continue` runs; for a `replay`
    /// or `inspect`, the session's stores as they became (see `Shell.recordRestart`), then what
    /// follows; for an `import devtools`, the store's new start and the `dispatch` commands it
    /// ran. A command that failed before it ran anything is held as a comment (`setup` line)
    /// and its error: it changed nothing, and a replay that ran it again would read its file
    /// as it is then, which may have changed.
    case whatItRuns
    /// A comment (`setup` line): the command only wrote a file, which a replay does not.
    case note
}
