@_spi(Shell) public import PatchbayCore

/// An action that changed the value at a path: `blame` lists one per such action.
@_spi(Shell)
public struct Blame: Sendable, Equatable {
    /// The action's index on the timeline.
    public var index: Int
    /// The action object.
    public var action: Value
    /// The value at the path before the action; `nil` where the path did not exist.
    public var old: Value?
    /// The value at the path after the action; `nil` where the path no longer exists.
    public var new: Value?

    /// A blame line.
    public init(index: Int, action: Value, old: Value?, new: Value?) {
        self.index = index
        self.action = action
        self.old = old
        self.new = new
    }
}
