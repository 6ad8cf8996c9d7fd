public import PatchbayCore

/// RFC 6902 JSON Patch, the part the session file uses: `add`, `remove` and `replace`.
///
/// An action line's `patch` is the list of operations that turns the state before the action
/// into the state after it: `[{"op":"replace","path":"/count","value":2}]`. Operations are made
/// from `ValueChange`s when recording, and applied back with `apply(_:to:)`, which returns the
/// full changes (old values included) so that a history can go backward as well as forward.
public enum JSONPatch {
    /// One operation: `{"op":"add","path":"/items/2","value":...}`; a `remove` has no value.
    public struct Operation: Sendable, Equatable {
        /// `add`, `remove` or `replace`.
        public var op: ValueChange.Operation
        /// Where the operation applies.
        public var path: JSONPointer
        /// The value added or put in place; `nil` for a remove.
        public var value: Value?

        /// An operation at `path`; `value` is needed for `add` and `replace`.
        public init(_ op: ValueChange.Operation, path: JSONPointer, value: Value? = nil) {
            self.op = op
            self.path = path
            self.value = op == .remove ? nil : value
        }

        /// The operation that makes `change` (its old value is left out, as RFC 6902 has no
        /// place for it). An add at the end of an array is written with the index, not `-`.
        public init(_ change: ValueChange) {
            self.init(change.operation, path: JSONPointer(change.path), value: change.new)
        }
    }

    /// The operations that make `changes`, in order.
    public static func operations(_ changes: [ValueChange]) -> [Operation] {
        changes.map(Operation.init)
    }

    /// Applies `operations` to `state` in order and returns what each changed, old values
    /// included. A pointer token names an object key or an array index by the container it
    /// meets at that moment; `-` adds at the end of an array; an `add` at an existing key
    /// replaces its value (and is returned as a `replace`).
    ///
    /// All or nothing: when an operation fails, the ones before it are undone, `state` is as it
    /// was, and the error names the operation and why it failed.
    public static func apply(_ operations: [Operation], to state: inout Value) throws(JSONPatchError) -> [ValueChange] {
        var changes: [ValueChange] = []
        changes.reserveCapacity(operations.count)
        var keyPositions: [Int?] = []
        for (index, operation) in operations.enumerated() {
            do {
                let (change, keyPosition) = try PatchApplier.apply(operation, to: &state)
                changes.append(change)
                keyPositions.append(keyPosition)
            } catch {
                for (change, keyPosition) in zip(changes, keyPositions).reversed() {
                    PatchApplier.undo(change, keyPosition: keyPosition, in: &state)
                }
                throw JSONPatchError(index: index, operation: operation, at: JSONPointer(error.path), reason: error.reason)
            }
        }
        return changes
    }
}
