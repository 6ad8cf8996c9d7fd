/// Sees every action a store handles, with the state before and after it: the hook through
/// which the recorder keeps history, so the store does not depend on the recorder.
/// Every method has an empty default.
public protocol StoreObserver<State, Action>: AnyObject {
    associatedtype State
    associatedtype Action

    /// An action was reduced.
    func store(didReduce record: DispatchRecord<State, Action>)
    /// A middleware dropped an action, which changed nothing.
    func store(didDrop action: Action, index: Int)
}

extension StoreObserver {
    public func store(didReduce record: DispatchRecord<State, Action>) {}
    public func store(didDrop action: Action, index: Int) {}
}

/// One action as a store handled it.
public struct DispatchRecord<State, Action> {
    /// The action's number in the store: 1 for the first.
    public var index: Int
    /// The action reduced (after middleware).
    public var action: Action
    public var before: State
    public var after: State
    /// The index of the action during whose handling this one was dispatched, if any (a
    /// dispatch from a subscriber or middleware).
    public var cause: Int?

    @usableFromInline
    package init(index: Int, action: Action, before: State, after: State, cause: Int?) {
        self.index = index
        self.action = action
        self.before = before
        self.after = after
        self.cause = cause
    }
}

extension DispatchRecord: Sendable where State: Sendable, Action: Sendable {}
