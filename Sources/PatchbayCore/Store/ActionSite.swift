/// Where a step's action came from (`history --trace`): a line of the app's source, or, for an
/// action the shell dispatched, the command or the wire that did.
@_spi(Shell)
public enum ActionSite: Sendable, Hashable {
    /// A line of the app: the caller of `Store.dispatch`, of a middleware's dispatch, or of
    /// `Recorder.record`. The only site a session file keeps.
    case source(CallSite)
    /// The shell: the command that started the change, then each port the action passed through
    /// on its way to the store (the chain `why` shows for the store's `action` port).
    case shell([String])

    /// The site in the app's source, if the action has one.
    public var callSite: CallSite? {
        if case .source(let site) = self { return site }
        return nil
    }
}
