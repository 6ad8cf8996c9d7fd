/// Sees every action a store handles, with the state after it (and before it, when asked):
/// the hook through which the recorder keeps history, so the store does not depend on the
/// recorder. Every requirement has a default: no state before, and methods that do nothing.
public protocol StoreObserver<State, Action>: AnyObject {
    associatedtype State
    associatedtype Action

    /// Whether `DispatchRecord.before` is wanted (`false` by default). Asking for it keeps the
    /// state before each action alive while the reducer runs, so that every collection the
    /// action changes is copied: a dispatch then costs what the changed collections hold, not
    /// a constant. Read once, when the observer is added.
    var wantsStateBefore: Bool { get }

    /// An action was reduced.
    func store(didReduce record: DispatchRecord<State, Action>)
    /// A middleware dropped an action, which changed nothing.
    func store(didDrop action: Action, index: Int)
}

extension StoreObserver {
    public var wantsStateBefore: Bool { false }
    public func store(didReduce record: DispatchRecord<State, Action>) {}
    public func store(didDrop action: Action, index: Int) {}
}

/// One action as a store handled it.
public struct DispatchRecord<State, Action> {
    /// The action's number in the store: 1 for the first.
    public var index: Int
    /// The action reduced (after middleware).
    public var action: Action
    /// The state before the action, when an observer of the store asked for it
    /// (`StoreObserver.wantsStateBefore`); `nil` otherwise.
    public var before: State?
    public var after: State
    /// The index of the action during whose handling this one was dispatched, if any (a
    /// dispatch from a subscriber or middleware).
    public var cause: Int?
    /// The file of the call that dispatched the action (`#fileID`: `TodoApp/TodoList.swift`).
    public var fileID: StaticString
    /// The line of the call that dispatched the action.
    public var line: UInt

    @usableFromInline
    package init(index: Int, action: Action, before: State?, after: State, cause: Int?, fileID: StaticString, line: UInt) {
        self.index = index
        self.action = action
        self.before = before
        self.after = after
        self.cause = cause
        self.fileID = fileID
        self.line = line
    }

    /// Where the action was dispatched: the caller of `Store.dispatch` or of a middleware's
    /// dispatch. (Made on demand: the record itself holds the caller's static text and line.)
    public var site: CallSite { CallSite(fileID: fileID, line: line) }
}

extension DispatchRecord: Sendable where State: Sendable, Action: Sendable {}
