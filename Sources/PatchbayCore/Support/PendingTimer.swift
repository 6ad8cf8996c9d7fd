
/// A timer waiting on the virtual clock, told by what it will do: what a recording that starts
/// while timers are pending holds of them (`Graph.pendingTimers`), so that its replay sets them
/// again (`Graph.setAgain(_:)`) and fires them when the live session did.
@_spi(Shell)
public struct PendingTimer: Sendable, Equatable {
    /// What a timer does when it fires.
    public enum Purpose: Sendable, Equatable {
        /// A store's `after MS` reducer `reducer` applies `action`, of step `from`.
        case reducer(String, action: Value, from: Int)
        /// A `delay` patch sends `value` out of `out`.
        case delay(Value)
        /// A `timer` patch sends its next tick; it has sent `count` so far.
        case period(count: Int)
    }

    /// The virtual time it fires at.
    public var due: Int
    /// The node it belongs to: the store of an `after` reducer, or the patch.
    public var node: String
    public var purpose: Purpose

    public init(due: Int, node: String, purpose: Purpose) {
        self.due = due
        self.node = node
        self.purpose = purpose
    }
}
