extension Value {
    /// How deeply `init(reflecting:)` follows nested values; deeper ones become placeholders.
    public static let maxReflectionDepth = 64

    /// `subject` as a value, read through `Mirror`: for states and actions that are not
    /// `Codable` (shown and compared, never decoded back).
    ///
    /// - A struct or class is an object of its stored properties, in order (a class's
    ///   inherited ones first).
    /// - An enum case without payload is its name; with a payload it is `{type: caseName,
    ///   fields...}` as actions are, the payload's fields by their labels and unlabeled ones
    ///   as `_0`, `_1`... (as `Codable` names them).
    /// - An optional is its value or `null`; arrays and other collections are arrays; a set is an
    ///   array sorted as `ValueEncoder` sorts a set's elements; a dictionary is as
    ///   `ValueEncoder` makes it: with `String` or `Int` keys, an object with its keys sorted
    ///   (`Int`s by number), otherwise `[key, value, key, value...]` with the pairs in the
    ///   canonical order of their keys. So the same set or dictionary always gives the same
    ///   value. A tuple is an object of its labels, or an array without them.
    /// - Integers, finite floating-point numbers, strings, characters and bools are as such,
    ///   and a `Value` is itself.
    /// - Anything else becomes a placeholder, never an empty object:
    ///   `{"$unrepresentable": "<type name>", "description": "<String(describing:)>"}`: a
    ///   function, a reference without stored properties (an opaque object), a reference back
    ///   to an object that encloses it (a cycle; its description says so instead of describing
    ///   it), a NaN or an infinity, an unsigned
    ///   integer above `Int.max`, and anything nested deeper than `maxReflectionDepth`.
    public init(reflecting subject: Any) {
        var reflector = Reflector()
        self = reflector.value(of: subject, depth: 0)
    }

    /// The placeholder of a value that has no `Value`.
    static func unrepresentable(_ subject: Any, description: String? = nil) -> Value {
        [
            "$unrepresentable": .string(String(describing: type(of: subject))),
            "description": .string(description ?? String(describing: subject)),
        ]
    }
}

/// Walks a value through `Mirror`, remembering the objects it is inside (for cycles).
private struct Reflector {
    private var enclosing: Set<ObjectIdentifier> = []

    mutating func value(of subject: Any, depth: Int) -> Value {
        if let scalar = Self.scalar(subject) { return scalar }
        guard depth < Value.maxReflectionDepth else {
            return .unrepresentable(subject, description: "nested deeper than \(Value.maxReflectionDepth) levels")
        }
        let mirror = Mirror(reflecting: subject)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first else { return .null }
            return value(of: wrapped.value, depth: depth)
        case .struct:
            return object(mirror, depth: depth)
        case .class:
            let identity = ObjectIdentifier(subject as AnyObject)
            guard !enclosing.contains(identity) else {
                return .unrepresentable(subject, description: "a cycle: a reference back to an enclosing \(type(of: subject))")
            }
            guard Self.hasStoredProperties(mirror) else { return .unrepresentable(subject) }
            enclosing.insert(identity)
            defer { enclosing.remove(identity) }
            return object(mirror, depth: depth)
        case .enum:
            guard let payload = mirror.children.first else { return .string(String(describing: subject)) }
            var members: Value.Members = ["type": .string(payload.label ?? String(describing: subject))]
            let payloadMirror = Mirror(reflecting: payload.value)
            if payloadMirror.displayStyle == .tuple {
                for (position, field) in payloadMirror.children.enumerated() {
                    members[Self.fieldName(field.label, position: position)] = value(of: field.value, depth: depth + 1)
                }
            } else {
                members["_0"] = value(of: payload.value, depth: depth + 1)
            }
            return .object(members)
        case .tuple:
            let children = Array(mirror.children)
            if children.allSatisfy({ $0.label.map { $0.hasPrefix(".") } ?? true }) {
                return .array(children.map { value(of: $0.value, depth: depth + 1) })
            }
            var members = Value.Members(minimumCapacity: children.count)
            for (position, child) in children.enumerated() {
                members[Self.fieldName(child.label, position: position)] = value(of: child.value, depth: depth + 1)
            }
            return .object(members)
        case .collection:
            return .array(mirror.children.map { value(of: $0.value, depth: depth + 1) })
        case .set:
            return Value.canonicalSet(mirror.children.map { value(of: $0.value, depth: depth + 1) })
        case .dictionary:
            return dictionary(mirror, depth: depth)
        default:
            // A function, a foreign object, or a type with a custom mirror without a style.
            return .unrepresentable(subject)
        }
    }

    /// A dictionary as `ValueEncoder` makes it, in the same order (`Value.canonicalDictionary`):
    /// an object when its keys are `String`s or `Int`s, otherwise `[key, value, key, value...]`.
    private mutating func dictionary(_ mirror: Mirror, depth: Int) -> Value {
        var pairs: [(key: Any, value: Any)] = []
        for child in mirror.children {
            let pair = Array(Mirror(reflecting: child.value).children)
            guard pair.count == 2 else { continue }
            pairs.append((pair[0].value, pair[1].value))
        }
        let names: [String]? = pairs.allSatisfy { $0.key is String } ? pairs.map { $0.key as! String }
            : pairs.allSatisfy { $0.key is Int } ? pairs.map { String($0.key as! Int) } : nil
        guard let names else {
            let flat = pairs.flatMap { [value(of: $0.key, depth: depth + 1), value(of: $0.value, depth: depth + 1)] }
            return Value.canonicalDictionary(.array(flat), intKeys: false)
        }
        var members = Value.Members(minimumCapacity: pairs.count)
        for (name, pair) in zip(names, pairs) { members[name] = value(of: pair.value, depth: depth + 1) }
        return Value.canonicalDictionary(.object(members), intKeys: pairs.first?.key is Int)
    }

    /// An object of a struct's or class's stored properties (a class's inherited ones first).
    private mutating func object(_ mirror: Mirror, depth: Int) -> Value {
        var mirrors = [mirror]
        while let superclass = mirrors.last?.superclassMirror { mirrors.append(superclass) }
        var members: Value.Members = [:]
        for level in mirrors.reversed() {
            for (position, child) in level.children.enumerated() {
                members[Self.fieldName(child.label, position: position)] = value(of: child.value, depth: depth + 1)
            }
        }
        return .object(members)
    }

    private static func hasStoredProperties(_ mirror: Mirror) -> Bool {
        var level: Mirror? = mirror
        while let current = level {
            if !current.children.isEmpty { return true }
            level = current.superclassMirror
        }
        return false
    }

    /// A field's key: its label, or `_0`, `_1`... for a field without one (as `Codable`
    /// names an enum case's unlabeled values).
    private static func fieldName(_ label: String?, position: Int) -> String {
        guard let label, !label.hasPrefix(".") else { return "_\(position)" }
        return label
    }

    /// The value of a number, string, bool or `Value`; `nil` for anything else.
    private static func scalar(_ subject: Any) -> Value? {
        switch subject {
        case let value as Value: return value
        case let string as String: return .string(string)
        case let int as Int: return .int(int)
        case let bool as Bool: return .bool(bool)
        case let double as Double: return double.isFinite ? .decimal(double) : .unrepresentable(double)
        case let float as Float: return float.isFinite ? .decimal(Double(float.description) ?? Double(float)) : .unrepresentable(float)
        case let character as Character: return .string(String(character))
        case let substring as Substring: return .string(String(substring))
        case let int as Int8: return .int(Int(int))
        case let int as Int16: return .int(Int(int))
        case let int as Int32: return .int(Int(int))
        case let int as Int64: return .int(Int(int))
        case let int as UInt8: return .int(Int(int))
        case let int as UInt16: return .int(Int(int))
        case let int as UInt32: return .int(Int(int))
        case let int as UInt: return Int(exactly: int).map(Value.int) ?? .unrepresentable(int)
        case let int as UInt64: return Int(exactly: int).map(Value.int) ?? .unrepresentable(int)
        default: return nil
        }
    }
}
