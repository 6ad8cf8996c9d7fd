extension Value {
    /// Applies one change, as RFC 6902 would: `replace` sets the value, `add` sets a key or
    /// inserts an array element, `remove` deletes a key or an element.
    public mutating func apply(_ change: ValueChange) throws(PathError) {
        switch change.operation {
        case .replace:
            try set(change.new ?? .null, at: change.path)
        case .add:
            try insert(change.new ?? .null, at: change.path, position: nil)
        case .remove:
            try removeValue(at: change.path)
        }
    }

    /// Undoes one change applied to this value. `position` is where a removed object key stood,
    /// so that it returns to its place.
    public mutating func undo(_ change: ValueChange, position: Int?) throws(PathError) {
        switch change.operation {
        case .replace:
            try set(change.old ?? .null, at: change.path)
        case .add:
            try removeValue(at: change.path)
        case .remove:
            try insert(change.old ?? .null, at: change.path, position: position)
        }
    }

    /// Where the key at the end of `path` stands in its object, if it does.
    public func keyPosition(at path: [ValueChange.PathComponent]) -> Int? {
        guard case .key(let key)? = path.last, case .object(let members)? = value(at: Array(path.dropLast())) else { return nil }
        return members.index(forKey: key)
    }

    private mutating func insert(_ newValue: Value, at path: [ValueChange.PathComponent], position: Int?) throws(PathError) {
        guard let last = path.last else {
            self = newValue
            return
        }
        try modify(at: Array(path.dropLast())) { parent throws(PathError) in
            // `if case`, not a `switch` over `(last, parent)`, whose copy of `parent` would make
            // the change copy the container (see `set`).
            if case .key(let key) = last, case .object(var members) = parent {
                parent = .null
                if let position, members[key] == nil, position <= members.count {
                    members.updateValue(newValue, forKey: ObjectKey(key), insertingAt: position)
                } else {
                    members[key] = newValue
                }
                parent = .object(members)
            } else if case .index(let index) = last, case .array(var elements) = parent {
                guard index >= 0, index <= elements.count else {
                    throw PathError(path: path, reason: "index \(index) is out of range (count \(elements.count))")
                }
                parent = .null
                elements.insert(newValue, at: index)
                parent = .array(elements)
            } else {
                throw PathError(path: path, reason: "cannot add to \(parent.typeName)")
            }
        }
    }

    private mutating func removeValue(at path: [ValueChange.PathComponent]) throws(PathError) {
        guard let last = path.last else {
            self = .null
            return
        }
        try modify(at: Array(path.dropLast())) { parent throws(PathError) in
            if case .key(let key) = last, case .object(var members) = parent {
                guard members[key] != nil else { throw PathError(path: path, reason: "there is no key '\(key)'") }
                parent = .null
                members.removeValue(forKey: key)
                parent = .object(members)
            } else if case .index(let index) = last, case .array(var elements) = parent {
                guard elements.indices.contains(index) else {
                    throw PathError(path: path, reason: "index \(index) is out of range (count \(elements.count))")
                }
                parent = .null
                elements.remove(at: index)
                parent = .array(elements)
            } else {
                throw PathError(path: path, reason: "cannot remove from \(parent.typeName)")
            }
        }
    }

    /// Changes the value at `path` in place, keeping it uniquely referenced.
    mutating func modify(at path: [ValueChange.PathComponent], _ body: (inout Value) throws(PathError) -> Void) throws(PathError) {
        guard let first = path.first else {
            try body(&self)
            return
        }
        let rest = Array(path.dropFirst())
        // `if case`, not a `switch` over `(first, self)` (see `set`).
        if case .key(let key) = first, case .object(var members) = self {
            guard let index = members.index(forKey: key) else { throw PathError(path: path, reason: "there is no key '\(key)'") }
            self = .null
            defer { self = .object(members) }
            try members.values[index].modify(at: rest, body)
        } else if case .index(let index) = first, case .array(var elements) = self {
            guard elements.indices.contains(index) else {
                throw PathError(path: path, reason: "index \(index) is out of range (count \(elements.count))")
            }
            self = .null
            defer { self = .array(elements) }
            try elements[index].modify(at: rest, body)
        } else {
            throw PathError(path: path, reason: "cannot go into \(typeName)")
        }
    }
}

extension ValueChange {
    /// `changes` with every path that changed more than once merged into one change (the first
    /// old value, the last new value), and changes that ended where they began left out. The
    /// result, applied in order, still turns the old value into the new one.
    public static func coalesced(_ changes: [ValueChange]) -> [ValueChange] {
        guard changes.count > 1 else {
            // One change (the common case) is kept as it is, without a new list. Its fields are
            // read one by one: reading the whole change would copy it.
            guard !changes.isEmpty, changes[0].operation == .replace, Value.identical(changes[0].old, changes[0].new) else {
                return changes
            }
            return []
        }
        var merged: [ValueChange?] = []
        var positions: [[PathComponent]: Int] = [:]
        for change in changes {
            guard let index = positions[change.path], let first = merged[index] else {
                positions[change.path] = merged.count
                merged.append(change)
                continue
            }
            switch (first.operation, change.operation) {
            case (.add, .remove):
                merged[index] = nil
                positions[change.path] = nil
            case (.add, _):
                merged[index] = ValueChange(path: change.path, operation: .add, old: nil, new: change.new)
            case (.remove, .add), (.remove, .replace), (.replace, .add), (.replace, .replace):
                merged[index] = ValueChange(path: change.path, operation: .replace, old: first.old, new: change.new)
            case (_, .remove):
                merged[index] = ValueChange(path: change.path, operation: .remove, old: first.old, new: nil)
            }
        }
        return merged.compactMap { $0 }.filter { !$0.replacesWithItself }
    }
}

extension ValueChange {
    /// Whether the change replaces a value by the same value (numbers of the same kind
    /// included): a change that ended where it began.
    package var replacesWithItself: Bool {
        operation == .replace && Value.identical(old, new)
    }

    /// Whether `old` and `new` are both arrays or both objects: a replacement of one by the
    /// other is spelled out as the changes inside it.
    package static func areContainers(_ old: Value?, _ new: Value?) -> Bool {
        // Matched one at a time: a tuple of the two values would copy them.
        switch old {
        case .array?: if case .array? = new { return true }
        case .object?: if case .object? = new { return true }
        default: break
        }
        return false
    }
}

extension Value {
    /// Whether two optional values are the same, numbers of the same kind included.
    package static func identical(_ a: Value?, _ b: Value?) -> Bool {
        // Matched with `switch`, which lends the values rather than copying them.
        switch a {
        case .some(let a):
            switch b {
            case .some(let b): isIdentical(a, b)
            case .none: false
            }
        case .none:
            b == nil
        }
    }
}

extension ValueChange {
    /// `changes` with every replacement of an array or object by another spelled out as the
    /// changes inside it (`items: [a] → [a, b]` becomes `items[1]: + b`), so that a change list
    /// names the deepest paths that changed.
    public static func refined(_ changes: [ValueChange]) -> [ValueChange] {
        // The fields are read one by one: reading whole changes would copy each.
        guard changes.indices.contains(where: {
            changes[$0].operation == .replace && Self.areContainers(changes[$0].old, changes[$0].new)
        }) else { return changes }
        return changes.flatMap { change -> [ValueChange] in
            switch (change.operation, change.old, change.new) {
            case (.replace, .array?, .array?), (.replace, .object?, .object?):
                return change.old!.changes(to: change.new!).map { inner in
                    ValueChange(path: change.path + inner.path, operation: inner.operation, old: inner.old, new: inner.new)
                }
            default:
                return [change]
            }
        }
    }
}
