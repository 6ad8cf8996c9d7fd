import PatchbayCore

/// A failed resolution: the path of the container where it failed, and why.
struct PatchFailure: Error {
    var path: [ValueChange.PathComponent]
    var reason: JSONPatchError.Reason
}

/// Applies and undoes single JSON Patch operations in place, resolving each pointer token
/// against the container it meets, in one walk down the value.
enum PatchApplier {
    /// What an edit did: the operation as it turned out (an `add` at an existing key is a
    /// `replace`), the value it took out, and where a removed key stood.
    private typealias Outcome = (operation: ValueChange.Operation, old: Value?, keyPosition: Int?)

    /// Applies `operation`, returning the change it made and, for a removed object key, the
    /// key's position (for `undo`).
    static func apply(_ operation: JSONPatch.Operation, to state: inout Value) throws(PatchFailure) -> (ValueChange, Int?) {
        let tokens = operation.path.components
        guard operation.op == .remove || operation.value != nil else { throw PatchFailure(path: [], reason: .missingValue) }
        guard !tokens.isEmpty else {
            guard operation.op != .remove, let new = operation.value else { throw PatchFailure(path: [], reason: .removeRoot) }
            let old = state
            state = new
            return (ValueChange(path: [], operation: .replace, old: old, new: new), nil)
        }
        var path: [ValueChange.PathComponent] = []
        path.reserveCapacity(tokens.count)
        let outcome = try edit(&state, tokens: tokens[...], path: &path, operation: operation.op, new: operation.value, keyPosition: nil)
        let change = ValueChange(path: path, operation: outcome.operation, old: outcome.old, new: operation.op == .remove ? nil : operation.value)
        return (change, outcome.keyPosition)
    }

    /// Undoes `change`, which `apply` made last; a removed key goes back to `keyPosition`.
    static func undo(_ change: ValueChange, keyPosition: Int?, in state: inout Value) {
        guard !change.path.isEmpty else {
            state = change.old ?? .null
            return
        }
        var path: [ValueChange.PathComponent] = []
        let inverse: (ValueChange.Operation, Value?) = switch change.operation {
        case .replace: (.replace, change.old)
        case .add: (.remove, nil)
        case .remove: (.add, change.old)
        }
        _ = try? edit(&state, tokens: change.path[...], path: &path, operation: inverse.0, new: inverse.1, keyPosition: keyPosition)
    }

    /// Walks `tokens` down from `value`, appending the resolved steps to `path`, and edits the
    /// container the last token is in. `new` is not `nil` for an add or a replace.
    private static func edit(
        _ value: inout Value, tokens: ArraySlice<ValueChange.PathComponent>, path: inout [ValueChange.PathComponent],
        operation: ValueChange.Operation, new: Value?, keyPosition: Int?
    ) throws(PatchFailure) -> Outcome {
        let token = tokens[tokens.startIndex]
        let isLast = tokens.count == 1
        // Each case takes the container out of `value` (leaving null) before changing it, so
        // that the container is uniquely referenced and changes in place. `if case`, not a
        // `switch` over `value`, whose copy of `value` would make every edit copy the container
        // (see `Value.set`).
        if case .object(var members) = value {
            let key = Self.key(token)
            let found = members.index(forKey: key)
            if isLast {
                switch operation {
                case .add:
                    value = .null
                    defer { value = .object(members) }
                    if let found {
                        let old = members.values[found]
                        members.values[found] = new!
                        path.append(.key(key))
                        return (.replace, old, nil)
                    }
                    if let keyPosition, keyPosition <= members.count {
                        members.updateValue(new!, forKey: key, insertingAt: keyPosition)
                    } else {
                        members[key] = new!
                    }
                    path.append(.key(key))
                    return (.add, nil, nil)
                case .replace, .remove:
                    guard let found else { throw PatchFailure(path: path, reason: .noKey(key)) }
                    value = .null
                    defer { value = .object(members) }
                    path.append(.key(key))
                    if operation == .remove { return (.remove, members.remove(at: found).value, found) }
                    let old = members.values[found]
                    members.values[found] = new!
                    return (.replace, old, nil)
                }
            }
            guard let found else { throw PatchFailure(path: path, reason: .noKey(key)) }
            path.append(.key(key))
            value = .null
            defer { value = .object(members) }
            return try edit(&members.values[found], tokens: tokens.dropFirst(), path: &path, operation: operation, new: new, keyPosition: keyPosition)
        }
        if case .array(var elements) = value {
            let index = try Self.index(token, count: elements.count, isAdd: isLast && operation == .add, path: path)
            path.append(.index(index))
            value = .null
            defer { value = .array(elements) }
            guard isLast else {
                return try edit(&elements[index], tokens: tokens.dropFirst(), path: &path, operation: operation, new: new, keyPosition: keyPosition)
            }
            switch operation {
            case .add:
                elements.insert(new!, at: index)
                return (.add, nil, nil)
            case .remove:
                return (.remove, elements.remove(at: index), nil)
            case .replace:
                let old = elements[index]
                elements[index] = new!
                return (.replace, old, nil)
            }
        }
        throw PatchFailure(path: path, reason: .notAContainer(typeName: value.typeName))
    }

    private static func key(_ token: ValueChange.PathComponent) -> String {
        switch token {
        case .key(let key): key
        case .index(let index): String(index)
        }
    }

    /// The array index `token` names in an array of `count` elements: a number without
    /// leading zeros below `count` (up to `count` for an add), or `-` (the end) for an add.
    private static func index(_ token: ValueChange.PathComponent, count: Int, isAdd: Bool, path: [ValueChange.PathComponent]) throws(PatchFailure) -> Int {
        let index: Int
        switch token {
        case .index(let number):
            index = number
        case .key(let text):
            if isAdd, text == "-" { return count }
            let digits = text.utf8
            guard let first = digits.first, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                first != UInt8(ascii: "0") || digits.count == 1
            else { throw PatchFailure(path: path, reason: .notAnIndex(text)) }
            index = Int(text) ?? .max
        }
        guard index >= 0, index < count || (isAdd && index == count) else {
            throw PatchFailure(path: path, reason: .indexOutOfRange(index, count: count))
        }
        return index
    }
}
