/// One difference between two values: at a path, a key or element added or removed, or a value
/// replaced. A list of changes in order is also an RFC 6902 JSON Patch (`jsonPatch`).
public struct ValueChange: Sendable, Equatable {
    public enum Operation: String, Sendable {
        case add, remove, replace
    }

    /// A step of a path: an object key or an array index.
    public enum PathComponent: Sendable, Hashable {
        case key(String)
        case index(Int)

        /// Keys compare by their Unicode scalars, as an object's keys do (`ObjectKey`): `"é"`
        /// and `"e\u{301}"` name two members.
        public static func == (lhs: PathComponent, rhs: PathComponent) -> Bool {
            switch (lhs, rhs) {
            case (.key(let a), .key(let b)): ObjectKey.same(a, b)
            case (.index(let a), .index(let b)): a == b
            default: false
            }
        }

        public func hash(into hasher: inout Hasher) {
            switch self {
            case .key(let key):
                hasher.combine(0)
                hasher.combine(ObjectKey(key))
            case .index(let index):
                hasher.combine(1)
                hasher.combine(index)
            }
        }
    }

    public var path: [PathComponent]
    public var operation: Operation
    /// The value before (`nil` for an add).
    public var old: Value?
    /// The value after (`nil` for a remove).
    public var new: Value?

    public init(path: [PathComponent], operation: Operation, old: Value?, new: Value?) {
        self.path = path
        self.operation = operation
        self.old = old
        self.new = new
    }

    /// The path as expressions write it: `user.name`, `items[2]`, `["a b"]`; `state` for the root.
    public var pathText: String {
        Self.pathText(path)
    }

    /// `path` written as in expressions, `state` when empty.
    public static func pathText(_ path: [PathComponent]) -> String {
        guard !path.isEmpty else { return "state" }
        var text = ""
        for component in path {
            switch component {
            case .key(let key) where Value.isBareKey(key):
                text += text.isEmpty ? key : ".\(key)"
            case .key(let key):
                var quoted = ""
                Value.writeQuoted(key, to: &quoted)
                text += "[\(quoted)]"
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    /// The path as an RFC 6901 JSON Pointer: `/user/name`, `/items/2`; `""` for the root.
    public var jsonPointer: String {
        path.map { component in
            switch component {
            case .key(let key): "/" + key.replacing("~", with: "~0").replacing("/", with: "~1")
            case .index(let index): "/\(index)"
            }
        }.joined()
    }
}

extension Value {
    /// The changes that turn this value into `other`, in an order that applies one after the
    /// other: nested differences are reported at their deepest path, array elements inserted or
    /// removed in the middle as adds and removes. A number that changes kind (`1` to `1.0`) is
    /// replaced, although `==` finds the two equal; the order of an object's keys is not a change.
    ///
    /// A value that wraps the other (`{prev: old, ...}`, `[old]`) or is wrapped by it is one
    /// replacement, not spelled out: a linked history (`state.undo = {prev: state.undo, n: 1}`)
    /// compared level by level would differ at every level, giving as many changes as levels
    /// with paths as long, a cost that grows with the square of the depth at every step.
    public func changes(to other: Value) -> [ValueChange] {
        var changes: [ValueChange] = []
        Self.diff(self, other, path: [], into: &changes)
        return changes
    }

    static func diff(_ old: Value, _ new: Value, path: [ValueChange.PathComponent], into changes: inout [ValueChange]) {
        // Two arrays or objects are not compared whole first: walking them below finds what
        // differs, and an up-front comparison would walk the changed branch once per level.
        switch old {
        case .array, .object: if old.sharesStorage(with: new) { return }
        default: if isIdentical(old, new) { return }
        }
        if wraps(new, old) || wraps(old, new) {
            changes.append(ValueChange(path: path, operation: .replace, old: old, new: new))
            return
        }
        switch (old, new) {
        case (.object(let a), .object(let b)):
            for (key, value) in a {
                if let newValue = b[key] {
                    diff(value, newValue, path: path + [.key(key.string)], into: &changes)
                } else {
                    changes.append(ValueChange(path: path + [.key(key.string)], operation: .remove, old: value, new: nil))
                }
            }
            for (key, value) in b where a[key] == nil {
                changes.append(ValueChange(path: path + [.key(key.string)], operation: .add, old: nil, new: value))
            }
        case (.array(let a), .array(let b)):
            let (prefix, suffix) = identicalEnds(a, b)
            let oldMiddle = a.count - prefix - suffix, newMiddle = b.count - prefix - suffix
            let paired = Swift.min(oldMiddle, newMiddle)
            for offset in 0..<paired {
                diff(a[prefix + offset], b[prefix + offset], path: path + [.index(prefix + offset)], into: &changes)
            }
            if newMiddle > paired {
                for offset in paired..<newMiddle {
                    changes.append(ValueChange(path: path + [.index(prefix + offset)], operation: .add, old: nil, new: b[prefix + offset]))
                }
            } else if oldMiddle > paired {
                for offset in (paired..<oldMiddle).reversed() {
                    changes.append(ValueChange(path: path + [.index(prefix + offset)], operation: .remove, old: a[prefix + offset], new: nil))
                }
            }
        default:
            changes.append(ValueChange(path: path, operation: .replace, old: old, new: new))
        }
    }

    /// `changes(to:)`, for a value out of which arrays were taken and changed in place into
    /// `new`'s (`ValueEncoder.encode(_:memory:replacing:)`): `holes` holds their object key
    /// paths, where this value has `.null` now, with the changes made to each. The objects on
    /// the way to them are compared member by member (a whole one is never a change, and the
    /// holes are filled back in, from `new` and the changes, when one is replaced or removed).
    package func changes(to new: Value, holes: [[String]: [ValueChange]]) -> [ValueChange] {
        let replaced = Replaced(new: new, holes: holes)
        var changes: [ValueChange] = []
        Self.diff(self, new, keys: [], replaced, into: &changes)
        return changes
    }

    private static func diff(_ old: Value, _ new: Value, keys: [String], _ replaced: Replaced, into changes: inout [ValueChange]) {
        if let known = replaced.holes[keys] {
            changes += known
            return
        }
        let path = keys.map(ValueChange.PathComponent.key)
        guard replaced.leadsToHoles(keys) else {
            diff(old, new, path: path, into: &changes)
            return
        }
        guard case .object(let a) = old, case .object(let b) = new else {
            changes.append(ValueChange(path: path, operation: .replace, old: replaced.filled(old, at: keys), new: new))
            return
        }
        for (key, value) in a {
            if let newValue = b[key] {
                diff(value, newValue, keys: keys + [key.string], replaced, into: &changes)
            } else {
                changes.append(ValueChange(path: path + [.key(key.string)], operation: .remove, old: replaced.filled(value, at: keys + [key.string]), new: nil))
            }
        }
        for (key, value) in b where a[key] == nil {
            changes.append(ValueChange(path: path + [.key(key.string)], operation: .add, old: nil, new: value))
        }
    }

    /// The arrays a replacement changed in place (see `changes(to:holes:)`).
    private struct Replaced {
        let new: Value
        let holes: [[String]: [ValueChange]]
        /// The key paths that lead to a hole, the holes' own excluded.
        let ways: Set<[String]>

        init(new: Value, holes: [[String]: [ValueChange]]) {
            self.new = new
            self.holes = holes
            ways = Set(holes.keys.flatMap { keys in (0..<keys.count).map { Array(keys[..<$0]) } })
        }

        func leadsToHoles(_ keys: [String]) -> Bool { ways.contains(keys) }

        /// `value`, at `keys`, with the arrays taken out of it put back as they were: `new`'s,
        /// with their changes undone.
        func filled(_ value: Value, at keys: [String]) -> Value {
            var value = value
            for (hole, changes) in holes where hole.starts(with: keys) {
                let holePath = hole.map(ValueChange.PathComponent.key)
                guard var array = new.value(at: holePath) else { continue }
                for change in changes.reversed() {
                    var relative = change
                    relative.path.removeFirst(hole.count)
                    try? array.undo(relative, position: nil)
                }
                try? value.set(array, at: Array(holePath.dropFirst(keys.count)))
            }
            return value
        }
    }

    /// How many elements at the start of `a` and `b` are identical, and then how many at their
    /// ends, not counting those of the start again. Most elements of a large array an action
    /// changed in one place are the same storage as before (a memory's encoding takes them
    /// over), and `_SameBytes` tells those apart without copying them.
    private static func identicalEnds(_ a: [Value], _ b: [Value]) -> (prefix: Int, suffix: Int) {
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in _SameBytes.commonEnds(a, b) { isIdentical(a[$0], b[$1]) } }
        }
    }

    /// Whether `outer` is an array or object with a member identical to `inner`, itself an array
    /// or object. Members of another kind or size are told apart without being walked.
    private static func wraps(_ outer: Value, _ inner: Value) -> Bool {
        switch inner {
        case .array, .object: break
        default: return false
        }
        switch outer {
        case .array(let elements): return elements.contains { isWhole(inner, $0) }
        case .object(let members): return members.values.contains { isWhole(inner, $0) }
        default: return false
        }
    }

    /// Whether `member` is `inner`, an array or object, identical; told apart by kind and size first.
    static func isWhole(_ inner: Value, _ member: Value) -> Bool {
        switch (member, inner) {
        case (.array(let a), .array(let b)): a.count == b.count && isIdentical(member, inner)
        case (.object(let a), .object(let b)): a.count == b.count && isIdentical(member, inner)
        default: false
        }
    }

    /// Whether two values are the same down to the kind of every number: `==` finds `1` and
    /// `1.0` equal, but a change from one to the other must be reported (at any depth) so that
    /// applying the changes gives the new value exactly. Key order does not count.
    package static func isIdentical(_ old: Value, _ new: Value) -> Bool {
        if old.sharesStorage(with: new) { return true }
        // One value at a time: matching the pair as a tuple would copy both.
        switch old {
        case .int(let a):
            if case .int(let b) = new { return a == b }
            return false
        case .decimal(let a):
            if case .decimal(let b) = new { return a == b }
            return false
        case .array(let a):
            if case .array(let b) = new { return a.count == b.count && zip(a, b).allSatisfy { isIdentical($0, $1) } }
            return false
        case .object(let a):
            if case .object(let b) = new {
                return a.count == b.count && a.allSatisfy { key, value in b[key].map { isIdentical(value, $0) } ?? false }
            }
            return false
        default:
            return old.typeName == new.typeName && old == new
        }
    }
}

extension Value {
    /// Whether this array or object and `other` are the same storage, not merely equal: a
    /// container shares its storage with its copies until one of them is changed, which copies
    /// it. Always `false` for scalars, which have no storage of their own.
    package func sharesStorage(with other: Value) -> Bool {
        switch self {
        case .array(let elements):
            guard case .array(let others) = other else { return false }
            return elements.withUnsafeBufferPointer { mine in
                others.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress && mine.count == theirs.count }
            }
        case .object(let members):
            guard case .object(let others) = other else { return false }
            let sameKeys = members.keys.elements.withUnsafeBufferPointer { mine in
                others.keys.elements.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress && mine.count == theirs.count }
            }
            return sameKeys && members.values.elements.withUnsafeBufferPointer { mine in
                others.values.elements.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress && mine.count == theirs.count }
            }
        default:
            return false
        }
    }
}
