@_spi(Shell) import PatchbayCore
@_spi(Shell) public import PatchbayGraph
@_spi(Shell) public import PatchbayRecorder

/// Why a time-travel command could not run.
@_spi(Shell)
public enum TimeTravelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store is unknown, ambiguous, or the graph refused the move.
    case graph(GraphError)
    /// The history refused the move.
    case history(store: String, HistoryError)
    /// `skip` needs reducers to recompute with, and the store has none (it was inspected).
    case noReducers(store: String)

    public var description: String {
        switch self {
        case .graph(let error): error.description
        case .history(_, let error): error.description
        case .noReducers(let store):
            "\(store) has no reducers to recompute its states with (an inspected recording keeps its states as recorded); add reducers first"
        }
    }
}
