@_spi(Shell) public import PatchbayCore

/// RFC 6902 JSON Patch, the part the session file uses: `add`, `remove` and `replace`.
///
/// An action line's `patch` is the list of operations that turns the state before the action
/// into the state after it: `[{"op":"replace","path":"/count","value":2}]`. Operations are made
/// from `ValueChange`s when recording, and applied back with `apply(_:to:)`, which returns the
/// full changes (old values included) so that a history can go backward as well as forward.
@_spi(Shell)
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
    /// replaces its value (and is returned as a `replace`). Each operation is resolved into a
    /// `ValueChange` and applied with `Value.apply(_:)`, the one applier of changes.
    ///
    /// All or nothing: when an operation fails, the ones before it are undone, `state` is as it
    /// was, and the error names the operation and why it failed.
    public static func apply(_ operations: [Operation], to state: inout Value) throws(JSONPatchError) -> [ValueChange] {
        var changes: [ValueChange] = []
        changes.reserveCapacity(operations.count)
        // Where each removed object key stood, by the change's position (most patches remove
        // none, and an empty dictionary costs nothing).
        var keyPositions: [Int: Int] = [:]
        for (index, operation) in operations.enumerated() {
            let (change, keyPosition): (ValueChange, Int?)
            do {
                (change, keyPosition) = try resolve(operation, in: state)
            } catch {
                for (position, change) in changes.enumerated().reversed() {
                    try? state.undo(change, position: keyPositions[position])
                }
                throw JSONPatchError(index: index, operation: operation, at: JSONPointer(error.path), reason: error.reason)
            }
            // Resolving checked every step of the path against `state`: the change applies.
            try? state.apply(change)
            if let keyPosition { keyPositions[changes.count] = keyPosition }
            changes.append(change)
        }
        return changes
    }

    /// A failed resolution: the path of the container where it failed, and why.
    private struct Failure: Error {
        var path: [ValueChange.PathComponent]
        var reason: JSONPatchError.Reason
    }

    /// The change `operation` makes to `state`, its tokens resolved against the containers
    /// they meet, and, for a removed object key, where the key stood (to undo it in place).
    private static func resolve(_ operation: Operation, in state: Value) throws(Failure) -> (ValueChange, Int?) {
        guard operation.op == .remove || operation.value != nil else { throw Failure(path: [], reason: .missingValue) }
        let tokens = operation.path.components
        guard let last = tokens.last else {
            guard operation.op != .remove else { throw Failure(path: [], reason: .removeRoot) }
            return (ValueChange(path: [], operation: .replace, old: state, new: operation.value), nil)
        }
        // The change's path is the pointer's tokens, each token that meets an array made an
        // index: a path through objects alone shares the pointer's storage.
        var path = tokens
        var container = state
        for position in tokens.indices.dropLast() {
            container = try step(into: container, at: position, path: &path)
        }
        let isAdd = operation.op == .add
        let new = isAdd || operation.op == .replace ? operation.value : nil
        let position = tokens.count - 1
        if case .object(let members) = container {
            let key = Self.key(last)
            if case .index = last { path[position] = .key(key) }
            guard let found = members.index(forKey: key) else {
                guard isAdd else { throw Failure(path: Array(path[..<position]), reason: .noKey(key)) }
                return (ValueChange(path: path, operation: .add, old: nil, new: new), nil)
            }
            let old = members.values[found]
            if operation.op == .remove { return (ValueChange(path: path, operation: .remove, old: old, new: nil), found) }
            return (ValueChange(path: path, operation: .replace, old: old, new: new), nil)
        }
        if case .array(let elements) = container {
            let index = try Self.index(last, count: elements.count, isAdd: isAdd, path: Array(path[..<position]))
            path[position] = .index(index)
            if isAdd { return (ValueChange(path: path, operation: .add, old: nil, new: new), nil) }
            return (ValueChange(path: path, operation: operation.op, old: elements[index], new: new), nil)
        }
        throw Failure(path: Array(path[..<position]), reason: .notAContainer(typeName: container.typeName))
    }

    /// The member or element of `container` that the token at `position` of `path` names; the
    /// token becomes the step it makes (a key, or an index into an array).
    private static func step(into container: Value, at position: Int, path: inout [ValueChange.PathComponent]) throws(Failure) -> Value {
        let token = path[position]
        if case .object(let members) = container {
            let key = Self.key(token)
            guard let member = members[key] else { throw Failure(path: Array(path[..<position]), reason: .noKey(key)) }
            if case .index = token { path[position] = .key(key) }
            return member
        }
        if case .array(let elements) = container {
            let index = try Self.index(token, count: elements.count, isAdd: false, path: Array(path[..<position]))
            path[position] = .index(index)
            return elements[index]
        }
        throw Failure(path: Array(path[..<position]), reason: .notAContainer(typeName: container.typeName))
    }

    private static func key(_ token: ValueChange.PathComponent) -> String {
        switch token {
        case .key(let key): key
        case .index(let index): String(index)
        }
    }

    /// The array index `token` names in an array of `count` elements: a number without
    /// leading zeros below `count` (up to `count` for an add), or `-` (the end) for an add.
    private static func index(_ token: ValueChange.PathComponent, count: Int, isAdd: Bool, path: [ValueChange.PathComponent])
        throws(Failure) -> Int
    {
        let index: Int
        switch token {
        case .index(let number):
            index = number
        case .key(let text):
            if isAdd, text == "-" { return count }
            let digits = text.utf8
            guard let first = digits.first, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  first != UInt8(ascii: "0") || digits.count == 1
            else { throw Failure(path: path, reason: .notAnIndex(text)) }
            index = Int(text) ?? .max
        }
        guard index >= 0, index < count || (isAdd && index == count) else {
            throw Failure(path: path, reason: .indexOutOfRange(index, count: count))
        }
        return index
    }
}

extension StoreStep where Change == ValueChange {
    /// The step as an action line writes it: its changes as RFC 6902 operations, written in
    /// full (a skip is a line of its own, so the line's step is not skipped), and its site only
    /// when it is a line of the app's source (the shell's command is a line of the file).
    public var patchForm: StoreStep<JSONPatch.Operation> {
        var step = withChanges(JSONPatch.operations(changes))
        step.skipped = false
        step.unrecorded = false
        step.site = site?.callSite.map(ActionSite.source)
        return step
    }
}
