extension Value {
    /// The member or element `component` names, or `nil` when there is none.
    package func child(_ component: ValueChange.PathComponent) -> Value? {
        switch (component, self) {
        case (.key(let key), .object(let members)): members[key]
        case (.index(let index), .array(let elements)): elements.indices.contains(index) ? elements[index] : nil
        default: nil
        }
    }

    /// The value at `path`, or `nil` when a key or index on the way is missing.
    public func value(at path: [ValueChange.PathComponent]) -> Value? {
        var current = self
        for component in path {
            switch (component, current) {
            case (.key(let key), .object(let members)):
                guard let member = members[key] else { return nil }
                current = member
            case (.index(let index), .array(let elements)):
                guard elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The value at `path`, taken out: `.null` is left in its place, and the containers on the
    /// way are changed in place, so that what is taken is not shared with this value when
    /// nothing else held it. `nil` (and nothing changed) when the path leads nowhere.
    package mutating func take(at path: [ValueChange.PathComponent]) -> Value? {
        var taken: Value?
        try? modify(at: path) { value throws(PathError) in
            taken = value
            value = .null
        }
        return taken
    }

    /// Sets `newValue` at `path`, creating missing object keys (and objects in place of `null`);
    /// keys keep their positions. Fails when the path goes through something that is neither,
    /// or past the end of an array.
    public mutating func set(_ newValue: Value, at path: [ValueChange.PathComponent]) throws(PathError) {
        try Self.set(newValue, at: path[...], in: &self)
    }

    private static func set(_ newValue: Value, at path: ArraySlice<ValueChange.PathComponent>, in target: inout Value) throws(PathError) {
        guard let first = path.first else {
            target = newValue
            return
        }
        // `if case`, not a `switch` over `(first, target)`: the switch's copy of `target` lives
        // through the case, and changing the container would copy it whole.
        if case .key(let key) = first, case .object(var members) = target {
            target = .null
            defer { target = .object(members) }
            if let index = members.index(forKey: key) {
                try set(newValue, at: path.dropFirst(), in: &members.values[index])
            } else {
                var child = Value.null
                try set(newValue, at: path.dropFirst(), in: &child)
                members[key] = child
            }
        } else if case .key(let key) = first, case .null = target {
            var child = Value.null
            try set(newValue, at: path.dropFirst(), in: &child)
            target = .object([ObjectKey(key): child])
        } else if case .index(let index) = first, case .array(var elements) = target {
            guard elements.indices.contains(index) else { throw PathError(path: Array(path), reason: "index \(index) is out of range (count \(elements.count))") }
            target = .null
            defer { target = .array(elements) }
            try set(newValue, at: path.dropFirst(), in: &elements[index])
        } else {
            throw PathError(path: Array(path), reason: "cannot go into \(target.typeName)")
        }
    }
}

/// A path that does not lead anywhere in a value.
public struct PathError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: [ValueChange.PathComponent]
    public var reason: String

    public var description: String { "\(ValueChange.pathText(path)): \(reason)" }
}
