@_spi(Shell) import PatchbayCore

/// Why a `History` operation could not be done. Each case carries the store's name and what the
/// message needs, and `description` is one line: "app has no step 12: its history goes from 0 to 9".
@_spi(Shell)
public enum HistoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// There is no state `index`: the states of the current timeline go from 0 to `count`.
    case noSuchState(store: String, index: Int, count: Int)
    /// There is no action `index`: the actions of the current timeline go from 1 to `count`.
    case noSuchAction(store: String, index: Int, count: Int)
    /// `record` was given action `got` while the next one is `expected`.
    case outOfOrder(store: String, expected: Int, got: Int)
    /// There is no branch `name`; `branches` are the existing ones, in creation order.
    case unknownBranch(store: String, name: String, branches: [String])
    /// `skip` of an action that is already skipped.
    case alreadySkipped(store: String, index: Int)
    /// `unskip` of an action that is not skipped.
    case notSkipped(store: String, index: Int)
    /// The recorded changes of action `index` do not apply to the state before it, so the states
    /// from it on cannot be rebuilt: the history was given changes that do not match its states.
    case inconsistent(store: String, index: Int, reason: String)
    /// `history sweep` would leave `branch` with no action of its own: every action it added
    /// is skipped.
    case sweepEmptiesBranch(store: String, branch: String, parent: String)
    /// A recomputation (`skip`, `unskip`, `history recompute`) stopped at action `index`, which
    /// the store's reducers cannot run at all (`reason`: an app's reducer, which the state or
    /// the action does not decode for); the history is as it was.
    case cannotRecompute(store: String, index: Int, type: String, reason: String)
    /// Ctrl-C stopped a recomputation (`skip`, `unskip`); the history is as it was.
    case interrupted

    /// The one-line message.
    public var description: String {
        switch self {
        case .noSuchState(let store, let index, let count):
            count == 0
                ? "\(store) has no step \(index): its history holds only the initial state 0"
                : "\(store) has no step \(index): its history goes from 0 to \(count)"
        case .noSuchAction(let store, let index, let count):
            switch count {
            case 0: "\(store) has no action \(index): it has no actions yet"
            case 1: "\(store) has no action \(index): its only action is 1"
            default: "\(store) has no action \(index): its actions go from 1 to \(count)"
            }
        case .outOfOrder(let store, let expected, let got):
            "\(store) cannot record action \(got) now: the next action is \(expected)"
        case .unknownBranch(let store, let name, let branches):
            "\(store) has no branch '\(name)': its branches are \(branches.joined(separator: ", "))"
        case .alreadySkipped(let store, let index):
            "action \(index) of \(store) is already skipped"
        case .notSkipped(let store, let index):
            "action \(index) of \(store) is not skipped"
        case .inconsistent(let store, let index, let reason):
            "action \(index) of \(store) does not apply to the state before it: \(reason)"
        case .sweepEmptiesBranch(let store, let branch, let parent):
            "every action \(branch) of \(store) added is skipped, so the sweep would leave nothing to tell it from \(parent): "
                + "unskip one to keep the branch, or 'checkout \(parent)' and sweep there"
        case .cannotRecompute(let store, let index, let type, let reason):
            "action \(index) of \(store) (\(type)) cannot run through its reducer again: \(reason); nothing changed"
        case .interrupted:
            InterruptionError().description
        }
    }
}
